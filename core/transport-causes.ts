/**
 * Why a target could not be reached, in the words of what fixes it. Node and undici name a failed
 * connection by a code (`DEPTH_ZERO_SELF_SIGNED_CERT`, `ECONNREFUSED`, a proxy's refused CONNECT);
 * each class a user meets has its own error code (core/error-codes.ts, docs/errors.md) and one line
 * naming the option that fixes it (`--ca`, `--client-cert`, `NO_PROXY`, …). The client keeps its
 * general `HPS_ERR_TARGET_UNREACHABLE` (its retries and circuit breaker go by it); the line is
 * added to its message, and the preflight ends the command with the specific code (exit 3).
 */
import type { HarnessErrorCode } from './error-codes.ts';

export interface TransportCause {
  readonly code: HarnessErrorCode;
  /** What happened and what fixes it, one line (no target text in it). */
  readonly line: string;
}

const SELF_SIGNED: TransportCause = {
  code: 'HPS_ERR_TLS_SELF_SIGNED',
  line: 'its TLS certificate is self-signed: give that certificate, or the CA that issued it, with --ca FILE (PEM; or the ' +
    'profile\'s network.ca)',
};
const UNKNOWN_CA: TransportCause = {
  code: 'HPS_ERR_TLS_UNKNOWN_CA',
  line: 'its TLS certificate is issued by a CA this machine does not trust: give that CA with --ca FILE (PEM; or the profile\'s ' +
    'network.ca)',
};
const EXPIRED: TransportCause = {
  code: 'HPS_ERR_TLS_EXPIRED',
  line: 'its TLS certificate has expired or is not valid yet: renew it at the target (no option accepts it), or check this ' +
    'machine\'s clock',
};
const HOSTNAME: TransportCause = {
  code: 'HPS_ERR_TLS_HOSTNAME',
  line: 'its TLS certificate does not name the host of the base URL: give a host name the certificate names in the base URL ' +
    '(the URL, --base-url, base_url, or proxy\'s --upstream)',
};
const CLIENT_CERT: TransportCause = {
  code: 'HPS_ERR_TLS_CLIENT_CERT',
  line: 'it refused the TLS handshake, as a target that requires a client certificate does: give one with --client-cert FILE ' +
    '--client-key FILE (or the profile\'s network.client_cert / client_key)',
};
const REFUSED: TransportCause = {
  code: 'HPS_ERR_TARGET_REFUSED',
  line: 'nothing accepts connections at the base URL\'s host and port: check the URL (the URL, --base-url, base_url, or ' +
    'proxy\'s --upstream) and that the service is up',
};

/** Node's and OpenSSL's codes, by the class a user meets. */
const BY_CODE: Readonly<Record<string, TransportCause>> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: SELF_SIGNED,
  SELF_SIGNED_CERT_IN_CHAIN: SELF_SIGNED,
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: UNKNOWN_CA,
  UNABLE_TO_GET_ISSUER_CERT: UNKNOWN_CA,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: UNKNOWN_CA,
  CERT_UNTRUSTED: UNKNOWN_CA,
  CERT_HAS_EXPIRED: EXPIRED,
  CERT_NOT_YET_VALID: EXPIRED,
  ERR_TLS_CERT_ALTNAME_INVALID: HOSTNAME,
  ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED: CLIENT_CERT,
  ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE: CLIENT_CERT,
  ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE: CLIENT_CERT,
  ECONNREFUSED: REFUSED,
};

/** undici's words when the proxy answers its CONNECT with anything but 200. */
const PROXY_REFUSED = /Proxy response \((\d{3})\) !== 200 when HTTP Tunneling/;

/** The class of a connection failure (`code` from the error or its cause, `message` its text), or undefined when none fits. */
export function transportCause(code: string | undefined, message: string): TransportCause | undefined {
  const proxy = PROXY_REFUSED.exec(message);
  if (proxy) {
    return {
      code: 'HPS_ERR_PROXY_REFUSED',
      line: `the HTTP proxy of HTTPS_PROXY refused to open a tunnel to it (CONNECT answered ${proxy[1]}): add the target's host ` +
        'to NO_PROXY to reach it directly, or have the proxy allow it',
    };
  }
  return code === undefined ? undefined : BY_CODE[code];
}

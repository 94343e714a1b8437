/**
 * How the suite reaches a target the way its users do (docs/profile.md, "Network"):
 * - the proxy of the environment, read as curl reads it: `https_proxy`/`HTTPS_PROXY` for https:
 *   targets, `http_proxy`/`HTTP_PROXY` for http: ones (sent in absolute form, no tunnel),
 *   `no_proxy`/`NO_PROXY` exempting hosts (undici's EnvHttpProxyAgent); a target marked
 *   `network.direct` (the embedded reference, on loopback) is never proxied;
 * - the headers an API gateway asks for (`network.headers`, `--header`), sent on every request to
 *   base_url's origin and nowhere else; a `Proxy-*` one goes to the proxy only (its CONNECT, or the
 *   absolute-form request it forwards), never to the target;
 * - mutual TLS: a client certificate and key, and the CA bundle the target's certificate is checked
 *   against (`network.client_cert`, `client_key`, `ca`: PEM files).
 * Header values that came from `${ENV}` are secrets (`redacted_headers`): redacted like keys.
 */
import { createSecureContext } from 'node:tls';
import { EnvHttpProxyAgent, Pool, type Dispatcher } from './undici.ts';
import type { ProfileNetwork } from '../catalogue/schemas/profile.ts';
import { HarnessError } from './errors.ts';
import { IDLE_KEEP_ALIVE_MS } from './keep-alive.ts';
import { INPUT_CAPS, readCappedText } from './read-capped.ts';

export type { ProfileNetwork } from '../catalogue/schemas/profile.ts';

/** Headers the suite sets itself (its probes vary them): a gateway header may not take their place. */
const RESERVED = new Set([
  'authorization',
  'idempotency-key',
  'content-type',
  'content-length',
  'accept',
  'host',
  'connection',
  'transfer-encoding',
  'te',
  'upgrade',
  'expect',
  'keep-alive',
]);
/** A variable by its lower-case name, else its upper-case one; empty is unset (as curl reads them). */
function envVar(name: string, env: NodeJS.ProcessEnv): string | undefined {
  return env[name] || env[name.toUpperCase()] || undefined;
}

/** The proxy settings of the environment: http_proxy, https_proxy, no_proxy (either case). */
export function proxySettings(env: NodeJS.ProcessEnv = process.env): { httpProxy?: string; httpsProxy?: string; noProxy: string } | undefined {
  const httpProxy = envVar('http_proxy', env);
  const httpsProxy = envVar('https_proxy', env);
  if (!httpProxy && !httpsProxy) return undefined;
  return { ...(httpProxy ? { httpProxy } : {}), ...(httpsProxy ? { httpsProxy } : {}), noProxy: envVar('no_proxy', env) ?? '' };
}

const isProxyHeader = (name: string): boolean => name.toLowerCase().startsWith('proxy-');

/** The headers of `network.headers` that go on each request to the target (lower-case names; no Proxy-* ones). */
export function targetHeaders(n: ProfileNetwork | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(n?.headers ?? {})) if (!isProxyHeader(k)) out[k.toLowerCase()] = v;
  return out;
}

/** The Proxy-* headers of `network.headers`: for the proxy's CONNECT (or absolute-form request) only. */
function proxyHeaders(n: ProfileNetwork | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(n?.headers ?? {})) if (isProxyHeader(k)) out[k.toLowerCase()] = v;
  return out;
}

/** The lower-case names whose values are secrets. */
export function redactedHeaderNames(n: ProfileNetwork | undefined): Set<string> {
  return new Set((n?.redacted_headers ?? []).map((h) => h.toLowerCase()));
}

/** The secret header values of a profile's network section, for redaction of free text. */
export function networkSecrets(n: ProfileNetwork | undefined): string[] {
  const names = redactedHeaderNames(n);
  return Object.entries(n?.headers ?? {}).filter(([k]) => names.has(k.toLowerCase())).map(([, v]) => v);
}

/**
 * The names of `network.headers` whose raw (not yet interpolated) value holds a `${NAME}`: their
 * values are secrets. `raw` is the parsed profile JSON before interpolation (untrusted shape).
 */
export function envHeaderNames(raw: unknown): string[] {
  const headers = (raw as { network?: { headers?: unknown } } | null)?.network?.headers;
  if (!headers || typeof headers !== 'object') return [];
  return Object.entries(headers).filter(([, v]) => typeof v === 'string' && /\$\{[A-Za-z_][A-Za-z0-9_]*\}/.test(v)).map(([k]) => k);
}

/** The profile's network section with the headers given on the command line added (a flag wins over the file). */
export function mergeNetwork(base: ProfileNetwork | undefined, add: ProfileNetwork | undefined): ProfileNetwork | undefined {
  if (!add) return base;
  const headers = { ...(base?.headers ?? {}) };
  for (const [k, v] of Object.entries(add.headers ?? {})) {
    for (const existing of Object.keys(headers)) if (existing.toLowerCase() === k.toLowerCase()) delete headers[existing];
    headers[k] = v;
  }
  const redacted = [...new Set([...(base?.redacted_headers ?? []), ...(add.redacted_headers ?? [])])];
  return {
    ...base,
    ...add,
    ...(Object.keys(headers).length ? { headers } : {}),
    ...(redacted.length ? { redacted_headers: redacted } : {}),
  };
}

const pems = new Map<string, string>();

/**
 * A PEM file, read once per process and capped (a device such as /dev/zero has no end); a missing,
 * unreadable or oversized one is one line naming the field.
 */
function pemFile(path: string, field: string): string {
  let b = pems.get(path);
  if (b === undefined) {
    b = readCappedText(path, INPUT_CAPS.pem, `network.${field}`, 'HPS_ERR_PROFILE');
    pems.set(path, b);
  }
  return b;
}

interface TlsMaterial {
  cert?: string;
  key?: string;
  ca?: string;
}

/** The TLS material of the network section (files read), or undefined when it names none. */
function tlsMaterial(n: ProfileNetwork | undefined): TlsMaterial | undefined {
  if (!n?.client_cert && !n?.client_key && !n?.ca) return undefined;
  return {
    ...(n.client_cert ? { cert: pemFile(n.client_cert, 'client_cert') } : {}),
    ...(n.client_key ? { key: pemFile(n.client_key, 'client_key') } : {}),
    ...(n.ca ? { ca: pemFile(n.ca, 'ca') } : {}),
  };
}

/**
 * Checks a network section before any request: reserved header names, a certificate without its
 * key (or the reverse), files that cannot be read or do not make a TLS context (a key that is not
 * the certificate's, a file that is no PEM). One line naming the field, exit 2; never the file's text.
 */
export function checkNetwork(n: ProfileNetwork | undefined, source: string): void {
  for (const name of Object.keys(n?.headers ?? {})) {
    if (RESERVED.has(name.toLowerCase())) throw new HarnessError(
      'HPS_ERR_PROFILE',
      `${source}: network.headers.${name}: the suite sets this header itself (its probes vary it); it cannot be added`,
    );
  }
  if (Boolean(n?.client_cert) !== Boolean(n?.client_key)) {
    throw new HarnessError('HPS_ERR_PROFILE', `${source}: network.client_cert and network.client_key go together (mutual TLS needs both)`);
  }
  const tls = tlsMaterial(n);
  if (!tls) return;
  try {
    createSecureContext(tls);
  } catch (e) {
    const what = (e as { code?: string }).code ?? 'not usable';
    throw new HarnessError(
      'HPS_ERR_PROFILE',
      `${source}: network.client_cert / client_key / ca do not make a TLS context (${what}): PEM files, the key the certificate's`,
    );
  }
}

/** What makes two dispatchers to one origin different: the proxy variables and the TLS files. */
export function dispatcherKey(origin: string, n: ProfileNetwork | undefined): string {
  const proxy = n?.direct ? 'direct' : JSON.stringify(proxySettings() ?? null);
  return [origin, n?.client_cert ?? '', n?.client_key ?? '', n?.ca ?? '', proxy, JSON.stringify(proxyHeaders(n))].join('\n');
}

/**
 * The dispatcher of one origin: a keep-alive pool straight to it, or (a proxy in the environment)
 * undici's EnvHttpProxyAgent, which honours NO_PROXY per request. Mutual TLS either way.
 */
export function dispatcherFor(origin: string, n: ProfileNetwork | undefined, connections: number): Dispatcher {
  const tls = tlsMaterial(n);
  const common = { connections, keepAliveTimeout: IDLE_KEEP_ALIVE_MS, pipelining: 1 };
  const proxy = n?.direct ? undefined : proxySettings();
  if (!proxy) return new Pool(origin, { ...common, ...(tls ? { connect: tls } : {}) });
  const headers = proxyHeaders(n);
  return new EnvHttpProxyAgent({
    ...common,
    ...proxy,
    ...(tls ? { connect: tls, requestTls: tls } : {}),
    ...(Object.keys(headers).length ? { headers } : {}),
    proxyTunnel: false,
  } as ConstructorParameters<typeof EnvHttpProxyAgent>[0]);
}

let environmentAgent: { key: string; agent: Dispatcher } | undefined;

/**
 * For one-off requests to a merchant's endpoint (the receiver's deliveries, its inspection): the
 * environment's proxy as `{ dispatcher }` (NO_PROXY honoured per request), or nothing without one.
 */
export function viaEnvironmentProxy(): { dispatcher?: Dispatcher } {
  const proxy = proxySettings();
  if (!proxy) return {};
  const key = JSON.stringify(proxy);
  if (environmentAgent?.key !== key) environmentAgent = {
    key,
    agent: new EnvHttpProxyAgent({ ...proxy, proxyTunnel: false } as ConstructorParameters<typeof EnvHttpProxyAgent>[0]),
  };
  return { dispatcher: environmentAgent.agent };
}

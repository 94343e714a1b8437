/**
 * Ed25519 signatures of certificates through node:crypto (docs/certificates.md). The private key
 * comes from `--sign-key FILE`, or from the environment: HPS_SIGN_KEY holding the PEM, or
 * HPS_SIGN_KEY_FILE naming a file. PEM (PKCS#8) only; any other key type is refused (exit 2).
 */
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { INPUT_CAPS, readCappedText } from '../../core/read-capped.ts';
import { HarnessError } from '../../core/errors.ts';
import { canonicalize } from '../../core/canonical-json.ts';
import type { Certificate, CertificateSignature } from '../../catalogue/report/model.ts';
import { createHash } from 'node:crypto';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function readKeyFile(path: string, what: string): string {
  return readCappedText(path, INPUT_CAPS.signingKey, what);
}

function ed25519(key: KeyObject, what: string): KeyObject {
  if (key.asymmetricKeyType !== 'ed25519') throw new HarnessError(
    'HPS_ERR_USAGE',
    `${what}: an Ed25519 key is needed, this one is ${key.asymmetricKeyType ?? 'not asymmetric'}`,
  );
  return key;
}

/** The signing key from --sign-key FILE, else HPS_SIGN_KEY (PEM), else HPS_SIGN_KEY_FILE; undefined: the certificate stays unsigned. */
export function loadSigningKey(file: string | undefined, env: NodeJS.ProcessEnv = process.env): KeyObject | undefined {
  const [pem, what] = file !== undefined ? [readKeyFile(file, '--sign-key'), '--sign-key']
    : env.HPS_SIGN_KEY ? [env.HPS_SIGN_KEY, 'HPS_SIGN_KEY']
    : env.HPS_SIGN_KEY_FILE ? [readKeyFile(env.HPS_SIGN_KEY_FILE, 'HPS_SIGN_KEY_FILE'), 'HPS_SIGN_KEY_FILE'] : [undefined, ''];
  if (pem === undefined) return undefined;
  try {
    return ed25519(createPrivateKey(pem), what);
  } catch (e) {
    if (e instanceof HarnessError) throw e;
    throw new HarnessError('HPS_ERR_USAGE', `${what}: not a PEM private key (PKCS#8)`);
  }
}

/** A public key from a PEM file (SPKI), or the public half of a private key's PEM. */
export function loadPublicKey(file: string): KeyObject {
  const pem = readKeyFile(file, '--public-key');
  try {
    return ed25519(createPublicKey(pem), '--public-key');
  } catch (e) {
    if (e instanceof HarnessError) throw e;
    throw new HarnessError('HPS_ERR_USAGE', `--public-key: ${file} is not a PEM public key`);
  }
}

export function fingerprint(key: KeyObject): string {
  return sha256(publicDer(key));
}

function publicDer(key: KeyObject): Buffer {
  return (key.type === 'private' ? createPublicKey(key) : key).export({ type: 'spki', format: 'der' });
}

/** The bytes signed: the certificate's canonical JSON, its signature's `value` left out. */
export function signedBytes(cert: Certificate): Buffer {
  const { value: _value, ...sig } = cert.signature ?? ({} as CertificateSignature);
  return Buffer.from(canonicalize({ ...cert, signature: cert.signature ? sig : null }), 'utf8');
}

export function signCertificate(cert: Certificate, key: KeyObject): Certificate {
  const der = publicDer(key);
  const unsigned: Certificate = {
    ...cert,
    signature: { algorithm: 'Ed25519', public_key: der.toString('base64'), public_key_sha256: sha256(der), value: '' },
  };
  const value = sign(null, signedBytes(unsigned), key).toString('base64');
  return { ...unsigned, signature: { ...unsigned.signature!, value } };
}

/** A fingerprint as printed and as `--fingerprint` takes it: `SHA256:` and the 64 hex digits of the SPKI DER's SHA-256. */
export const showFingerprint = (hex: string): string => `SHA256:${hex}`;

/** `SHA256:HEX` (or the bare 64 hex digits) → the lower-case hex; undefined when it is not one. */
export function parseFingerprint(text: string): string | undefined {
  const m = /^(?:SHA256:)?([0-9a-fA-F]{64})$/.exec(text.trim());
  return m ? m[1]!.toLowerCase() : undefined;
}

/**
 * A trust file: the signers a verifier names, one fingerprint (`SHA256:HEX`) per line; blank
 * lines and `#` comments are skipped. Anything else is a usage error naming the line.
 */
export function readTrustFile(path: string): string[] {
  const lines = readKeyFile(path, '--trust').split(/\r?\n/).slice(0, 10_000);
  const out: string[] = [];
  lines.forEach((line, i) => {
    const t = line.replace(/#.*$/, '').trim();
    if (!t) return;
    const f = parseFingerprint(t);
    if (!f) throw new HarnessError('HPS_ERR_USAGE', `--trust: ${path} line ${i + 1} is not a fingerprint (SHA256: and 64 hex digits)`);
    out.push(f);
  });
  if (!out.length) throw new HarnessError('HPS_ERR_USAGE', `--trust: ${path} names no signer (one SHA256:HEX fingerprint per line)`);
  return out;
}

/**
 * Why the signature does not hold (undefined when it does). `signers`: the fingerprints the
 * verifier named; when given, the certificate must be signed by one of them. Without them a
 * signature present is still checked against its own key (a broken one is a mismatch), but that
 * proves only that someone signed: the caller says "signature not checked".
 */
export function signatureProblem(cert: Certificate, signers?: readonly string[]): string | undefined {
  const s = cert.signature;
  if (!s) return 'the certificate is unsigned';
  if (s.algorithm !== 'Ed25519') return `signature.algorithm ${String(s.algorithm)} is not Ed25519`;
  let key: KeyObject;
  try {
    key = createPublicKey({ key: Buffer.from(String(s.public_key), 'base64'), format: 'der', type: 'spki' });
  } catch {
    return 'signature.public_key is not an SPKI public key';
  }
  if (fingerprint(key) !== s.public_key_sha256) return `signature.public_key_sha256 ${s.public_key_sha256} is not the fingerprint of ` +
    `signature.public_key (${fingerprint(key)})`;
  if (signers && !signers.includes(s.public_key_sha256)) return `signed by ${showFingerprint(s.public_key_sha256)}, not by a signer ` +
    `named (${signers.map(showFingerprint).join(', ')})`;
  const sig = Buffer.from(String(s.value), 'base64');
  // One spelling per signature: base64 that decodes leniently (padding bits, stray characters) is refused.
  if (sig.length !== 64 || sig.toString('base64') !== s.value) return 'signature.value is not the base64 of a 64-byte Ed25519 signature';
  let ok = false;
  try {
    ok = verify(null, signedBytes(cert), key, sig);
  } catch {
    ok = false;
  }
  return ok ? undefined : 'the signature does not match the certificate (an edit after signing, or a forged signature)';
}

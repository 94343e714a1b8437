/**
 * The webhook signature of the spec (section "Events", "Signature"):
 *
 *   Service-Signature: t=<unix_time>,v1=<hex>
 *
 *   1. `v1` is the lowercase hex HMAC-SHA256, keyed with the endpoint's signing secret, over the
 *      string `<t>.` followed by the exact raw body bytes received (never re-serialised JSON).
 *   2. The receiver rejects a timestamp older than 5 minutes and compares in constant time.
 *
 * Header grammar accepted here (strict; anything else is `malformed`, returned as data, never thrown):
 *
 *   header = item *( "," item )
 *   item   = key "=" value
 *   key    = 1*( any char except "=" / "," / whitespace )
 *   value  = 1*( any char except "," / whitespace )      ; split at the first "="
 *
 *   - exactly one `t`, whose value is 1*15DIGIT;
 *   - at least one `v1` (several are allowed: secret rotation; any one matching passes);
 *   - other schemes (`v0`, `v2`, ...) are ignored.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type ParsedSignatureHeader =
  | { ok: true; t: number; /** `t` exactly as sent: the HMAC covers these characters */ tText: string; v1: string[] }
  | { ok: false; problem: string };

const WHITESPACE = /\s/;
const DIGITS = /^[0-9]{1,15}$/;

export function parseSignatureHeader(header: string): ParsedSignatureHeader {
  if (typeof header !== 'string') return { ok: false, problem: 'header is not a string' };
  if (header.length === 0) return { ok: false, problem: 'header is empty' };
  if (WHITESPACE.test(header)) return { ok: false, problem: 'header contains whitespace' };
  let tText: string | undefined;
  const v1: string[] = [];
  const items = header.split(',');
  for (const [index, item] of items.entries()) {
    if (item.length === 0) return { ok: false, problem: `item ${index + 1} is empty` };
    const eq = item.indexOf('=');
    if (eq === -1) return { ok: false, problem: `item ${index + 1} (${clip(item)}) has no "="` };
    const key = item.slice(0, eq);
    const value = item.slice(eq + 1);
    if (key.length === 0) return { ok: false, problem: `item ${index + 1} has an empty scheme name` };
    if (value.length === 0) return { ok: false, problem: `item ${index + 1} (${clip(key)}) has an empty value` };
    if (key === 't') {
      if (tText !== undefined) return { ok: false, problem: 't appears more than once' };
      if (!DIGITS.test(value)) return { ok: false, problem: `t (${clip(value)}) is not a decimal unix time` };
      tText = value;
    } else if (key === 'v1') {
      v1.push(value);
    }
    // Any other scheme is ignored.
  }
  if (tText === undefined) return { ok: false, problem: 'no t' };
  if (v1.length === 0) return { ok: false, problem: 'no v1' };
  return { ok: true, t: Number(tText), tText, v1 };
}

export type SignatureProblem =
  | 'missing_header'
  | 'malformed'
  | 'no_secrets'
  | 'no_matching_signature'
  | 'signature_not_lowercase_hex'
  | 'timestamp_too_old'
  | 'timestamp_in_future';

export interface SignatureVerdict {
  valid: boolean;
  problem?: SignatureProblem;
  /** Human detail for `malformed` (which part of the header is wrong). */
  detail?: string;
  /** The header's `t`, when it parsed. */
  t?: number;
  /** now - t in seconds, when it parsed (negative: in the future). */
  ageSeconds?: number;
  /** Index in `secrets` of the secret whose signature matched. */
  matchedSecretIndex?: number;
  /** Index among the header's `v1` entries of the one that matched. */
  matchedV1Index?: number;
  /** How many `v1` entries the header carried. */
  v1Count?: number;
}

export interface VerifySignatureInput {
  /** The Service-Signature header value; undefined when absent. */
  header: string | undefined;
  /** The exact raw bytes of the body as received. */
  rawBody: Buffer;
  /** Candidate secrets (UTF-8 bytes are the HMAC key); any one matching passes. */
  secrets: readonly string[];
  /** Current time in unix seconds (may be fractional). Default: Date.now() / 1000. */
  nowSeconds?: number;
  /** Accepted |now - t| in seconds. Default 300 (the spec's 5 minutes). null or Infinity: no check. */
  toleranceSeconds?: number | null;
}

export const DEFAULT_TOLERANCE_SECONDS = 300;

/** The lowercase hex v1 signature of `rawBody` at time `t` under `secret`. */
export function computeSignature(secret: string, t: number | string, rawBody: Buffer | string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${t}.`, 'utf8')
    .update(typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody)
    .digest('hex');
}

/** A Service-Signature header value for tests: `t=<t>,v1=<hex>`. */
export function signPayload(secret: string, t: number, rawBody: Buffer | string): string {
  return `t=${t},v1=${computeSignature(secret, t, rawBody)}`;
}

export function verifySignature(input: VerifySignatureInput): SignatureVerdict {
  const { header, rawBody, secrets } = input;
  if (header === undefined) return { valid: false, problem: 'missing_header' };
  const parsed = parseSignatureHeader(header);
  if (!parsed.ok) return { valid: false, problem: 'malformed', detail: parsed.problem };

  const nowSeconds = input.nowSeconds ?? Date.now() / 1000;
  const base = { t: parsed.t, ageSeconds: nowSeconds - parsed.t, v1Count: parsed.v1.length };
  if (secrets.length === 0) return { valid: false, problem: 'no_secrets', ...base };

  // 1. Compare every v1 entry with the expected signature of every candidate secret, in constant
  //    time (timingSafeEqual needs equal lengths, so lengths are checked first).
  let caseOnlyMismatch = false;
  for (const [secretIndex, secret] of secrets.entries()) {
    const expected = Buffer.from(computeSignature(secret, parsed.tText, rawBody), 'utf8');
    for (const [v1Index, candidate] of parsed.v1.entries()) {
      const given = Buffer.from(candidate, 'utf8');
      if (given.length !== expected.length) continue;
      if (timingSafeEqual(given, expected)) {
        return checkTimestamp(input, { valid: true, ...base, matchedSecretIndex: secretIndex, matchedV1Index: v1Index });
      }
      if (timingSafeEqual(Buffer.from(candidate.toLowerCase(), 'utf8'), expected)) caseOnlyMismatch = true;
    }
  }
  // The spec asks for lowercase hex; an uppercase signature is reported apart (it is still invalid).
  return { valid: false, problem: caseOnlyMismatch ? 'signature_not_lowercase_hex' : 'no_matching_signature', ...base };
}

// 2. The timestamp window, checked once the signature matched (as Stripe's verifiers do).
function checkTimestamp(input: VerifySignatureInput, verdict: SignatureVerdict): SignatureVerdict {
  const tolerance = input.toleranceSeconds === undefined ? DEFAULT_TOLERANCE_SECONDS : input.toleranceSeconds;
  if (tolerance === null || tolerance === Infinity) return verdict;
  const age = verdict.ageSeconds ?? 0;
  if (age > tolerance) return { ...verdict, valid: false, problem: 'timestamp_too_old' };
  if (-age > tolerance) return { ...verdict, valid: false, problem: 'timestamp_in_future' };
  return verdict;
}

function clip(text: string): string {
  return text.length > 20 ? `${text.slice(0, 20)}...` : text;
}

/**
 * Identifier and secret generation. Every random part comes from node:crypto, drawn from a
 * pooled buffer (one randomBytes call per 4 KiB, not per identifier: the hot path mints one
 * request id per request).
 */
import { randomBytes } from 'node:crypto';

const POOL_BYTES = 4096;
let pool = randomBytes(POOL_BYTES);
let poolAt = 0;

function randomByte(): number {
  if (poolAt === POOL_BYTES) {
    pool = randomBytes(POOL_BYTES);
    poolAt = 0;
  }
  return pool[poolAt++]!;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** `n` characters drawn uniformly from `alphabet` (rejection sampling, no modulo bias). */
export function randomString(n: number, alphabet: string = ALNUM): string {
  const size = alphabet.length;
  const ceiling = 256 - (256 % size);
  let out = '';
  while (out.length < n) {
    const byte = randomByte();
    if (byte < ceiling) out += alphabet.charAt(byte % size);
  }
  return out;
}

/** `pt_test_sk_` / `pt_live_sk_` followed by 24 random alphanumerics. */
export function newApiKey(env: 'test' | 'live'): string {
  return `pt_${env}_sk_${randomString(24)}`;
}

export function newSigningSecret(): string {
  return `whsec_${randomString(32)}`;
}

// Request ids: `req_` + 24 alphanumerics, as before: a random 16-character prefix per process
// (renewed when the counter wraps) and an 8-character base-36 counter. Unique, cheap, and
// not secret (they are echoed in every answer).
const REQUEST_COUNTER_LIMIT = 36 ** 8;
let requestPrefix = randomString(16);
let requestCounter = 0;

export function newRequestId(): string {
  if (requestCounter === REQUEST_COUNTER_LIMIT) {
    requestPrefix = randomString(16);
    requestCounter = 0;
  }
  return `req_${requestPrefix}${(requestCounter++).toString(36).padStart(8, '0')}`;
}

export function newEventId(): string {
  return `evt_${randomString(24)}`;
}

export function newObjectId(prefix: string): string {
  return `${prefix}_${randomString(24)}`;
}

let paymentSequence = 0;

/**
 * `pay_` + 8 base-36 digits of a process-wide sequence + 16 random characters.
 * The sequence prefix makes ids of one process increase with creation order, so the
 * list order (created_at desc, then id desc) equals reverse creation order even for
 * payments created within the same millisecond. Ids stay opaque to clients.
 */
export function newPaymentId(form: 'sequential' | 'random' = 'sequential'): string {
  if (form === 'random') return `pay_${randomString(24, LOWER_ALNUM)}`;
  paymentSequence += 1;
  return `pay_${paymentSequence.toString(36).padStart(8, '0')}${randomString(16, LOWER_ALNUM)}`;
}

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
// not secret (they are echoed in every answer). The id is kept as bytes and counted up in
// place: the string read from them is flat, where a concatenation would be a rope that
// node:http's header check has to flatten again on every answer.
const REQUEST_ID_PREFIX = 'req_';
const COUNTER_DIGITS = 8;
const requestIdBytes = Buffer.alloc(REQUEST_ID_PREFIX.length + 16 + COUNTER_DIGITS);
let requestIdFresh = true;

function renewRequestPrefix(): void {
  requestIdBytes.write(`${REQUEST_ID_PREFIX}${randomString(16)}${'0'.repeat(COUNTER_DIGITS)}`, 'latin1');
}
renewRequestPrefix();

const DIGIT_0 = 0x30; // '0'
const DIGIT_9 = 0x39; // '9'
const LETTER_A = 0x61; // 'a'
const LETTER_Z = 0x7a; // 'z'

/** Counts the base-36 counter up by one (lower-case digits, as Number#toString(36)); false when it wraps. */
function countUp(): boolean {
  for (let i = requestIdBytes.length - 1; i >= requestIdBytes.length - COUNTER_DIGITS; i -= 1) {
    const d = requestIdBytes[i]!;
    if (d === LETTER_Z) {
      requestIdBytes[i] = DIGIT_0;
      continue;
    }
    requestIdBytes[i] = d === DIGIT_9 ? LETTER_A : d + 1;
    return true;
  }
  return false;
}

export function newRequestId(): string {
  if (!requestIdFresh && !countUp()) renewRequestPrefix();
  requestIdFresh = false;
  return requestIdBytes.toString('latin1');
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

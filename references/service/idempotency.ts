/**
 * Idempotency of createPayment (spec, "Rules" 1-3; "Authentication": keys are scoped to
 * the API key; "Limits": retained 24 hours).
 *
 * - Same API key + same Idempotency-Key + identical body → the original status and body
 *   (the stored bytes), no new Payment.
 * - Same keys + different body → 409 `idempotency_conflict`.
 * - Same keys while the first request is still processing → 409 `idempotency_in_progress`.
 * "Identical body" compares the canonical JSON of the parsed body (object keys sorted),
 * or the raw bytes when the body does not parse.
 * Only a 201 is stored: a request that ends in an error releases the key.
 */
import { createHash } from 'node:crypto';
import { ApiError } from './errors.ts';

export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
const MAX_CANONICAL_DEPTH = 200;
const SWEEP_EVERY = 1000;

export interface StoredResponse {
  status: number;
  body: Buffer;
  /** idempotentErrors decision 'stored': the error the first request ended in, raised again on replay. */
  error?: ApiError;
}

interface Entry {
  fingerprint: string;
  startedAt: number;
  state: 'processing' | 'completed';
  response: StoredResponse | null;
}

export type IdempotencyOutcome =
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'started'; slot: string };

/** The Idempotency-Key header: absent → null; empty or longer than 255 → 400 `invalid_request`. */
export function readIdempotencyKey(value: string | string[] | undefined, max: number = MAX_IDEMPOTENCY_KEY_LENGTH): string | null {
  if (value === undefined) return null;
  const key = Array.isArray(value) ? value.join(', ') : value;
  if (key.length === 0 || key.length > max) {
    throw new ApiError('invalid_request', {
      param: 'Idempotency-Key',
      message: `Idempotency-Key must be 1 to ${max} characters.`,
    });
  }
  return key;
}

/** Digest of the canonical JSON of the body, or of its raw bytes when it does not parse. */
export function bodyFingerprint(bytes: Buffer, identity: 'canonical-json' | 'raw-bytes' = 'canonical-json'): string {
  const hash = createHash('sha256');
  const canonical = identity === 'raw-bytes' ? null : canonicalJsonOf(bytes);
  if (canonical === null) hash.update('raw:').update(bytes);
  else hash.update('json:').update(canonical, 'utf8');
  return hash.digest('hex');
}

function canonicalJsonOf(bytes: Buffer): string | null {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return null;
  }
  return canonicalJson(value, 0);
}

/** JSON with object keys sorted at every level; null beyond MAX_CANONICAL_DEPTH. */
export function canonicalJson(value: unknown, depth: number): string | null {
  if (depth > MAX_CANONICAL_DEPTH) return null;
  if (Array.isArray(value)) {
    const parts: string[] = [];
    for (const item of value) {
      const part = canonicalJson(item, depth + 1);
      if (part === null) return null;
      parts.push(part);
    }
    return `[${parts.join(',')}]`;
  }
  if (value !== null && typeof value === 'object') {
    const parts: string[] = [];
    for (const key of Object.keys(value).sort()) {
      const part = canonicalJson((value as Record<string, unknown>)[key], depth + 1);
      if (part === null) return null;
      parts.push(`${JSON.stringify(key)}:${part}`);
    }
    return `{${parts.join(',')}}`;
  }
  return JSON.stringify(value);
}

export class IdempotencyStore {
  readonly #entries = new Map<string, Entry>();
  #begins = 0;

  /**
   * Looks the pair up. Returns the stored response to replay, or reserves the slot
   * (state processing) for a new request. Throws the 409s of Rules 2 and 3.
   */
  begin(apiKey: string, idempotencyKey: string, fingerprint: string, now: number, clash: 'in-progress-wins' | 'conflict-wins' = 'in-progress-wins'): IdempotencyOutcome {
    this.#begins += 1;
    if (this.#begins % SWEEP_EVERY === 0) this.sweep(now);
    const slot = `${apiKey}\u0000${idempotencyKey}`;
    const entry = this.#entries.get(slot);
    if (entry !== undefined && !(entry.state === 'completed' && isExpired(entry, now))) {
      if (entry.state === 'processing' && clash === 'conflict-wins' && entry.fingerprint !== fingerprint) {
        throw new ApiError('idempotency_conflict', { param: 'Idempotency-Key' });
      }
      if (entry.state === 'processing') throw new ApiError('idempotency_in_progress', { param: 'Idempotency-Key' });
      if (entry.fingerprint !== fingerprint) throw new ApiError('idempotency_conflict', { param: 'Idempotency-Key' });
      if (entry.response !== null) return { kind: 'replay', response: entry.response };
    }
    this.#entries.set(slot, { fingerprint, startedAt: now, state: 'processing', response: null });
    return { kind: 'started', slot };
  }

  /** Reserves the slot whatever it holds (an upsert): what a store without an atomic insert-if-absent does after its lookup. */
  reserve(apiKey: string, idempotencyKey: string, fingerprint: string, now: number): string {
    const slot = `${apiKey}\u0000${idempotencyKey}`;
    this.#entries.set(slot, { fingerprint, startedAt: now, state: 'processing', response: null });
    return slot;
  }

  /** Stores the result of a reserved slot for replays. */
  complete(slot: string, response: StoredResponse): void {
    const entry = this.#entries.get(slot);
    if (entry === undefined) return;
    entry.state = 'completed';
    entry.response = response;
  }

  /** Frees a reserved slot whose request ended in an error: the key may be used again. */
  release(slot: string): void {
    const entry = this.#entries.get(slot);
    if (entry !== undefined && entry.state === 'processing') this.#entries.delete(slot);
  }

  sweep(now: number): void {
    for (const [slot, entry] of this.#entries) {
      if (entry.state === 'completed' && isExpired(entry, now)) this.#entries.delete(slot);
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}

function isExpired(entry: Entry, now: number): boolean {
  return now - entry.startedAt >= IDEMPOTENCY_RETENTION_MS;
}

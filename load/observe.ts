/**
 * Correctness under load: what every response of the run says about the target, recorded
 * as it arrives (inside autocannon's onResponse, so it stays cheap).
 *
 * - create 201 (new request): EVERY body is parsed and checked: a Payment by its schema,
 *   status PENDING, amount decimal-equal to the amount sent, external_id the one sent.
 * - create replay (same Idempotency-Key, same bytes as an earlier completed create): 201 with
 *   the original id (spec Rule 1; DESIGN: same status code and same id are MUST).
 * - read of a pre-created id: 200 (a 404 is a failure); a bounded sample of bodies is
 *   validated (Payment, same id, same amount); a body byte for byte the one last found valid
 *   for that payment is valid without being parsed again.
 * - list: 200; a bounded sample of bodies is validated as a PaymentList.
 * - any 5xx, per operation.
 * 429 and other non-2xx answers are not correctness findings here: they count as errors
 * against --max-error-rate.
 */
import { validate } from '../catalogue/schemas/index.ts';
import { decimalEquals } from '../core/decimal.ts';
import { OPS, type CreateRequest, type Op } from './scenarios.ts';

export interface PaymentRef {
  id: string;
  amount: string;
  externalId: string;
}

export interface CompletedKey extends PaymentRef {
  key: string;
  body: string;
}

/** What was sent on one connection for the response that follows (autocannon context). */
export interface Sent {
  op: Op;
  create?: CreateRequest;
  replayOf?: CompletedKey;
  read?: PaymentRef;
}

const MAX_EXAMPLES = 5;
/** Payments whose last valid read body is kept (the read pool's size, in practice). */
const VALID_READS_KEPT = 1024;
const COMPLETED_KEYS_KEPT = 512;
const REPLAYED_EXTERNAL_IDS_KEPT = 200;

/** Bodies of reads/lists actually validated: the first `first`, then one in `every`. */
export const SAMPLING = { read: { first: 2000, every: 20 }, list: { first: 500, every: 50 } } as const;

function sampled(n: number, s: { first: number; every: number }): boolean {
  return n <= s.first || n % s.every === 0;
}

function clip(s: string, n = 200): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

/** A body as text: the generator hands over bytes, decoded only when they are looked at. */
function text(body: string | Buffer): string {
  return typeof body === 'string' ? body : body.toString('utf8');
}

/** The same bytes (either side may have been decoded already). */
function sameBytes(a: string | Buffer, b: string | Buffer): boolean {
  return typeof a !== 'string' && typeof b !== 'string' ? a.equals(b) : text(a) === text(b);
}

function parse(body: string): any {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

export class Examples {
  readonly items: string[] = [];
  count = 0;
  add(line: string): void {
    this.count += 1;
    if (this.items.length < MAX_EXAMPLES) this.items.push(line);
  }
  /** Adds another list's count and examples (merging workers' observations). */
  absorb(other: { items: readonly string[]; count: number }): void {
    this.count += other.count;
    for (const line of other.items) if (this.items.length < MAX_EXAMPLES) this.items.push(line);
  }
}

/** Observations as plain data: what a worker thread posts back (structured clone). */
export interface ObservationSnapshot {
  created: PaymentRef[];
  replayedExternalIds: string[];
  create: Observations['create'];
  replay: Observations['replay'];
  read: Observations['read'];
  list: Observations['list'];
  storm: Observations['storm'];
  fiveXX: Observations['fiveXX'];
  errorCodes: Record<Op, [string, number][]>;
}

type Counted = { bad: Examples } & Record<string, number | Examples | string[]>;

function addCounts<T extends Counted>(into: T, from: T): void {
  for (const k of Object.keys(from) as (keyof T)[]) {
    const v = from[k];
    if (typeof v === 'number') (into[k] as number) += v;
  }
  into.bad.absorb(from.bad);
}

export class Observations {
  /** Payments created by new creates of the run (201), in order. */
  readonly created: PaymentRef[] = [];
  readonly completedKeys: CompletedKey[] = [];
  readonly replayedExternalIds = new Set<string>();

  readonly create = { responses: 0, created: 0, checked: 0, bad: new Examples() };
  readonly replay = { sent: 0, responses: 0, sameId: 0, bad: new Examples() };
  readonly read = { responses: 0, ok: 0, sampled: 0, bad: new Examples() };
  readonly list = { responses: 0, ok: 0, sampled: 0, bad: new Examples() };
  /** idempotency-storm: rounds of one key fired on every connection at once. */
  readonly storm = { rounds: 0, responses: 0, original: 0, inProgress: 0, bad: new Examples(), externalIds: [] as string[] };
  readonly fiveXX: Record<Op | 'setup' | 'after', number> = { create: 0, read: 0, list: 0, setup: 0, after: 0 };
  /** Non-2xx answers of the load by operation, as "409 idempotency_conflict" → count. */
  readonly errorCodes: Record<Op, Map<string, number>> = { create: new Map(), read: new Map(), list: new Map() };
  /**
   * Per payment read, the body last found valid. A sampled read answering those very bytes again
   * is valid without parsing them anew: the verdict is a function of the bytes and the payment
   * (a Payment by the schema, its id, its amount). A server answers a payment that has not changed
   * with the same bytes, so most sampled reads are one comparison instead of a parse and a schema.
   */
  private readonly validReads = new Map<PaymentRef, string | Buffer>();

  snapshot(): ObservationSnapshot {
    const codes = (op: Op): [string, number][] => [...this.errorCodes[op].entries()];
    return {
      created: this.created,
      replayedExternalIds: [...this.replayedExternalIds],
      create: this.create,
      replay: this.replay,
      read: this.read,
      list: this.list,
      storm: this.storm,
      fiveXX: this.fiveXX,
      errorCodes: { create: codes('create'), read: codes('read'), list: codes('list') },
    };
  }

  /** One Observations holding every worker's counts, examples and created payments. */
  static merge(snapshots: readonly ObservationSnapshot[]): Observations {
    const o = new Observations();
    for (const s of snapshots) {
      for (const p of s.created) o.created.push(p);
      for (const id of s.replayedExternalIds) if (o.replayedExternalIds.size < REPLAYED_EXTERNAL_IDS_KEPT) o.replayedExternalIds.add(id);
      addCounts(o.create, s.create);
      addCounts(o.replay, s.replay);
      addCounts(o.read, s.read);
      addCounts(o.list, s.list);
      addCounts(o.storm, s.storm);
      for (const id of s.storm.externalIds) o.storm.externalIds.push(id);
      for (const k of Object.keys(s.fiveXX) as (keyof typeof o.fiveXX)[]) o.fiveXX[k] += s.fiveXX[k];
      for (const op of OPS) for (const [k, n] of s.errorCodes[op]) o.errorCodes[op].set(k, (o.errorCodes[op].get(k) ?? 0) + n);
    }
    return o;
  }

  /**
   * One storm round: every answer must be the original (201, one id for all of them) or
   * 409 idempotency_in_progress; 429 and 5xx count as errors elsewhere.
   */
  observeStorm(externalId: string, answers: readonly { status: number; body: string }[]): void {
    this.storm.rounds += 1;
    if (this.storm.externalIds.length < 200) this.storm.externalIds.push(externalId);
    const ids = new Set<string>();
    for (const a of answers) {
      this.storm.responses += 1;
      if (a.status >= 500) this.fiveXX.create += 1;
      if (a.status === 429 || a.status >= 500) continue;
      const json = parse(a.body);
      if (a.status === 201 && typeof json?.id === 'string' && validate('Payment', json).valid) {
        this.storm.original += 1;
        ids.add(json.id);
      } else if (a.status === 409 && json?.error?.code === 'idempotency_in_progress') this.storm.inProgress += 1;
      else this.storm.bad.add(`storm ${externalId}: answered ${a.status}${json?.error?.code ? ` ${json.error.code}` : ''}, expected 201 ` +
        `(the original) or 409 idempotency_in_progress`);
    }
    if (ids.size > 1) this.storm.bad.add(`storm ${externalId}: ${ids.size} different payment ids answered 201 for one Idempotency-Key (${[...ids].slice(0, 3).join(', ')})`);
  }

  /** A completed keyed create to replay, for a uniform draw r (only when r < share). */
  pickReplay(r: number, share: number): CompletedKey | undefined {
    if (this.completedKeys.length === 0 || r >= share) return undefined;
    const k = this.completedKeys[Math.floor((r / share) * this.completedKeys.length)];
    if (k) {
      this.replay.sent += 1;
      if (this.replayedExternalIds.size < REPLAYED_EXTERNAL_IDS_KEPT) this.replayedExternalIds.add(k.externalId);
    }
    return k;
  }

  observe(sent: Sent, status: number, raw: string | Buffer): void {
    if (status >= 500) this.fiveXX[sent.op] += 1;
    if (status < 200 || status >= 300) {
      const code = parse(text(raw))?.error?.code;
      const k = `${status}${typeof code === 'string' ? ` ${code.slice(0, 60)}` : ''}`;
      const m = this.errorCodes[sent.op];
      if (m.has(k) || m.size < 20) m.set(k, (m.get(k) ?? 0) + 1);
    }
    if (sent.op === 'create') {
      if (sent.replayOf) this.observeReplay(sent.replayOf, status, text(raw));
      else if (sent.create) this.observeCreate(sent.create, status, text(raw));
    } else if (sent.op === 'read' && sent.read) this.observeRead(sent.read, status, raw);
    else if (sent.op === 'list') this.observeList(status, text(raw));
  }

  private observeCreate(req: CreateRequest, status: number, body: string): void {
    this.create.responses += 1;
    if (status !== 201) return;
    this.create.created += 1;
    this.create.checked += 1;
    const json = parse(body);
    const problems: string[] = [];
    if (json === undefined) problems.push('body is not JSON');
    else {
      const v = validate('Payment', json);
      if (!v.valid) problems.push(`not a Payment (${v.errors.slice(0, 2).join('; ')})`);
      if (json?.status !== 'PENDING') problems.push(`status ${JSON.stringify(json?.status)}, expected "PENDING"`);
      if (!decimalEquals(json?.amount, req.amount)) problems.push(`amount ${JSON.stringify(json?.amount)}, sent "${req.amount}"`);
      if (json?.external_id !== req.externalId) problems.push(`external_id ${JSON.stringify(json?.external_id)}, sent "${req.externalId}"`);
    }
    if (problems.length) {
      this.create.bad.add(`create #${req.seq}: ${problems.join(', ')} — body ${clip(body)}`);
      return;
    }
    const ref: PaymentRef = { id: json.id, amount: req.amount, externalId: req.externalId };
    this.created.push(ref);
    if (req.idempotencyKey) {
      const done: CompletedKey = { ...ref, key: req.idempotencyKey, body: req.body };
      if (this.completedKeys.length < COMPLETED_KEYS_KEPT) this.completedKeys.push(done);
      else this.completedKeys[req.seq % COMPLETED_KEYS_KEPT] = done;
    }
  }

  private observeReplay(orig: CompletedKey, status: number, body: string): void {
    this.replay.responses += 1;
    if (status === 429 || status >= 500) return; // errors, counted elsewhere
    const json = status === 201 ? parse(body) : undefined;
    if (status === 201 && json?.id === orig.id && validate('Payment', json).valid) {
      this.replay.sameId += 1;
      return;
    }
    const code = parse(body)?.error?.code;
    this.replay.bad.add(
      status === 201
        ? `replay of ${orig.externalId}: id ${JSON.stringify(json?.id)}, original ${orig.id}${json && !validate(
          'Payment',
          json,
        ).valid ? ' (not a Payment)' : ''}`
        : `replay of ${orig.externalId}: answered ${status}${code ? ` ${code}` : ''}, expected 201 with id ${orig.id}`,
    );
  }

  /** Most read bodies are not sampled: they are never decoded. */
  private observeRead(ref: PaymentRef, status: number, body: string | Buffer): void {
    this.read.responses += 1;
    if (status === 200) this.read.ok += 1;
    if (status === 404) {
      this.read.bad.add(`GET ${ref.id}: answered 404 ${parse(text(body))?.error?.code ?? ''} for a payment this run created`.trim());
      return;
    }
    if (status !== 200 || !sampled(this.read.ok, SAMPLING.read)) return;
    this.read.sampled += 1;
    const known = this.validReads.get(ref);
    if (known !== undefined && sameBytes(known, body)) return;
    const json = parse(text(body));
    const v = json === undefined ? { valid: false, errors: ['body is not JSON'] } : validate('Payment', json);
    if (!v.valid) this.read.bad.add(`GET ${ref.id}: not a Payment (${v.errors.slice(0, 2).join('; ')})`);
    else if (json.id !== ref.id) this.read.bad.add(`GET ${ref.id}: answered payment ${JSON.stringify(json.id)}`);
    else if (!decimalEquals(json.amount, ref.amount)) {
      this.read.bad.add(`GET ${ref.id}: amount ${JSON.stringify(json.amount)}, created with "${ref.amount}"`);
    } else {
      if (this.validReads.size >= VALID_READS_KEPT) this.validReads.clear();
      this.validReads.set(ref, body);
    }
  }

  private observeList(status: number, body: string): void {
    this.list.responses += 1;
    if (status !== 200) return;
    this.list.ok += 1;
    if (!sampled(this.list.ok, SAMPLING.list)) return;
    this.list.sampled += 1;
    const json = parse(body);
    const v = json === undefined ? { valid: false, errors: ['body is not JSON'] } : validate('PaymentList', json);
    if (!v.valid) this.list.bad.add(`GET /v1/payments?limit=20: not a PaymentList (${v.errors.slice(0, 2).join('; ')})`);
    else if (json.data.length > 20) this.list.bad.add(`GET /v1/payments?limit=20: ${json.data.length} items`);
  }
}

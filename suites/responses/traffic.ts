/**
 * Varied traffic for the RESP-* rules (spec: "Error statuses per operation", "Error",
 * "Payment", "PaymentList"). The RESP rules hold for every answer, so their tests drive
 * random sequences of the six operations — plus unknown routes and wrong methods — with
 * valid and invalid bodies, valid and invalid keys, existing and unknown ids, and judge
 * every answer (directly here; core/ambient.ts judges the same answers as well).
 *
 * Each test first walks a fixed tour that visits every kind of step once (so each rule
 * sees every kind of answer whatever the seed), then runs a seeded property over random
 * step sequences.
 *
 * Live keys only read (list, get, GET on unknown routes) unless `probes.live_writes`.
 */
import fc from 'fast-check';
import {
  TOO_MANY_METADATA_KEYS,
  UNKNOWN_ROUTES,
  trafficStep,
  type BodyCase,
  type IdCase,
  type IdOp,
  type IdemCase,
  type KeyKind,
  type Step,
} from '../../service/generators/traffic-step.ts';
import { livemodeOfKey } from '../../core/api-key.ts';
import type { ApiResponse, RequestOptions } from '../../core/client.ts';
import type { RuleContext } from '../../service/harness/worker/rule-test.ts';
import type { OperationId } from '../../catalogue/schemas/index.ts';
import { onNewRun } from '../../service/harness/worker/run-scoped.ts';
import { share } from '../../service/harness/worker/depth.ts';
import { keptAnswer } from '../../core/bounded-validation.ts';

// ───────────────────────────── answers ─────────────────────────────

/** One answer of the traffic, with what is needed to judge it. */
export interface Seen {
  /** The operation addressed, or null (unknown route, wrong method). */
  op: OperationId | null;
  keyKind: KeyKind;
  /** true under a Live key, false under a Test key, undefined without a usable key. */
  keyLivemode: boolean | undefined;
  /** The request carried an Idempotency-Key. */
  idempotent: boolean;
  /** The second send under one Idempotency-Key with the identical body. */
  replay: boolean;
  /** The amount sent, for creates with a JSON body. */
  sentAmount?: unknown;
  res: ApiResponse;
}

const ID_OPS: Record<IdOp, OperationId> = {
  get: 'getPayment',
  cancel: 'cancelPayment',
  succeed: 'simulatePaymentSucceeded',
  'helper-cancel': 'simulatePaymentCancelled',
};

const MINIMAL: BodyCase = { kind: 'valid', body: { amount: '10.5' } };
const FULL: BodyCase = {
  kind: 'valid',
  body: {
    amount: '1234.56', description: 'Order 42', merchant_reference: 'INV-42', return_url: 'https://shop.example/done',
    metadata: { order: '42' }, allowed_methods: ['BKASH', 'NAGAD'], allowed_channels: ['SEND_MONEY', 'PAYMENT', 'CASH_IN', 'BANK_TRANSFER'],
  },
};
const create = (body: BodyCase, idem: IdemCase = 'none', key: KeyKind = 'test'): Step => ({ op: 'create', key, body, idem });
const id = (op: IdOp, c: IdCase, key: KeyKind = 'test'): Step => ({ op, key, id: c });
const list = (query: Record<string, string>, key: KeyKind = 'test'): Step => ({ op: 'list', key, query });
const UNKNOWN_ID: IdCase = { kind: 'unknown', value: 'pay_doesnotexist' };

/** The tour's creates: valid, replayed, conflicting, invalid, malformed. */
function createSteps(): Step[] {
  return [
    create(MINIMAL),
    create({ kind: 'valid', body: { amount: '0.01', return_url: 'myshop://checkout/done' } }),
    create(FULL, 'replay'),
    create(FULL, 'conflict'),
    create({ kind: 'reuse-external-id', body: { amount: '20.00' } }),
    create({ kind: 'invalid', body: { amount: '-1' }, why: 'negative amount' }),
    create({ kind: 'invalid', body: { amount: 10 }, why: 'amount is a JSON number' }),
    create({ kind: 'invalid', body: { description: 'no amount' }, why: 'amount missing' }),
    create({ kind: 'invalid', body: { amount: '10.00', return_url: 'javascript:alert(1)' }, why: 'javascript: return_url' }),
    create({ kind: 'invalid', body: { amount: '10.00', metadata: TOO_MANY_METADATA_KEYS }, why: '21 metadata keys' }),
    create({ kind: 'invalid', body: { amount: '10.00', context_items: [{ name: 'x' }] }, why: 'context_items sent' }),
    create({ kind: 'invalid', body: { amount: '10.00', allowed_methods: ['VISA'] }, why: 'unknown allowed method' }),
    create({ kind: 'raw', raw: '{"amount": "1', contentType: 'application/json', why: 'truncated JSON' }),
    create({ kind: 'raw', raw: '{"amount":"10.00"}', contentType: 'text/plain', why: 'Content-Type text/plain' }),
  ];
}

/** Its lists and reads, cancels and helper moves, with the Test key. */
function readSteps(): Step[] {
  return [
    list({}),
    list({ status: 'PAID', limit: '5' }),
    list({ status: 'BOGUS' }),
    list({ limit: '0' }),
    list({ created_from: '2999-01-01T00:00:00Z' }),
    list({ limit: '1', starting_after: 'pay_conformance_no_such_id' }),
    id('get', { kind: 'pending' }),
    id('get', { kind: 'paid' }),
    id('get', { kind: 'cancelled' }),
    id('get', { kind: 'foreign' }),
    id('get', UNKNOWN_ID),
    id('get', { kind: 'unknown', value: 'does-not-exist' }),
    id('cancel', { kind: 'pending' }),
    id('cancel', { kind: 'paid' }),
    id('cancel', UNKNOWN_ID),
    id('succeed', { kind: 'pending' }),
    id('succeed', { kind: 'cancelled' }),
    id('helper-cancel', { kind: 'pending' }),
    id('helper-cancel', { kind: 'paid' }),
  ];
}

/** Its requests with every other kind of key, and off the API's routes. */
function otherKeySteps(): Step[] {
  return [
    // every other kind of key, where it matters
    create(MINIMAL, 'none', 'none'),
    list({ limit: '3' }, 'malformed'),
    id('get', { kind: 'paid' }, 'unknown'),
    id('cancel', { kind: 'paid' }, 'revoked'),
    id('cancel', { kind: 'paid' }, 'read_only'),
    id('get', { kind: 'paid' }, 'write_only'),
    id('get', { kind: 'paid' }, 'other_test'),
    list({ limit: '5' }, 'live'),
    id('get', { kind: 'live' }, 'live'),
    id('get', { kind: 'paid' }, 'live'),
    id('cancel', { kind: 'live' }, 'live'),
    create(MINIMAL, 'none', 'live'),
    { op: 'unknown-route', key: 'test', method: 'GET', path: UNKNOWN_ROUTES[0] },
    { op: 'wrong-method', key: 'test', method: 'DELETE', path: '/v1/payments' },
  ];
}

/**
 * Every kind of step at least once, all deterministic: the part of each test that does not
 * depend on the seed (each body, list and id kind with the Test key, then each other key kind
 * on an operation where it matters, an unknown route and a wrong method).
 */
export function tour(): Step[] {
  return [...createSteps(), ...readSteps(), ...otherKeySteps()];
}

// ───────────────────────────── sending ─────────────────────────────

function isRead(step: Step): boolean {
  return step.op === 'list' || step.op === 'get' || ((step.op === 'unknown-route' || step.op === 'wrong-method') && step.method === 'GET');
}

function queryString(q: Record<string, string>): string {
  const s = new URLSearchParams(q).toString();
  return s ? `?${s}` : '';
}

interface ResolvedKey {
  kind: KeyKind;
  auth: Pick<RequestOptions, 'key' | 'authorization'>;
  livemode: boolean | undefined;
}

let idemCounter = 0;
onNewRun(() => (idemCounter = 0));

export class Traffic {
  /** The answers held (not yet let go: release). */
  readonly seen: Seen[] = [];
  /** Answers received, those let go included. */
  answers = 0;
  /** Characters of the answers held. */
  heldChars = 0;
  readonly liveWrites: boolean;
  readonly #t: RuleContext;
  readonly #fixtures = new Map<string, Promise<string | undefined>>();
  readonly #livePending = new Set<string>();

  constructor(t: RuleContext) {
    this.#t = t;
    this.liveWrites = t.profile.probes?.live_writes === true;
  }

  /** The key of a kind; a kind the profile lacks becomes `test`, a Live write without probes.live_writes too. */
  key(kind: KeyKind, read: boolean): ResolvedKey {
    const k = this.#t.keys;
    const plain = (kind: KeyKind, key: string | undefined): ResolvedKey | null =>
      key ? { kind, auth: { key }, livemode: livemodeOfKey(key) } : null;
    let r: ResolvedKey | null = null;
    switch (kind) {
      case 'test': r = plain(kind, k.test); break;
      case 'live': r = read || this.liveWrites ? plain(kind, k.live) : null; break;
      case 'none': r = { kind, auth: { key: null }, livemode: undefined }; break;
      case 'malformed': r = { kind, auth: { authorization: 'Bearer not-a-key' }, livemode: undefined }; break;
      case 'unknown': r = plain(kind, 'pt_test_sk_Zz9Zz9Zz9Zz9Zz9Zz9Zz9Zz9'); break;
      case 'revoked': r = plain(kind, k.test_revoked); break;
      case 'read_only': r = plain(kind, k.test_read_only); break;
      case 'write_only': r = plain(kind, k.test_write_only); break;
      case 'other_test': r = plain(kind, k.other_test); break;
    }
    return r ?? plain('test', k.test)!;
  }

  async send(op: OperationId | null, key: ResolvedKey, req: Omit<RequestOptions, 'key' | 'authorization'>, extra: Partial<Seen> = {}): Promise<ApiResponse> {
    const res = await this.#t.client.request({ ...req, ...key.auth });
    this.answers++;
    this.heldChars += res.text.length;
    this.seen.push({ op, keyKind: key.kind, keyLivemode: key.livemode, idempotent: req.idempotencyKey !== undefined, replay: false, res, ...extra });
    if (op === 'createPayment' && res.status === 201 && res.json?.livemode === true && typeof res.json.id === 'string') this.#livePending.add(res.json.id);
    return res;
  }

  #marked(body: Record<string, unknown>, externalId?: string): Record<string, unknown> {
    const meta = body['metadata'];
    return {
      ...body,
      external_id: externalId ?? this.#t.externalId('resp'),
      metadata: { ...this.#t.metadata(), ...(meta && typeof meta === 'object' ? (meta as Record<string, string>) : {}) },
    };
  }

  async #create(key: ResolvedKey, body: Record<string, unknown>): Promise<string | undefined> {
    const res = await this.send('createPayment', key, { method: 'POST', path: '/v1/payments', json: this.#marked(body) }, { sentAmount: body['amount'] });
    return res.status === 201 && typeof res.json?.id === 'string' ? res.json.id : undefined;
  }

  /** The id an id step addresses; fixtures are made on first use (through `send`, so judged too). */
  async id(c: IdCase): Promise<string> {
    const missing = 'pay_fixture_unavailable';
    const test = this.key('test', false);
    if (c.kind === 'unknown') return c.value;
    if (c.kind === 'pending') return (await this.#create(test, { amount: '25.00' })) ?? missing;
    let fixture = this.#fixtures.get(c.kind);
    if (fixture === undefined) {
      fixture = this.#fixture(c.kind);
      this.#fixtures.set(c.kind, fixture);
    }
    return (await fixture) ?? missing;
  }

  async #fixture(kind: 'paid' | 'cancelled' | 'foreign' | 'live'): Promise<string | undefined> {
    const test = this.key('test', false);
    if (kind === 'paid' || kind === 'cancelled') {
      const id = await this.#create(test, { amount: '30.00' });
      if (id) {
        await this.send(kind === 'paid' ? 'simulatePaymentSucceeded' : 'cancelPayment', test, {
          method: 'POST',
          path: kind === 'paid' ? `/v1/test_helpers/payments/${encodeURIComponent(id)}/succeed` : `/v1/payments/${encodeURIComponent(id)}/cancel`,
        });
      }
      return id;
    }
    if (kind === 'foreign') return this.#t.keys.other_test ? this.#create(this.key('other_test', false), { amount: '40.00' }) : undefined;
    if (!this.#t.keys.live) return undefined;
    if (this.liveWrites) return this.#create(this.key('live', false), { amount: '50.00' });
    const res = await this.send('listPayments', this.key('live', true), { method: 'GET', path: '/v1/payments?limit=1' });
    const first = res.status === 200 && Array.isArray(res.json?.data) ? res.json.data[0]?.id : undefined;
    return typeof first === 'string' ? first : undefined;
  }


  async run(step: Step): Promise<void> {
    const key = this.key(step.key, isRead(step));
    switch (step.op) {
      case 'create':
        return this.#runCreate(key, step.body, step.idem);
      case 'list':
        await this.send('listPayments', key, { method: 'GET', path: `/v1/payments${queryString(step.query)}` });
        return;
      case 'get':
      case 'cancel':
      case 'succeed':
      case 'helper-cancel': {
        const id = encodeURIComponent(await this.id(step.id));
        const path = { get: `/v1/payments/${id}`, cancel: `/v1/payments/${id}/cancel`, succeed: `/v1/test_helpers/payments/${id}/succeed`, 'helper-cancel': `/v1/test_helpers/payments/${id}/cancel` }[step.op];
        await this.send(ID_OPS[step.op], key, { method: step.op === 'get' ? 'GET' : 'POST', path });
        return;
      }
      case 'unknown-route':
      case 'wrong-method':
        await this.send(null, key, { method: step.method, path: step.path, ...(step.method === 'GET' ? {} : { json: {} }) });
        return;
    }
  }

  async #runCreate(key: ResolvedKey, c: BodyCase, idem: IdemCase): Promise<void> {
    const idempotencyKey = idem === 'none' ? undefined : `${this.#t.runId}-resp-${process.pid.toString(36)}-${(++idemCounter).toString(36)}`;
    const req = (json: Record<string, unknown>) => ({ method: 'POST', path: '/v1/payments', json, ...(idempotencyKey ? { idempotencyKey } : {}) });
    if (c.kind === 'raw') {
      await this.send('createPayment', key, { method: 'POST', path: '/v1/payments', raw: c.raw, headers: { 'content-type': c.contentType }, ...(idempotencyKey ? { idempotencyKey } : {}) });
      return;
    }
    if (c.kind === 'reuse-external-id') {
      const externalId = this.#t.externalId('reuse');
      await this.send('createPayment', key, req(this.#marked(c.body, externalId)), { sentAmount: c.body['amount'] });
      await this.send('createPayment', key, { ...req(this.#marked({ ...c.body, amount: '99.99' }, externalId)), idempotencyKey: undefined });
      return;
    }
    const json = this.#marked(c.body);
    await this.send('createPayment', key, req(json), { sentAmount: c.body['amount'] });
    if (idem === 'replay') await this.send('createPayment', key, req(json), { sentAmount: c.body['amount'], replay: true });
    if (idem === 'conflict') await this.send('createPayment', key, req({ ...json, amount: '77.77' }));
  }

  /** Keeps of the answers from `from` on only what a later judge reads (core/bounded-validation.ts keptAnswer). */
  lighten(from: number): void {
    for (const s of this.seen.slice(from)) {
      const kept = keptAnswer(s.res);
      this.heldChars -= s.res.text.length - kept.text.length;
      s.res = kept;
    }
  }

  /** Lets go of the answers from `from` on (judged already): counted in `answers`, no longer held. */
  release(from: number): void {
    for (const s of this.seen.splice(from)) this.heldChars -= s.res.text.length;
  }

  /** Cancels the Live Payments this traffic created that are still PENDING (the harness cleans up Test ones). */
  async close(): Promise<void> {
    const live = this.#t.keys.live;
    if (!live) return;
    for (const id of [...this.#livePending].slice(0, 50)) {
      try {
        const g = await this.#t.client.getPayment(live, id);
        if (g.status === 200 && g.json?.status === 'PENDING') await this.#t.client.cancelPayment(live, id);
      } catch {
        /* best effort */
      }
    }
    this.#livePending.clear();
  }
}

const TOUR_CONCURRENCY = 6;
/**
 * The tour's answers are kept for the worker's later tests while they hold at most this many
 * characters (a conformant target's: some 50 KB). A large answer not parsed (a 7.5 MB list past the
 * width bound, issue 44) is kept as its start and length once judged (keptAnswer); a target whose
 * parsed answers are megabytes would have the worker keep them for the run: each test then walks
 * the tour itself and lets each answer go once judged.
 */
const TOUR_KEPT_CHARS = 2 * 1024 * 1024;

/**
 * The tour's answers, kept once walked (per module instance: per worker, as the runner shares
 * modules between the files of a worker). Later tests judge these answers by their own rule
 * instead of walking the tour again; a rule selected alone walks it itself.
 */
let tourAnswers: Seen[] | undefined;
onNewRun(() => (tourAnswers = undefined));

/** Judges one answer; a failure leaves its exchange at the end of the test's transcript (evidence). */
function judge(t: RuleContext, check: (s: Seen) => void, s: Seen): void {
  try {
    check(s);
  } catch (e) {
    if (t.client.transcript[t.client.transcript.length - 1] !== s.res.exchange) t.client.transcript.push(s.res.exchange);
    throw e;
  }
}

export interface DriveOptions {
  /** Property runs as a fraction of --runs (service/harness/worker/depth.ts). @defaultValue 0.08 */
  fraction?: number;
  /** Most steps per sequence. @defaultValue 5 */
  maxSteps?: number;
  /** Skip the fixed tour (when the test has its own deterministic part). */
  noTour?: boolean;
}

/**
 * Walks the tour, then random step sequences, judging every answer with `check`
 * (which throws a Mismatch). Returns the traffic for counts and notes.
 */
export async function driveTraffic(t: RuleContext, check: (s: Seen) => void, opts: DriveOptions = {}): Promise<Traffic> {
  const traffic = new Traffic(t);
  try {
    if (!opts.noTour && tourAnswers !== undefined) {
      // The tour is deterministic: an earlier test already walked it (and the ambient checks
      // judged its answers then); this test judges the same answers by its own rule.
      for (const s of tourAnswers) judge(t, check, s);
      t.note(`the fixed tour's ${tourAnswers.length} answers, walked by an earlier test, were judged again`);
    } else if (!opts.noTour) {
      // The tour's steps are independent: a few at a time.
      const steps = tour();
      let keep = true;
      for (let i = 0; i < steps.length; i += TOUR_CONCURRENCY) {
        const from = traffic.seen.length;
        await Promise.all(steps.slice(i, i + TOUR_CONCURRENCY).map((step) => traffic.run(step)));
        for (const s of traffic.seen.slice(from)) judge(t, check, s);
        traffic.lighten(from);
        if (traffic.heldChars > TOUR_KEPT_CHARS) keep = false;
        if (!keep) traffic.release(0);
      }
      if (keep) tourAnswers = [...traffic.seen];
      traffic.release(0);
    }
    await t.property(
      fc.array(trafficStep(), { minLength: 1, maxLength: opts.maxSteps ?? 5 }),
      async (steps) => {
        for (const step of steps) {
          const from = traffic.seen.length;
          await traffic.run(step);
          for (const s of traffic.seen.slice(from)) judge(t, check, s);
          traffic.release(from);
        }
      },
      { runs: share(t.runs, opts.fraction ?? 0.08) },
    );
  } finally {
    await traffic.close();
  }
  return traffic;
}

/** "POST /v1/payments (test key)" for messages. */
export function describeSeen(s: Seen): string {
  const r = s.res.exchange.request;
  return `${r.method} ${r.path} (${s.keyKind} key)`;
}

/**
 * Varied traffic for the RESP-* rules (spec: "Error statuses per operation", "Error",
 * "Payment", "PaymentList"). The RESP rules hold for every answer, so their tests drive
 * random sequences of the six operations — plus unknown routes and wrong methods — with
 * valid and invalid bodies, valid and invalid keys, existing and unknown ids, and judge
 * every answer (directly here; runner/ambient.ts judges the same answers as well).
 *
 * Each test first walks a fixed tour that visits every kind of step once (so each rule
 * sees every kind of answer whatever the seed), then runs a seeded property over random
 * step sequences.
 *
 * Live keys only read (list, get, GET on unknown routes) unless `probes.live_writes`.
 */
import fc from 'fast-check';
import { amountNotString } from '../../generators/amount-not-string.ts';
import { COLLECTION_CHANNELS, PAYMENT_METHODS, RESERVED_METADATA_KEYS } from '../../generators/create-payment-request.ts';
import { invalidAmount } from '../../generators/invalid-amount.ts';
import { invalidReturnUrl } from '../../generators/invalid-return-url.ts';
import { validAmount } from '../../generators/valid-amount.ts';
import { validReturnUrl } from '../../generators/valid-return-url.ts';
import { livemodeOfKey } from '../../core/api-key.ts';
import type { ApiResponse, RequestOptions } from '../../core/client.ts';
import type { RuleContext } from '../../runner/rule-test.ts';
import type { OperationId } from '../../schemas/index.ts';

// ───────────────────────────── steps ─────────────────────────────

/** Credentials a step is sent with. Kinds the profile lacks fall back to `test`. */
export const KEY_KINDS = ['test', 'live', 'none', 'malformed', 'unknown', 'revoked', 'read_only', 'write_only', 'other_test'] as const;
export type KeyKind = (typeof KEY_KINDS)[number];

/** Which Payment an id step addresses. */
export type IdCase =
  | { kind: 'pending' | 'paid' | 'cancelled' | 'foreign' | 'live' }
  | { kind: 'unknown'; value: string };

export type BodyCase =
  /** A valid request body; the run markers (external_id, metadata.conformance_run) are added when sent. */
  | { kind: 'valid'; body: Record<string, unknown> }
  /** A JSON object the spec rejects; markers added when sent. */
  | { kind: 'invalid'; body: Record<string, unknown>; why: string }
  /** Bytes that are not a JSON object under Content-Type application/json, or the wrong Content-Type. */
  | { kind: 'raw'; raw: string; contentType: string; why: string }
  /** Two valid creates with the same external_id (the second is Rule 4's 409). */
  | { kind: 'reuse-external-id'; body: Record<string, unknown> };

export type IdemCase = 'none' | 'fresh' | 'replay' | 'conflict';
export type IdOp = 'get' | 'cancel' | 'succeed' | 'helper-cancel';

export type Step =
  | { op: 'create'; key: KeyKind; body: BodyCase; idem: IdemCase }
  | { op: 'list'; key: KeyKind; query: Record<string, string> }
  | { op: IdOp; key: KeyKind; id: IdCase }
  | { op: 'unknown-route'; key: KeyKind; method: 'GET' | 'POST'; path: string }
  | { op: 'wrong-method'; key: KeyKind; method: string; path: string };

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

// ───────────────────────────── arbitraries ─────────────────────────────

const metadataKey = fc.stringMatching(/^[a-z][a-z0-9_]{0,15}$/).filter((k) => !(RESERVED_METADATA_KEYS as readonly string[]).includes(k));

/** Valid CreatePaymentRequest bodies without the run markers: amount plus any optional fields. */
export function validBody(): fc.Arbitrary<Record<string, unknown>> {
  return fc.record(
    {
      amount: validAmount(),
      description: fc.string({ maxLength: 40 }),
      merchant_reference: fc.stringMatching(/^[A-Za-z0-9 #-]{1,30}$/),
      return_url: validReturnUrl(),
      metadata: fc.dictionary(metadataKey, fc.string({ maxLength: 30 }), { maxKeys: 4 }),
      allowed_methods: fc.subarray([...PAYMENT_METHODS], { minLength: 1 }),
      allowed_channels: fc.subarray([...COLLECTION_CHANNELS], { minLength: 1 }),
    },
    { requiredKeys: ['amount'] },
  );
}

const tooManyMetadataKeys = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v']));

/** Bodies the spec rejects with a 400 (which code is the create area's business, not this one's). */
const invalidBody: fc.Arbitrary<BodyCase> = fc.oneof(
  invalidAmount().map((c) => ({ kind: 'invalid' as const, body: { amount: c.value }, why: c.why })),
  amountNotString().map((c) => ({ kind: 'invalid' as const, body: { amount: c.value }, why: c.why })),
  invalidReturnUrl().map((c) => ({ kind: 'invalid' as const, body: { amount: '10.00', return_url: c.value }, why: c.why })),
  fc.constantFrom<BodyCase>(
    { kind: 'invalid', body: { description: 'no amount' }, why: 'amount missing' },
    { kind: 'invalid', body: { amount: '10.00', metadata: tooManyMetadataKeys }, why: '21 metadata keys' },
    { kind: 'invalid', body: { amount: '10.00', metadata: { ['k'.repeat(65)]: 'v' } }, why: '65-character metadata key' },
    { kind: 'invalid', body: { amount: '10.00', context_items: [{ name: 'x' }] }, why: 'context_items sent' },
    { kind: 'invalid', body: { amount: '10.00', allowed_methods: ['VISA'] }, why: 'unknown allowed method' },
    { kind: 'invalid', body: { amount: '10.00', allowed_channels: ['ATM'] }, why: 'unknown allowed channel' },
  ),
);

const rawBody: fc.Arbitrary<BodyCase> = fc.constantFrom<BodyCase>(
  { kind: 'raw', raw: '{"amount": "1', contentType: 'application/json', why: 'truncated JSON' },
  { kind: 'raw', raw: '[]', contentType: 'application/json', why: 'a JSON array' },
  { kind: 'raw', raw: '', contentType: 'application/json', why: 'empty body' },
  { kind: 'raw', raw: '{"amount":"10.00"}', contentType: 'text/plain', why: 'Content-Type text/plain' },
);

const bodyCase: fc.Arbitrary<BodyCase> = fc.oneof(
  { weight: 4, arbitrary: validBody().map((body) => ({ kind: 'valid' as const, body })) },
  { weight: 4, arbitrary: invalidBody },
  { weight: 1, arbitrary: rawBody },
  { weight: 1, arbitrary: validBody().map((body) => ({ kind: 'reuse-external-id' as const, body })) },
);

const unknownId: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('pay_doesnotexist', 'does-not-exist', '0', `pay_${'z'.repeat(24)}`),
  fc.stringMatching(/^pay_[a-z0-9]{24}$/),
  fc.stringMatching(/^[A-Za-z0-9_-]{1,30}$/),
);

const idCase: fc.Arbitrary<IdCase> = fc.oneof(
  fc.constantFrom<IdCase>({ kind: 'pending' }, { kind: 'paid' }, { kind: 'cancelled' }, { kind: 'foreign' }, { kind: 'live' }),
  unknownId.map((value) => ({ kind: 'unknown' as const, value })),
);

const listQuery: fc.Arbitrary<Record<string, string>> = fc.oneof<fc.Arbitrary<Record<string, string>>[]>(
  fc.constant({}),
  fc.integer({ min: 1, max: 100 }).map((n) => ({ limit: String(n) })),
  fc.constantFrom('PENDING', 'PAID', 'CANCELLED', 'REVERSED').map((status) => ({ status, limit: '5' })),
  // strict filters: rejected values (400 invalid_request by the catalogue's ruling)
  fc.constantFrom('pending', 'BOGUS', 'PAID,CANCELLED').map((status) => ({ status })),
  fc.constantFrom('0', '101', '-1', 'abc', '1.5').map((limit) => ({ limit })),
  fc.constantFrom<Record<string, string>>({ created_from: 'yesterday' }, { created_from: '2020-01-01T00:00:00Z', limit: '3' }, { created_from: '2999-01-01T00:00:00Z' }),
);

const UNKNOWN_ROUTES = ['/v1/nope', '/v1/payments/pay_x/refund', '/v1/customers', '/v1/test_helpers/payments', '/v1/payments/pay_x/cancel/again'] as const;
const WRONG_METHODS: ReadonlyArray<{ method: string; path: string }> = [
  { method: 'PUT', path: '/v1/payments' },
  { method: 'DELETE', path: '/v1/payments' },
  { method: 'PATCH', path: '/v1/payments/pay_x' },
  { method: 'DELETE', path: '/v1/payments/pay_x' },
  { method: 'GET', path: '/v1/payments/pay_x/cancel' },
  { method: 'GET', path: '/v1/test_helpers/payments/pay_x/succeed' },
];

const keyKind = fc.constantFrom(...KEY_KINDS);

export const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('create' as const), key: keyKind, body: bodyCase, idem: fc.constantFrom<IdemCase>('none', 'none', 'fresh', 'replay', 'conflict') }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('list' as const), key: keyKind, query: listQuery }) },
  { weight: 5, arbitrary: fc.record({ op: fc.constantFrom<IdOp>('get', 'cancel', 'succeed', 'helper-cancel'), key: keyKind, id: idCase }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('unknown-route' as const), key: keyKind, method: fc.constantFrom<'GET' | 'POST'>('GET', 'POST'), path: fc.constantFrom(...UNKNOWN_ROUTES) }) },
  { weight: 1, arbitrary: fc.constantFrom(...WRONG_METHODS).chain((w) => keyKind.map((key) => ({ op: 'wrong-method' as const, key, ...w }))) },
);

/**
 * Every kind of step at least once, all deterministic: the part of each test that does not
 * depend on the seed (each body, list and id kind with the Test key, then each other key kind
 * on an operation where it matters, an unknown route and a wrong method).
 */
export function tour(): Step[] {
  const minimal: BodyCase = { kind: 'valid', body: { amount: '10.5' } };
  const full: BodyCase = {
    kind: 'valid',
    body: {
      amount: '1234.56', description: 'Order 42', merchant_reference: 'INV-42', return_url: 'https://shop.example/done',
      metadata: { order: '42' }, allowed_methods: ['BKASH', 'NAGAD'], allowed_channels: ['SEND_MONEY', 'PAYMENT', 'CASH_IN', 'BANK_TRANSFER'],
    },
  };
  const create = (body: BodyCase, idem: IdemCase = 'none', key: KeyKind = 'test'): Step => ({ op: 'create', key, body, idem });
  const id = (op: IdOp, c: IdCase, key: KeyKind = 'test'): Step => ({ op, key, id: c });
  const list = (query: Record<string, string>, key: KeyKind = 'test'): Step => ({ op: 'list', key, query });
  const unknown: IdCase = { kind: 'unknown', value: 'pay_doesnotexist' };
  return [
    create(minimal),
    create({ kind: 'valid', body: { amount: '0.01', return_url: 'myshop://checkout/done' } }),
    create(full, 'replay'),
    create(full, 'conflict'),
    create({ kind: 'reuse-external-id', body: { amount: '20.00' } }),
    create({ kind: 'invalid', body: { amount: '-1' }, why: 'negative amount' }),
    create({ kind: 'invalid', body: { amount: 10 }, why: 'amount is a JSON number' }),
    create({ kind: 'invalid', body: { description: 'no amount' }, why: 'amount missing' }),
    create({ kind: 'invalid', body: { amount: '10.00', return_url: 'javascript:alert(1)' }, why: 'javascript: return_url' }),
    create({ kind: 'invalid', body: { amount: '10.00', metadata: tooManyMetadataKeys }, why: '21 metadata keys' }),
    create({ kind: 'invalid', body: { amount: '10.00', context_items: [{ name: 'x' }] }, why: 'context_items sent' }),
    create({ kind: 'invalid', body: { amount: '10.00', allowed_methods: ['VISA'] }, why: 'unknown allowed method' }),
    create({ kind: 'raw', raw: '{"amount": "1', contentType: 'application/json', why: 'truncated JSON' }),
    create({ kind: 'raw', raw: '{"amount":"10.00"}', contentType: 'text/plain', why: 'Content-Type text/plain' }),
    list({}),
    list({ status: 'PAID', limit: '5' }),
    list({ status: 'BOGUS' }),
    list({ limit: '0' }),
    list({ created_from: '2999-01-01T00:00:00Z' }),
    id('get', { kind: 'pending' }),
    id('get', { kind: 'paid' }),
    id('get', { kind: 'cancelled' }),
    id('get', { kind: 'foreign' }),
    id('get', unknown),
    id('get', { kind: 'unknown', value: 'does-not-exist' }),
    id('cancel', { kind: 'pending' }),
    id('cancel', { kind: 'paid' }),
    id('cancel', unknown),
    id('succeed', { kind: 'pending' }),
    id('succeed', { kind: 'cancelled' }),
    id('helper-cancel', { kind: 'pending' }),
    id('helper-cancel', { kind: 'paid' }),
    // every other kind of key, where it matters
    create(minimal, 'none', 'none'),
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
    create(minimal, 'none', 'live'),
    { op: 'unknown-route', key: 'test', method: 'GET', path: UNKNOWN_ROUTES[0] },
    { op: 'wrong-method', key: 'test', method: 'DELETE', path: '/v1/payments' },
  ];
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

export class Traffic {
  readonly seen: Seen[] = [];
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
 * The tour's answers, kept once walked (per module instance: per worker, as the runner shares
 * modules between the files of a worker). Later tests judge these answers by their own rule
 * instead of walking the tour again; a rule selected alone walks it itself.
 */
let tourAnswers: Seen[] | undefined;

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
  /** Most property runs (capped by --runs). @defaultValue 8 */
  runs?: number;
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
      for (let i = 0; i < steps.length; i += TOUR_CONCURRENCY) {
        const from = traffic.seen.length;
        await Promise.all(steps.slice(i, i + TOUR_CONCURRENCY).map((step) => traffic.run(step)));
        for (const s of traffic.seen.slice(from)) judge(t, check, s);
      }
      tourAnswers = [...traffic.seen];
    }
    await t.property(
      fc.array(stepArb, { minLength: 1, maxLength: opts.maxSteps ?? 5 }),
      async (steps) => {
        for (const step of steps) {
          const from = traffic.seen.length;
          await traffic.run(step);
          for (const s of traffic.seen.slice(from)) judge(t, check, s);
        }
      },
      { runs: Math.min(t.runs, opts.runs ?? 8) },
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

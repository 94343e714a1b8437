/**
 * trafficStep: random traffic for the RESP-* rules (spec: "Error statuses per operation", "Error",
 * "Payment", "PaymentList"), which hold for every answer: steps over the six operations, plus
 * unknown routes and wrong methods, with valid and invalid bodies, valid and invalid keys, existing
 * and unknown ids. A step names what to send; the suite (suites/responses/traffic.ts) resolves key
 * kinds and id kinds against the profile and the Payments it made, and adds the run markers.
 *
 *   step = create(key, body, idem) / list(key, query) / (get / cancel / succeed / helper-cancel)(key, id)
 *        / unknown-route(key, GET / POST, path) / wrong-method(key, method, path)
 *   body = valid / invalid (a 400 of the create area) / raw (not a JSON object, or not JSON) / reuse-external-id
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { amountNotString } from './amount-not-string.ts';
import { COLLECTION_CHANNELS, PAYMENT_METHODS, RESERVED_METADATA_KEYS } from './create-payment-request.ts';
import { invalidAmount } from './invalid-amount.ts';
import { invalidReturnUrl } from './invalid-return-url.ts';
import { validAmount } from './valid-amount.ts';
import { validReturnUrl } from './valid-return-url.ts';

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

const metadataKey = fc.stringMatching(/^[a-z][a-z0-9_]{0,15}$/).filter((k) => !(RESERVED_METADATA_KEYS as readonly string[]).includes(k));

/** Valid CreatePaymentRequest bodies without the run markers: amount plus any optional fields. */
function validBody(): Arbitrary<Record<string, unknown>> {
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

/** 21 metadata keys: one past the spec's 20. */
export const TOO_MANY_METADATA_KEYS: Readonly<Record<string, string>> = Object.fromEntries(Array.from(
  { length: 21 },
  (_, i) => [`k${i}`, 'v'],
));

/** Bodies the spec rejects with a 400 (which code is the create area's business, not this one's). */
const invalidBody: Arbitrary<BodyCase> = fc.oneof(
  invalidAmount().map((c) => ({ kind: 'invalid' as const, body: { amount: c.value }, why: c.why })),
  amountNotString().map((c) => ({ kind: 'invalid' as const, body: { amount: c.value }, why: c.why })),
  invalidReturnUrl().map((c) => ({ kind: 'invalid' as const, body: { amount: '10.00', return_url: c.value }, why: c.why })),
  fc.constantFrom<BodyCase>(
    { kind: 'invalid', body: { description: 'no amount' }, why: 'amount missing' },
    { kind: 'invalid', body: { amount: '10.00', metadata: TOO_MANY_METADATA_KEYS }, why: '21 metadata keys' },
    { kind: 'invalid', body: { amount: '10.00', metadata: { ['k'.repeat(65)]: 'v' } }, why: '65-character metadata key' },
    { kind: 'invalid', body: { amount: '10.00', context_items: [{ name: 'x' }] }, why: 'context_items sent' },
    { kind: 'invalid', body: { amount: '10.00', allowed_methods: ['VISA'] }, why: 'unknown allowed method' },
    { kind: 'invalid', body: { amount: '10.00', allowed_channels: ['ATM'] }, why: 'unknown allowed channel' },
  ),
);

const rawBody: Arbitrary<BodyCase> = fc.constantFrom<BodyCase>(
  { kind: 'raw', raw: '{"amount": "1', contentType: 'application/json', why: 'truncated JSON' },
  { kind: 'raw', raw: '[]', contentType: 'application/json', why: 'a JSON array' },
  { kind: 'raw', raw: '', contentType: 'application/json', why: 'empty body' },
  { kind: 'raw', raw: '{"amount":"10.00"}', contentType: 'text/plain', why: 'Content-Type text/plain' },
);

const bodyCase: Arbitrary<BodyCase> = fc.oneof(
  { weight: 4, arbitrary: validBody().map((body) => ({ kind: 'valid' as const, body })) },
  { weight: 4, arbitrary: invalidBody },
  { weight: 1, arbitrary: rawBody },
  { weight: 1, arbitrary: validBody().map((body) => ({ kind: 'reuse-external-id' as const, body })) },
);

const unknownId: Arbitrary<string> = fc.oneof(
  fc.constantFrom('pay_doesnotexist', 'does-not-exist', '0', `pay_${'z'.repeat(24)}`),
  fc.stringMatching(/^pay_[a-z0-9]{24}$/),
  fc.stringMatching(/^[A-Za-z0-9_-]{1,30}$/),
);

const idCase: Arbitrary<IdCase> = fc.oneof(
  fc.constantFrom<IdCase>({ kind: 'pending' }, { kind: 'paid' }, { kind: 'cancelled' }, { kind: 'foreign' }, { kind: 'live' }),
  unknownId.map((value) => ({ kind: 'unknown' as const, value })),
);

const listQuery: Arbitrary<Record<string, string>> = fc.oneof<Arbitrary<Record<string, string>>[]>(
  fc.constant({}),
  fc.integer({ min: 1, max: 100 }).map((n) => ({ limit: String(n) })),
  fc.constantFrom('PENDING', 'PAID', 'CANCELLED', 'REVERSED').map((status) => ({ status, limit: '5' })),
  // strict filters: rejected values (400 invalid_request by the catalogue's ruling)
  fc.constantFrom('pending', 'BOGUS', 'PAID,CANCELLED').map((status) => ({ status })),
  fc.constantFrom('0', '101', '-1', 'abc', '1.5').map((limit) => ({ limit })),
  fc.constantFrom<Record<string, string>>(
    { created_from: 'yesterday' },
    { created_from: '2020-01-01T00:00:00Z', limit: '3' },
    { created_from: '2999-01-01T00:00:00Z' },
  ),
);

/** A few paths no route matches (the routing area generates many more). */
export const UNKNOWN_ROUTES = [
  '/v1/nope',
  '/v1/payments/pay_x/refund',
  '/v1/customers',
  '/v1/test_helpers/payments',
  '/v1/payments/pay_x/cancel/again',
] as const;
/** A few methods a route does not bind. */
const WRONG_METHODS: ReadonlyArray<{ method: string; path: string }> = [
  { method: 'PUT', path: '/v1/payments' },
  { method: 'DELETE', path: '/v1/payments' },
  { method: 'PATCH', path: '/v1/payments/pay_x' },
  { method: 'DELETE', path: '/v1/payments/pay_x' },
  { method: 'GET', path: '/v1/payments/pay_x/cancel' },
  { method: 'GET', path: '/v1/test_helpers/payments/pay_x/succeed' },
];

const keyKind = fc.constantFrom(...KEY_KINDS);

/** One step of random traffic: an operation, a key kind, and the body, id or query it is sent with. */
export function trafficStep(): Arbitrary<Step> {
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        op: fc.constant('create' as const),
        key: keyKind,
        body: bodyCase,
        idem: fc.constantFrom<IdemCase>('none', 'none', 'fresh', 'replay', 'conflict'),
      }),
    },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('list' as const), key: keyKind, query: listQuery }) },
    {
      weight: 5,
      arbitrary: fc.record({ op: fc.constantFrom<IdOp>('get', 'cancel', 'succeed', 'helper-cancel'), key: keyKind, id: idCase }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constant('unknown-route' as const),
        key: keyKind,
        method: fc.constantFrom<'GET' | 'POST'>('GET', 'POST'),
        path: fc.constantFrom(...UNKNOWN_ROUTES),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...WRONG_METHODS).chain((w) => keyKind.map((key) => ({ op: 'wrong-method' as const, key, ...w }))),
    },
  );
}

/**
 * The routes of v1 (spec, Endpoints) and the requests around them: unknown routes, wrong methods,
 * other version prefixes, as data and as fast-check arbitraries.
 *
 * A route is a path template of the operations table with the methods bound to it:
 *
 *   /payments                                 GET POST
 *   /payments/{id}                            GET
 *   /payments/{id}/cancel                     POST
 *   /test_helpers/payments/{id}/succeed       POST
 *   /test_helpers/payments/{id}/cancel        POST
 *
 * An unknown route is a path under /v1 that no template matches (segment by segment, exactly).
 * Borderline forms of known routes (a trailing or doubled slash, a dot segment, another case,
 * percent-encoded literals) are not generated here: ROUTE-EDGE-FORMS observes them.
 */
import fc from 'fast-check';
import { OPERATIONS, type Operation } from '../../schemas/index.ts';

/** The methods the suite asserts on (HEAD and OPTIONS are only observed). */
export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type Method = (typeof METHODS)[number];

export interface Route {
  /** Template relative to /v1, e.g. `/payments/{id}`. */
  template: string;
  methods: readonly string[];
  operations: readonly Operation[];
  testOnly: boolean;
}

export const ROUTES: readonly Route[] = [...new Set(OPERATIONS.map((o) => o.path))].map((template) => {
  const operations = OPERATIONS.filter((o) => o.path === template);
  return { template, methods: operations.map((o) => o.method), operations, testOnly: operations.some((o) => o.testOnly) };
});

/** The route's path under `prefix` for a Payment id (encoded once). */
export function routePath(route: Route, id: string, prefix = '/v1'): string {
  return prefix + route.template.replace('{id}', encodeURIComponent(id));
}

/** Every (route, wrong method) pair: the methods of METHODS the route does not bind. */
export const WRONG_METHODS: ReadonlyArray<{ route: Route; method: Method }> = ROUTES.flatMap((route) =>
  METHODS.filter((m) => !route.methods.includes(m)).map((method) => ({ route, method })),
);

/** Literal segments of the known templates; a generated segment is never one of them. */
const LITERALS = new Set(ROUTES.flatMap((r) => r.template.split('/')).filter((s) => s && !s.startsWith('{')));

/** A path segment: 1 to 12 of [a-z0-9_-], never a known literal, never a dot segment. */
export const segment: fc.Arbitrary<string> = fc
  .string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789_-'), minLength: 1, maxLength: 12 })
  .filter((s) => !LITERALS.has(s));

/** Names a hosted-payment API might plausibly have but v1 does not. */
const PLAUSIBLE = ['refunds', 'customers', 'orders', 'events', 'webhook_endpoints', 'checkout_sessions', 'payment', 'offline_payments', 'balance', 'api_keys', 'test_helper', 'payments_'];

/**
 * Paths under /v1 that no route matches, around a Payment id (so the near misses look real):
 * another top-level resource, a sub-resource of a Payment, a helper that does not exist, one
 * segment too many or too few.
 */
export function unknownRoutePath(id: string): fc.Arbitrary<string> {
  const e = encodeURIComponent(id);
  const notAction = segment.filter((s) => s !== 'succeed' && s !== 'cancel');
  const path = fc.oneof(
    fc.constantFrom(...PLAUSIBLE).map((s) => `/v1/${s}`),
    segment.map((s) => `/v1/${s}`),
    fc.tuple(segment, fc.array(segment, { minLength: 1, maxLength: 3 })).map(([a, rest]) => `/v1/${a}/${rest.join('/')}`),
    fc.tuple(fc.constantFrom(...PLAUSIBLE), segment).map(([a, b]) => `/v1/${a}/${b}`),
    notAction.map((s) => `/v1/payments/${e}/${s}`),
    fc.constantFrom('refund', 'refunds', 'capture', 'succeed', 'events', 'checkout').map((s) => `/v1/payments/${e}/${s}`),
    segment.map((s) => `/v1/payments/${e}/cancel/${s}`),
    fc.tuple(segment, segment).map(([a, b]) => `/v1/payments/${e}/${a}/${b}`),
    fc.constantFrom('/v1', '/v1/test_helpers', '/v1/test_helpers/payments', `/v1/test_helpers/payments/${e}`, `/v1/payments/${e}/test_helpers`),
    segment.map((s) => `/v1/test_helpers/${s}`),
    notAction.map((s) => `/v1/test_helpers/payments/${e}/${s}`),
    fc.constantFrom('reverse', 'fail', 'expire', 'refund').map((s) => `/v1/test_helpers/payments/${e}/${s}`),
    fc.tuple(segment, fc.constantFrom('succeed', 'cancel')).map(([s, a]) => `/v1/test_helpers/${s}/${e}/${a}`),
    fc.tuple(fc.constantFrom('succeed', 'cancel'), segment).map(([a, s]) => `/v1/test_helpers/payments/${e}/${a}/${s}`),
  );
  return fc.tuple(path, fc.constantFrom('', '', '?limit=1', '?x=1')).map(([p, q]) => p + q);
}

/** A version prefix other than /v1 that clearly is not it: /v0, /v2 … /v99, /V1, /V2. */
export const otherVersionPrefix: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('/v0', '/v2', '/V1', '/V2'),
  fc.integer({ min: 2, max: 99 }).map((n) => `/v${n}`),
);

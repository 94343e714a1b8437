/**
 * unknownRoutePath: paths under /v1 that no route of v1 matches (spec, Endpoints: Rule 7, 404
 * route_not_found), around a Payment id so the near misses look real.
 *
 * A route is a path template of the operations table (catalogue/schemas/operations.ts); an unknown route is a
 * path no template matches, segment by segment, exactly:
 *
 *   unknown = "/v1/" plausible-resource / "/v1/" segment 1*3("/" segment)
 *           / "/v1/payments/" id "/" (segment / near-action) / "/v1/payments/" id "/cancel/" segment
 *           / "/v1/test_helpers/" … (a helper, a resource or an action that does not exist)
 *           [ "?limit=1" / "?x=1" ]
 *   segment = 1*12( a-z / 0-9 / "_" / "-" ), never a literal segment of a template
 *
 * Borderline forms of known routes (a trailing or doubled slash, a dot segment, another case,
 * percent-encoded literals) are not generated here: ROUTE-EDGE-FORMS observes them.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { OPERATIONS } from '../../catalogue/schemas/index.ts';

/** Literal segments of the known templates; a generated segment is never one of them. */
const LITERALS = new Set(OPERATIONS.flatMap((o) => o.path.split('/')).filter((s) => s && !s.startsWith('{')));

/** A path segment: 1 to 12 of [a-z0-9_-], never a known literal, never a dot segment. */
const segment: Arbitrary<string> = fc
  .string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789_-'), minLength: 1, maxLength: 12 })
  .filter((s) => !LITERALS.has(s));

/** Names a hosted-payment API might plausibly have but v1 does not. */
const PLAUSIBLE = [
  'refunds',
  'customers',
  'orders',
  'events',
  'webhook_endpoints',
  'checkout_sessions',
  'payment',
  'offline_payments',
  'balance',
  'api_keys',
  'test_helper',
  'payments_',
];

/**
 * Paths under /v1 that no route matches, around a Payment id (so the near misses look real):
 * another top-level resource, a sub-resource of a Payment, a helper that does not exist, one
 * segment too many or too few.
 */
export function unknownRoutePath(id: string): Arbitrary<string> {
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
    fc.constantFrom(
      '/v1',
      '/v1/test_helpers',
      '/v1/test_helpers/payments',
      `/v1/test_helpers/payments/${e}`,
      `/v1/payments/${e}/test_helpers`,
    ),
    segment.map((s) => `/v1/test_helpers/${s}`),
    notAction.map((s) => `/v1/test_helpers/payments/${e}/${s}`),
    fc.constantFrom('reverse', 'fail', 'expire', 'refund').map((s) => `/v1/test_helpers/payments/${e}/${s}`),
    fc.tuple(segment, fc.constantFrom('succeed', 'cancel')).map(([s, a]) => `/v1/test_helpers/${s}/${e}/${a}`),
    fc.tuple(fc.constantFrom('succeed', 'cancel'), segment).map(([a, s]) => `/v1/test_helpers/payments/${e}/${a}/${s}`),
  );
  return fc.tuple(path, fc.constantFrom('', '', '?limit=1', '?x=1')).map(([p, q]) => p + q);
}

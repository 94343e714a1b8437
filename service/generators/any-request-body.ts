/**
 * anyRequestBody: any body a request might carry, for the rule that a request without a valid key
 * never succeeds, whatever it sends (AUTH-NO-KEY-NEVER-SUCCEEDS). A kind the suite turns into a
 * request: none, a valid create body (built by the suite, with its run marker), any JSON value, or
 * any text sent as application/json.
 *
 *   body = none / create / json(any JSON value, depth ≤ 2) / raw(0*64 chars)
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';

export type RequestBodyKind = { kind: 'none' } | { kind: 'create' } | { kind: 'json'; json: unknown } | { kind: 'raw'; raw: string };

export function anyRequestBody(): Arbitrary<RequestBodyKind> {
  return fc.oneof(
    fc.constant<RequestBodyKind>({ kind: 'none' }),
    fc.constant<RequestBodyKind>({ kind: 'create' }),
    fc.jsonValue({ maxDepth: 2 }).map((json): RequestBodyKind => ({ kind: 'json', json })),
    fc.string({ maxLength: 64 }).map((raw): RequestBodyKind => ({ kind: 'raw', raw })),
  );
}

/**
 * otherVersionPrefix: a version prefix other than /v1 that clearly is not it (spec, Versioning:
 * "/v1" is the only version; another prefix is an unknown route).
 *
 *   prefix = "/v0" / "/v2" / "/V1" / "/V2" / "/v" 2..99
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';

/** A version prefix other than /v1 that clearly is not it: /v0, /v2 … /v99, /V1, /V2. */
export function otherVersionPrefix(): Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom('/v0', '/v2', '/V1', '/V2'),
    fc.integer({ min: 2, max: 99 }).map((n) => `/v${n}`),
  );
}

/**
 * anyRequestPath: any path a request might be sent to, for the rule that a request without a valid
 * key never succeeds, whatever it addresses (AUTH-NO-KEY-NEVER-SUCCEEDS): a route of v1, a
 * borderline form of one, an unknown route, or a route under another version prefix.
 *
 *   path = known (weight 3) / borderline-form(known) (1) / unknownRoutePath (2) / other-prefix known (1)
 *   known = "/v1" template, the Payment id put in once, encoded
 *   borderline-form = a trailing slash / a doubled slash / upper case / a percent-encoded literal
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { OPERATIONS } from '../../catalogue/schemas/index.ts';
import { otherVersionPrefix } from './other-version-prefix.ts';
import { unknownRoutePath } from './unknown-route-path.ts';

/** The path templates of v1, each once, in the operations table's order. */
const TEMPLATES = [...new Set(OPERATIONS.map((o) => o.path))];

const pathOf = (template: string, id: string, prefix = '/v1') => prefix + template.replace('{id}', encodeURIComponent(id));

/** Any path around the Payment id `id` (a placeholder the suite may replace when it sends). */
export function anyRequestPath(id: string): Arbitrary<string> {
  const known = fc.constantFrom(...TEMPLATES).map((t) => pathOf(t, id));
  return fc.oneof(
    { weight: 3, arbitrary: known },
    {
      weight: 1,
      arbitrary: fc.tuple(known, fc.constantFrom('trailing slash', 'doubled slash', 'upper case', 'encoded literal')).map(([p, form]) =>
        form === 'trailing slash' ? `${p}/` : form === 'doubled slash' ? p.replace(
          '/v1/',
          '/v1//',
        ) : form === 'upper case' ? p.toUpperCase() : p.replace('/v1/p', '/v1/%70').replace('/v1/t', '/v1/%74'),
      ),
    },
    { weight: 2, arbitrary: unknownRoutePath(id) },
    { weight: 1, arbitrary: fc.tuple(otherVersionPrefix(), fc.constantFrom(...TEMPLATES)).map(([v, t]) => pathOf(t, id, v)) },
  );
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../catalogue/schemas/index.ts';
import { unknownRoutePath } from './unknown-route-path.ts';

const ID = 'pay_Q7vX2mK9pLw4';
/** Whether a path (query left out) matches a template of v1, segment by segment. */
function matchesARoute(path: string): boolean {
  const segs = path.split('?')[0]!.split('/');
  return OPERATIONS.some((o) => {
    const t = `/v1${o.path}`.split('/');
    return t.length === segs.length && t.every((s, i) => (s.startsWith('{') ? segs[i] !== '' : s === segs[i]));
  });
}

describe('unknownRoutePath', () => {
  it('yields paths under /v1 that no route matches, with an optional harmless query', () => {
    fc.assert(
      fc.property(unknownRoutePath(ID), (p) => {
        expect(p.startsWith('/v1')).toBe(true);
        expect(matchesARoute(p), p).toBe(false);
        expect(p).toMatch(/^\/v1[^?]*(\?limit=1|\?x=1)?$/);
        expect(p.split('?')[0]).not.toMatch(/\/\/|\/$|\/\.\.?(\/|$)/); // no borderline forms of known routes
      }),
      { numRuns: 3000 },
    );
  });

  it('the route check above can fail (known routes match)', () => {
    expect(matchesARoute(`/v1/payments/${ID}/cancel`)).toBe(true);
    expect(matchesARoute('/v1/payments?limit=1')).toBe(true);
  });

  it('puts the Payment id (encoded once) in near misses of the Payment routes', () => {
    const values = fc.sample(unknownRoutePath('pay_a/b'), { seed: 2, numRuns: 500 });
    expect(values.some((v) => v.includes('/payments/pay_a%2Fb/'))).toBe(true);
    expect(values.some((v) => v.includes('/test_helpers/'))).toBe(true);
    expect(values.every((v) => !v.includes('pay_a/b'))).toBe(true);
  });

  it('yields the same values for the same seed', () => {
    expect(fc.sample(unknownRoutePath(ID), { seed: 42, numRuns: 20 })).toEqual(fc.sample(unknownRoutePath(ID), { seed: 42, numRuns: 20 }));
  });
});

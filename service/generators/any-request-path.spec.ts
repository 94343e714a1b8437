import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../catalogue/schemas/index.ts';
import { anyRequestPath } from './any-request-path.ts';

const ID = 'pay_conformanceSubject';
const KNOWN = new Set(OPERATIONS.map((o) => `/v1${o.path.replace('{id}', ID)}`));

describe('anyRequestPath', () => {
  it('yields absolute paths, each carrying the id when it addresses a Payment route', () => {
    fc.assert(
      fc.property(anyRequestPath(ID), (p) => {
        expect(p.startsWith('/')).toBe(true);
        expect(p).not.toMatch(/\s/);
      }),
      { numRuns: 2000 },
    );
  });

  it('reaches every known route, a borderline form of one, an unknown route and another version', () => {
    const values = fc.sample(anyRequestPath(ID), { seed: 3, numRuns: 2000 });
    for (const k of KNOWN) expect(values, k).toContain(k);
    expect(values.some((v) => v.endsWith('/') || v.includes('//') || v.includes('%70') || v === v.toUpperCase())).toBe(true);
    expect(values.some((v) => /^\/v1\//.test(v) && !KNOWN.has(v.split('?')[0]!) && !KNOWN.has(v.replace(/\/$/, '')))).toBe(true);
    expect(values.some((v) => /^\/(v(0|[2-9]|\d\d)|V[12])\//.test(v))).toBe(true);
  });

  it('yields the same values for the same seed', () => {
    expect(fc.sample(anyRequestPath(ID), { seed: 42, numRuns: 20 })).toEqual(fc.sample(anyRequestPath(ID), { seed: 42, numRuns: 20 }));
  });
});

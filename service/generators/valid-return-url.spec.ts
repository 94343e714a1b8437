import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validReturnUrl } from './valid-return-url.ts';
import { NON_APP_SCHEMES } from './internal/url-parts.ts';

describe('validReturnUrl', () => {
  it('yields absolute https URLs with a host, or deep links with a conventional app scheme', () => {
    fc.assert(
      fc.property(validReturnUrl(), (v) => {
        expect(v).toMatch(/^[\x21-\x7e]+$/); // no whitespace, no control characters, ASCII only
        const url = new URL(v); // WHATWG parser: throws on anything not absolute
        const scheme = url.protocol.slice(0, -1);
        expect(v.startsWith(`${scheme}://`)).toBe(true);
        if (scheme === 'https') {
          expect(url.hostname).toMatch(/^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,6}$/);
        } else {
          expect(scheme).toMatch(/^[a-z][a-z0-9]*([.-][a-z][a-z0-9]*)*$/);
          expect(scheme.length).toBeGreaterThanOrEqual(3);
          expect(NON_APP_SCHEMES).not.toContain(scheme);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('yields both kinds, with ports, paths, queries and fragments', () => {
    const values = fc.sample(validReturnUrl(), { seed: 11, numRuns: 500 });
    expect(values.some((v) => v.startsWith('https://'))).toBe(true);
    expect(values.some((v) => !v.startsWith('https://'))).toBe(true);
    expect(values.some((v) => /^https:\/\/[^/]+:[0-9]+/.test(v))).toBe(true);
    expect(values.some((v) => v.includes('?'))).toBe(true);
    expect(values.some((v) => v.includes('#'))).toBe(true);
    expect(values.some((v) => /^[a-z0-9]+(\.[a-z0-9]+)+:\/\//.test(v))).toBe(true); // reverse-domain scheme
  });

  it('honours the https / deepLinks switches', () => {
    fc.assert(fc.property(validReturnUrl({ deepLinks: false }), (v) => v.startsWith('https://')));
    fc.assert(fc.property(validReturnUrl({ https: false }), (v) => !v.startsWith('https://')));
    expect(() => validReturnUrl({ https: false, deepLinks: false })).toThrow(RangeError);
  });

  it('yields the same values for the same seed', () => {
    const a = fc.sample(validReturnUrl(), { seed: 42, numRuns: 20 });
    const b = fc.sample(validReturnUrl(), { seed: 42, numRuns: 20 });
    expect(a).toEqual(b);
  });
});

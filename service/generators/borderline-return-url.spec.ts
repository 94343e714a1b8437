import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { borderlineReturnUrl } from './borderline-return-url.ts';
import { validReturnUrl } from './valid-return-url.ts';
import { NON_APP_SCHEMES } from './internal/url-parts.ts';

describe('borderlineReturnUrl', () => {
  it('yields { value, why } strings, none of them forbidden outright', () => {
    fc.assert(
      fc.property(borderlineReturnUrl(), (c) => {
        expect(Object.keys(c).sort()).toEqual(['value', 'why']);
        expect(typeof c.value).toBe('string');
        expect(c.value.trim().toLowerCase()).not.toMatch(/^(javascript|data|file|intent|http):/);
        expect(c.why).toMatch(/^return_url /);
      }),
      { numRuns: 1000 },
    );
  });

  it('never yields a value validReturnUrl could yield (the two sets are apart)', () => {
    const re = /^(https:\/\/([a-z0-9-]+\.)+[a-z]{2,6}(:[0-9]+)?|([a-z][a-z0-9]*([.-][a-z][a-z0-9]*)*):\/\/[a-z0-9-]+)([/?#][A-Za-z0-9\-_~.=&/?#]*)?$/;
    const valid = {
      test(v: string) {
        const m = re.exec(v);
        if (!m || v.length > 1000) return false; // validReturnUrl stays short; 2000+ is borderline
        const scheme = m[4];
        if (scheme === undefined) return !new URL(v).hostname.includes('--'); // no IDNA A-labels
        return scheme.length >= 3 && !NON_APP_SCHEMES.includes(scheme);
      },
    };
    fc.assert(fc.property(validReturnUrl(), (v) => valid.test(v)), { numRuns: 1000 });
    fc.assert(
      fc.property(borderlineReturnUrl(), (c) => {
        expect(valid.test(c.value)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('covers unusual schemes, well-known non-app schemes and odd https forms', () => {
    const values = fc.sample(borderlineReturnUrl(), { seed: 17, numRuns: 1000 }).map((c) => c.value);
    expect(values.some((v) => /^[a-z]{1,2}:\/\//.test(v))).toBe(true);
    expect(values.some((v) => /^[a-z0-9.-]+\+[a-z0-9]+:\/\//.test(v))).toBe(true);
    expect(values).toContain('vbscript:msgbox(1)');
    expect(values.some((v) => v.startsWith('https:/') && !v.startsWith('https://'))).toBe(true);
  });

  it('yields the same values for the same seed', () => {
    const a = fc.sample(borderlineReturnUrl(), { seed: 42, numRuns: 20 });
    const b = fc.sample(borderlineReturnUrl(), { seed: 42, numRuns: 20 });
    expect(a).toEqual(b);
  });
});

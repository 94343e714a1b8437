import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invalidReturnUrl } from './invalid-return-url.ts';

/** What a WHATWG URL parser makes of it: the scheme, or null when it is not an absolute URL. */
function schemeOf(v: string): string | null {
  try {
    return new URL(v).protocol.slice(0, -1);
  } catch {
    return null;
  }
}

describe('invalidReturnUrl', () => {
  it('FORBIDDEN-SCHEME values parse (WHATWG) to javascript:, data:, file: or intent:', () => {
    fc.assert(
      fc.property(invalidReturnUrl({ breaks: ['CREATE-RETURN-URL-FORBIDDEN-SCHEME'] }), (c) => {
        expect(c.breaks).toBe('CREATE-RETURN-URL-FORBIDDEN-SCHEME');
        expect(c.codes).toEqual(['invalid_return_url']);
        expect(['javascript', 'data', 'file', 'intent']).toContain(schemeOf(c.value));
        expect(c.why).not.toMatch(/[\n\r]/);
      }),
      { numRuns: 2000 },
    );
  });

  it('NOT-HTTPS values are either not absolute URLs or http URLs', () => {
    fc.assert(
      fc.property(invalidReturnUrl({ breaks: ['CREATE-RETURN-URL-NOT-HTTPS'] }), (c) => {
        expect(c.breaks).toBe('CREATE-RETURN-URL-NOT-HTTPS');
        expect(c.codes).toEqual(['invalid_return_url']);
        const scheme = schemeOf(c.value);
        expect(scheme === null || scheme === 'http').toBe(true);
        if (scheme === null) expect(c.value).not.toContain(':');
      }),
      { numRuns: 2000 },
    );
  });

  it('covers letter case, tab/newline inside the scheme, leading controls, http, relative paths and the empty string', () => {
    const values = fc.sample(invalidReturnUrl(), { seed: 13, numRuns: 3000 }).map((c) => c.value);
    const has = (re: RegExp) => values.some((v) => re.test(v));
    for (const s of ['javascript:', 'data:', 'file:', 'intent:']) expect(values.some((v) => v.startsWith(s))).toBe(true);
    expect(has(/^(?=[a-zA-Z]*[A-Z])[a-zA-Z]+:/)).toBe(true); // mixed case scheme
    expect(has(/^[a-zA-Z]+[\t\n\r][a-zA-Z\t\n\r]*:/)).toBe(true); // tab/newline inside the scheme
    expect(has(/^[\x00-\x20]+[a-zA-Z]/)).toBe(true); // leading controls / space
    expect(has(/^javascript:\/\//)).toBe(true);
    expect(has(/^[hH][tT][tT][pP]:\/\//)).toBe(true);
    expect(values).toContain('/done');
    expect(values).toContain('done');
    expect(values).toContain('//host/x');
    expect(values).toContain('');
  });

  it('yields the same values for the same seed', () => {
    const a = fc.sample(invalidReturnUrl(), { seed: 42, numRuns: 20 });
    const b = fc.sample(invalidReturnUrl(), { seed: 42, numRuns: 20 });
    expect(a).toEqual(b);
  });
});

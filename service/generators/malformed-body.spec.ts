import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { malformedBody } from './malformed-body.ts';

const parse = (text: string): { ok: true; value: unknown } | { ok: false } => {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
};

describe('malformedBody', () => {
  it('CREATE-MALFORMED-JSON bodies are not JSON, even with a leading BOM removed', () => {
    fc.assert(
      fc.property(malformedBody({ breaks: ['CREATE-MALFORMED-JSON'] }), (c) => {
        expect(typeof c.value).toBe('string');
        expect(parse(c.value).ok).toBe(false);
        expect(parse(c.value.replace(/^\uFEFF/, '')).ok).toBe(false);
        expect(c.codes).toEqual(c.value.trim() === '' ? ['invalid_request', 'invalid_amount'] : ['invalid_request']);
        expect(c.why).toMatch(/^body /);
        expect(c.why).not.toMatch(/[\n\r]/);
      }),
      { numRuns: 2000 },
    );
  });

  it('CREATE-BODY-NOT-OBJECT bodies are JSON whose top level is not an object', () => {
    fc.assert(
      fc.property(malformedBody({ breaks: ['CREATE-BODY-NOT-OBJECT'] }), (c) => {
        const r = parse(c.value);
        expect(r.ok).toBe(true);
        if (r.ok) expect(r.value === null || typeof r.value !== 'object' || Array.isArray(r.value)).toBe(true);
        expect(c.codes).toEqual(['invalid_request', 'invalid_amount']);
      }),
      { numRuns: 500 },
    );
  });

  it('covers truncation, trailing comma, single quotes, NaN, BOM + garbage, the empty body, arrays, strings, numbers, null and ' +
    'true', () => {
    const values = fc.sample(malformedBody(), { seed: 53, numRuns: 3000 }).map((c) => c.value);
    const has = (re: RegExp) => values.some((v) => re.test(v));
    expect(has(/^\{"amount":"[0-9.]*$/)).toBe(true);
    expect(has(/,\}$/)).toBe(true);
    expect(has(/^\{'amount'/)).toBe(true);
    expect(has(/NaN/)).toBe(true);
    expect(has(/^\uFEFF/)).toBe(true);
    expect(values).toContain('');
    for (const t of ['[]', 'null', 'true', '10']) expect(values).toContain(t);
    expect(has(/^\[\{/)).toBe(true);
    expect(has(/^"\{\\"amount/)).toBe(true);
  });

  it('yields the same values for the same seed', () => {
    const a = fc.sample(malformedBody(), { seed: 42, numRuns: 20 });
    const b = fc.sample(malformedBody(), { seed: 42, numRuns: 20 });
    expect(a).toEqual(b);
  });
});

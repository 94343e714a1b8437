import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SINGLE_FIELD_RULE_IDS } from './invalid-case.ts';
import { bodyViolations } from './internal/body-oracle.ts';
import { invalidCreateRequest } from './invalid-create-request.ts';

describe('invalidCreateRequest', () => {
  it('breaks exactly one field, by the rule it names, and everything else in the body is valid', () => {
    fc.assert(
      fc.property(invalidCreateRequest(), (c) => {
        const violations = bodyViolations(c.value);
        const slots = Object.keys(violations);
        expect(slots, JSON.stringify(violations)).toHaveLength(1);
        expect(violations[slots[0]!]).toContain(c.breaks);
        expect(c.codes.length).toBeGreaterThan(0);
        expect(c.why.length).toBeGreaterThan(0);
        expect(c.value).not.toHaveProperty('customer_id', expect.any(String));
      }),
      { numRuns: 300 },
    );
  });

  it('draws every single-field rule', () => {
    const rules = new Set(fc.sample(invalidCreateRequest(), { seed: 79, numRuns: 600 }).map((c) => c.breaks));
    expect([...rules].sort()).toEqual([...SINGLE_FIELD_RULE_IDS].sort());
  });

  it('honours breaks, and keeps the run marker in metadata when metadata is what breaks', () => {
    fc.assert(
      fc.property(
        invalidCreateRequest({ breaks: ['CREATE-METADATA-KEY-TOO-LONG', 'CREATE-METADATA-TOO-MANY-KEYS'], marker: { runId: 'run-9' } }),
        (c) => {
          expect(['CREATE-METADATA-KEY-TOO-LONG', 'CREATE-METADATA-TOO-MANY-KEYS']).toContain(c.breaks);
          expect((c.value.metadata as Record<string, unknown>).conformance_run).toBe('run-9');
          if (typeof c.value.external_id === 'string') expect(c.value.external_id.startsWith('run-9-')).toBe(true);
          expect(Object.keys(bodyViolations(c.value))).toEqual(['metadata']);
        },
      ),
      { numRuns: 200 },
    );
    fc.assert(fc.property(invalidCreateRequest({ breaks: ['CREATE-AMOUNT-MISSING'] }), (c) => !('amount' in c.value)));
    expect(() => invalidCreateRequest({ breaks: [] })).toThrow(RangeError);
  });

  it('yields the same values for the same seed', () => {
    const a = fc.sample(invalidCreateRequest({ marker: { runId: 'r' } }), { seed: 42, numRuns: 20 });
    const b = fc.sample(invalidCreateRequest({ marker: { runId: 'r' } }), { seed: 42, numRuns: 20 });
    expect(a).toEqual(b);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodyViolations } from './internal/body-oracle.ts';
import { validCreateRequest } from './valid-create-request.ts';

const AMOUNT = /^(0|[1-9][0-9]{0,16})(\.[0-9]{1,2})?$/;
const OPTIONAL = ['description', 'merchant_reference', 'external_id', 'return_url', 'metadata', 'allowed_methods', 'allowed_channels'];
const FIELD_ORDER = ['amount', ...OPTIONAL];

describe('validCreateRequest', () => {
  it('yields bodies whose every field is clearly valid, and never customer_id / order_id', () => {
    fc.assert(
      fc.property(validCreateRequest(), (b) => {
        expect(b.amount).toMatch(AMOUNT);
        expect(b.amount).not.toMatch(/^0(\.0*)?$/);
        for (const key of Object.keys(b)) expect(FIELD_ORDER).toContain(key);
        expect(Object.keys(b)).toEqual(FIELD_ORDER.filter((k) => k in b)); // spec order
        if (b.description !== undefined) expect(b.description).toMatch(/^[\x21-\x7e]([\x20-\x7e]{0,62}[\x21-\x7e])?$/);
        if (b.merchant_reference !== undefined) expect(b.merchant_reference).toMatch(/^[\x21-\x7e]([\x20-\x7e]{0,62}[\x21-\x7e])?$/);
        if (b.external_id !== undefined) expect(b.external_id).toMatch(/^[A-Za-z0-9_-]{20,64}$/);
        if (b.return_url !== undefined) expect(() => new URL(b.return_url!)).not.toThrow();
        if (b.metadata !== undefined) expect(Object.keys(b.metadata).length).toBeLessThanOrEqual(20);
        if (b.allowed_methods !== undefined) expect(b.allowed_methods.length).toBeGreaterThan(0);
        if (b.allowed_channels !== undefined) expect(b.allowed_channels.length).toBeGreaterThan(0);
        expect(JSON.parse(JSON.stringify(b))).toEqual(b);
        expect(bodyViolations(b as unknown as Record<string, unknown>)).toEqual({}); // the independent reading finds nothing wrong
      }),
      { numRuns: 200 },
    );
  });

  it('covers every optional field, present and absent', () => {
    const bodies = fc.sample(validCreateRequest(), { seed: 67, numRuns: 300 });
    for (const key of OPTIONAL) {
      expect(bodies.some((b) => key in b), `${key} present`).toBe(true);
      expect(bodies.some((b) => !(key in b)), `${key} absent`).toBe(true);
    }
    expect(bodies.some((b) => Object.keys(b).length === 1)).toBe(true);
  });

  it('with withAll, every optional field is present', () => {
    fc.assert(
      fc.property(validCreateRequest({ withAll: true }), (b) => {
        for (const key of OPTIONAL) expect(b).toHaveProperty(key);
      }),
      { numRuns: 100 },
    );
  });

});

describe('validCreateRequest with a marker, and seeds', () => {
  it('with a marker, external_id is `${runId}-` + a unique suffix and metadata carries conformance_run within 20 keys', () => {
    const runId = 'run_2024-abc';
    const externalIds = new Set<string>();
    fc.assert(
      fc.property(validCreateRequest({ marker: { runId } }), (b) => {
        expect(b.metadata?.conformance_run).toBe(runId);
        expect(Object.keys(b.metadata!).length).toBeLessThanOrEqual(20);
        if (b.external_id !== undefined) {
          expect(b.external_id).toMatch(/^run_2024-abc-[A-Za-z0-9]{20}$/);
          expect(externalIds.has(b.external_id)).toBe(false);
          externalIds.add(b.external_id);
        }
      }),
      { numRuns: 300 },
    );
    expect(externalIds.size).toBeGreaterThan(50);
    const sampled = fc.sample(
      validCreateRequest({ marker: { runId }, withAll: true }),
      { seed: 71, numRuns: 500 },
    ).map((b) => b.external_id);
    expect(new Set(sampled).size).toBe(sampled.length);
  });

  it('reaches metadata exactly at its limits together with the marker', () => {
    const bodies = fc.sample(validCreateRequest({ marker: { runId: 'r1' } }), { seed: 73, numRuns: 400 });
    expect(bodies.some((b) => Object.keys(b.metadata!).length === 20)).toBe(true);
  });

  it('rejects a runId that cannot prefix an external_id', () => {
    expect(() => validCreateRequest({ marker: { runId: 'has space' } })).toThrow(RangeError);
    expect(() => validCreateRequest({ marker: { runId: 'x'.repeat(41) } })).toThrow(RangeError);
  });

  it('yields the same values for the same seed', () => {
    const a = fc.sample(validCreateRequest({ marker: { runId: 'r' } }), { seed: 42, numRuns: 20 });
    const b = fc.sample(validCreateRequest({ marker: { runId: 'r' } }), { seed: 42, numRuns: 20 });
    expect(a).toEqual(b);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wrongTypeField } from './wrong-type-field.ts';

const EXPECTED: Record<string, string> = {
  amount: 'string',
  description: 'string',
  merchant_reference: 'string',
  external_id: 'string',
  return_url: 'string',
  customer_id: 'string',
  order_id: 'string',
  metadata: 'object',
  allowed_methods: 'array',
  allowed_channels: 'array',
};
const kindOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

describe('wrongTypeField', () => {
  it('pairs a field with a non-null JSON value of another type, codes invalid_request plus the field code', () => {
    fc.assert(
      fc.property(wrongTypeField(), (c) => {
        const { field, value } = c.value;
        expect(Object.keys(EXPECTED)).toContain(field);
        expect(kindOf(value)).not.toBe(EXPECTED[field]);
        expect(value).not.toBeNull();
        expect(JSON.parse(JSON.stringify({ v: value })).v).toEqual(value);
        expect(c.breaks).toBe('CREATE-WRONG-TYPE');
        expect(c.codes[0]).toBe('invalid_request');
        expect(c.codes).not.toContain('description_too_long');
        expect(c.codes).not.toContain('reference_too_long');
        expect(c.why.startsWith(`${field} `)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('gives each field its codes', () => {
    const cases = fc.sample(wrongTypeField(), { seed: 47, numRuns: 2000 });
    const codes = new Map(cases.map((c) => [c.value.field, c.codes.join(',')]));
    expect(Object.fromEntries(codes)).toEqual({
      amount: 'invalid_request,invalid_amount',
      description: 'invalid_request',
      merchant_reference: 'invalid_request',
      external_id: 'invalid_request,invalid_external_id',
      return_url: 'invalid_request,invalid_return_url',
      metadata: 'invalid_request,invalid_metadata',
      allowed_methods: 'invalid_request,invalid_allowed_method',
      allowed_channels: 'invalid_request,invalid_allowed_channel',
      customer_id: 'invalid_request,invalid_customer',
      order_id: 'invalid_request,order_not_found',
    });
    expect(cases.some((c) => c.value.field === 'description' && c.value.value === 5)).toBe(true);
    expect(cases.some((c) => c.value.field === 'metadata' && typeof c.value.value === 'string')).toBe(true);
    expect(cases.some((c) => c.value.field === 'allowed_methods' && c.value.value === 'BKASH')).toBe(true);
  });

  it('honours fields', () => {
    fc.assert(fc.property(wrongTypeField({ fields: ['external_id'] }), (c) => c.value.field === 'external_id'));
    expect(() => wrongTypeField({ fields: [] })).toThrow(RangeError);
  });

  it('yields the same values for the same seed', () => {
    const a = fc.sample(wrongTypeField(), { seed: 42, numRuns: 20 });
    const b = fc.sample(wrongTypeField(), { seed: 42, numRuns: 20 });
    expect(a).toEqual(b);
  });
});

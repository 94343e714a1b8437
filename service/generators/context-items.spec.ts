import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contextItems } from './context-items.ts';

describe('contextItems', () => {
  it('yields non-null JSON values with CREATE-CONTEXT-ITEMS-REJECTED / [context_items_not_accepted]', () => {
    fc.assert(
      fc.property(contextItems(), (c) => {
        expect(c.value).not.toBeNull();
        expect(c.value).not.toBeUndefined();
        expect(JSON.parse(JSON.stringify(c.value))).toEqual(c.value);
        expect(c.breaks).toBe('CREATE-CONTEXT-ITEMS-REJECTED');
        expect(c.codes).toEqual(['context_items_not_accepted']);
        expect(c.why).toMatch(/^context_items /);
      }),
      { numRuns: 500 },
    );
  });

  it('covers arrays of objects, the empty array, strings, numbers, booleans and objects', () => {
    const values = fc.sample(contextItems(), { seed: 41, numRuns: 500 }).map((c) => c.value);
    const kind = (v: unknown) => (Array.isArray(v) ? (v.length ? 'items' : 'empty') : typeof v);
    const kinds = new Set<string>(values.map(kind));
    for (const k of ['items', 'empty', 'string', 'number', 'boolean', 'object']) expect(kinds.has(k), k).toBe(true);
  });

  it('yields the same values for the same seed', () => {
    const a = fc.sample(contextItems(), { seed: 42, numRuns: 20 });
    const b = fc.sample(contextItems(), { seed: 42, numRuns: 20 });
    expect(a).toEqual(b);
  });
});

/**
 * external_id strings that are empty or hold a control character; breaks `CREATE-EXTERNAL-ID-BLANK`,
 * codes `[invalid_external_id]`.
 *
 *   blank = "" | text CONTROL text      (CONTROL: U+0000..U+001F, U+007F)
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import type { InvalidCase } from './invalid-case.ts';
import { has, reading, set, type FieldRules } from './internal/field-rule.ts';

const blank = (value: string, why: string): InvalidCase<string> => ({ value, breaks: 'CREATE-EXTERNAL-ID-BLANK', codes: ['invalid_external_id'], why: `external_id ${why}` });
const control = (c: number): string => `U+${c.toString(16).padStart(4, '0')}`;

function blankExternalId(): Arbitrary<InvalidCase<string>> {
  return fc.oneof(
    fc.constant(blank('', 'is empty')),
    fc.tuple(fc.stringMatching(/^[A-Za-z0-9]{0,8}$/), fc.integer({ min: 0, max: 0x20 }), fc.stringMatching(/^[A-Za-z0-9]{0,8}$/)).map(([a, n, b]) => {
      const c = n === 0x20 ? 0x7f : n;
      return blank(`${a}${String.fromCharCode(c)}${b}`, `holds control character ${control(c)}`);
    }),
  );
}

/** CREATE-EXTERNAL-ID-BLANK in a body (generators/internal/field-rule.ts). */
export const FIELD_RULES: FieldRules<'CREATE-EXTERNAL-ID-BLANK'> = {
  violations: {
    'CREATE-EXTERNAL-ID-BLANK': (slots) => (slots.includes('external_id') ? [blankExternalId().map(set('external_id'))] : []),
  },
  edges: {
    'CREATE-EXTERNAL-ID-BLANK': [blank('', 'is empty'), blank('order\u00001', 'holds NUL'), blank('order\n1', 'holds a line feed'), blank('order\u007f', 'holds DEL')].map(set('external_id')),
  },
  // "external_id: a non-empty string without control characters"
  oracle: (body) =>
    reading('external_id', has(body, 'external_id') && typeof body.external_id === 'string' && (body.external_id === '' || /[\u0000-\u001f\u007f]/.test(body.external_id)) ? ['CREATE-EXTERNAL-ID-BLANK'] : []),
};

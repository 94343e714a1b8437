/**
 * malformedBody: raw createPayment request bodies (the bytes after the headers, as a string) that
 * are not a JSON object.
 *
 * Spec: "Requests with a body use `Content-Type: application/json`", the body is a
 * CreatePaymentRequest (a JSON object); Errors: `invalid_request` — "body or a parameter is
 * malformed". Two rules:
 *
 * CREATE-MALFORMED-JSON — not JSON text at all (RFC 8259), codes [invalid_request]:
 *   a valid body cut short; a trailing comma; single quotes; unquoted keys; NaN / Infinity /
 *   undefined as values; comments; garbage before or after; two objects back to back; a raw control
 *   character inside a string; a bad escape; a BOM followed by garbage; form-encoded or plain text.
 *   The empty (or all-whitespace) body is here too, with codes [invalid_request, invalid_amount]: a
 *   target may read "no body" as `{}`, and then amount is missing.
 *
 * CREATE-BODY-NOT-OBJECT — JSON, but not an object, codes [invalid_request, invalid_amount]:
 *   an array (empty or holding a valid body), a string (the valid body JSON-encoded again), a number,
 *   null, true, false. With no object there is no amount either, so `invalid_amount` also applies.
 *
 * A BOM followed by a valid body is not here: RFC 8259 lets a parser ignore a BOM, so it is borderline.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import type { InvalidCase } from './invalid-case.ts';
import { show, trimmedPrintableAscii } from './internal/charsets.ts';
import { validAmount } from './valid-amount.ts';

/** A small valid body, as JSON text, for the malformed variants to start from. */
const validJson: Arbitrary<string> = fc
  .record(
    { amount: validAmount({ maxIntegerDigits: 6 }), description: trimmedPrintableAscii(1, 20) },
    { requiredKeys: ['amount'] },
  )
  .map((body) => JSON.stringify(body));

function malformed(value: string, why: string): InvalidCase<string> {
  const empty = value.trim() === '';
  return {
    value,
    breaks: 'CREATE-MALFORMED-JSON',
    codes: empty ? ['invalid_request', 'invalid_amount'] : ['invalid_request'],
    why: `body ${show(value, 50)} ${why}`,
  };
}

function notObject(value: string, why: string): InvalidCase<string> {
  return {
    value,
    breaks: 'CREATE-BODY-NOT-OBJECT',
    codes: ['invalid_request', 'invalid_amount'],
    why: `body ${show(value, 50)} ${why}`,
  };
}

const notJson: Arbitrary<InvalidCase<string>> = fc.oneof(
  // cut anywhere strictly inside: a prefix of an object text without its "}" is never JSON
  fc
    .tuple(validJson, fc.nat())
    .map(([json, n]) => malformed(json.slice(0, 1 + (n % (json.length - 1))), 'is a JSON object cut short')),
  validJson.map((json) => malformed(`${json.slice(0, -1)},}`, 'has a trailing comma')),
  validJson.map((json) => malformed(json.replaceAll('"', "'"), 'uses single quotes')),
  validJson.map((json) => malformed(json.replace(/"([a-z_]+)":/g, '$1:'), 'has unquoted keys')),
  fc
    .tuple(validJson, fc.constantFrom('NaN', 'Infinity', '-Infinity', 'undefined'))
    .map(([json, word]) => malformed(`${json.slice(0, -1)},"n":${word}}`, `has ${word} as a value`)),
  fc.constantFrom('NaN', 'undefined').map((word) => malformed(`{"amount":${word}}`, `has ${word} as a value`)),
  validJson.map((json) => malformed(`{/* note */${json.slice(1)}`, 'has a comment')),
  validJson.map((json) => malformed(`// note\n${json}`, 'has a comment')),
  fc.tuple(
    validJson,
    fc.constantFrom(' x', '}', ',', ']', ' {}'),
  ).map(([json, tail]) => malformed(`${json}${tail}`, 'has garbage after the object')),
  fc.tuple(
    validJson,
    fc.constantFrom('x', ')]}\'\n', '=', ','),
  ).map(([json, head]) => malformed(`${head}${json}`, 'has garbage before the object')),
  validJson.map((json) => malformed(`${json}${json}`, 'is two objects back to back')),
  fc.constantFrom(
    '\n',
    '\t',
    '\u0001',
  ).map((ch) => malformed(`{"amount":"10.00","description":"a${ch}b"}`, 'has a raw control character inside a string')),
  fc.constant(malformed('{"amount":"10.00","description":"\\x41"}', 'has an invalid escape')),
  fc.constantFrom('{amount', '{garbage', 'not json').map((g) => malformed(`\uFEFF${g}`, 'is a byte order mark followed by garbage')),
  fc.constantFrom(
    'amount=10.00&description=x',
    'hello',
    '<payment amount="10.00"/>',
    '{',
    '}',
    '"unterminated',
  ).map((t) => malformed(t, 'is not JSON')),
  fc.constantFrom('', ' ', '\r\n').map((e) => malformed(e, 'is empty')),
);

const jsonNotObject: Arbitrary<InvalidCase<string>> = fc.oneof(
  validJson.map((json) => notObject(`[${json}]`, 'is an array holding a valid body, not an object')),
  fc.constant(notObject('[]', 'is an empty array, not an object')),
  validJson.map((json) => notObject(JSON.stringify(json), 'is a JSON string (the body encoded twice), not an object')),
  fc.constantFrom('"10.00"', '10', '10.5', '0', 'null', 'true', 'false').map((t) => notObject(t, 'is a JSON scalar, not an object')),
);

export type BodyRuleId = 'CREATE-MALFORMED-JSON' | 'CREATE-BODY-NOT-OBJECT';

export interface MalformedBodyConstraints {
  /** Which of the two rules the bodies break. @defaultValue both */
  breaks?: readonly BodyRuleId[];
}

/** Raw request bodies that are not JSON, or JSON that is not an object. */
export function malformedBody(constraints: MalformedBodyConstraints = {}): Arbitrary<InvalidCase<string>> {
  const breaks = constraints.breaks ?? ['CREATE-MALFORMED-JSON', 'CREATE-BODY-NOT-OBJECT'];
  const arbs: Arbitrary<InvalidCase<string>>[] = [];
  if (breaks.includes('CREATE-MALFORMED-JSON')) arbs.push(notJson);
  if (breaks.includes('CREATE-BODY-NOT-OBJECT')) arbs.push(jsonNotObject);
  if (arbs.length === 0) throw new RangeError('malformedBody: breaks must name at least one rule');
  return fc.oneof(...arbs);
}

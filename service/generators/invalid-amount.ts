/**
 * invalidAmount: amount strings the spec clearly rejects with 400 `invalid_amount`.
 *
 * Spec, Errors: `invalid_amount` — "amount is not a positive decimal string with at most two
 * decimals". A value here is not of the form
 *
 *   amount = ( "0" / %x31-39 *DIGIT ) [ "." 1*2DIGIT ]      ; and > 0
 *
 * because it is zero or negative, has 3+ decimals of which one past the second is not zero,
 * an exponent, an explicit sign, whitespace, no digits at all, a comma, a word (NaN, Infinity)
 * or a hex/binary prefix. Cases a lenient decimal parser might still read the same way as a valid
 * amount and the spec does not settle ("007", "1.", ".5", "1.000", 18+ integer digits, non-ASCII
 * digits) are in borderlineAmount instead.
 *
 * Note: "+5" is asserted as invalid on purpose: the spec's amount is a decimal string, and a sign
 * is not part of one; a target that accepts it is reported.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import type { InvalidCase } from './invalid-case.ts';
import { DIGITS, charFrom, show, stringOf } from './internal/charsets.ts';
import { has, reading, set, type FieldRules } from './internal/field-rule.ts';
import { validAmount } from './valid-amount.ts';

const NON_ZERO = '123456789';

function invalid(value: string, why: string): InvalidCase<string> {
  return { value, breaks: 'CREATE-AMOUNT-INVALID', codes: ['invalid_amount'], why: `amount ${show(value)} ${why}` };
}

/** Insert `text` into `s` at `at` modulo (length + 1). */
function insertAt(s: string, at: number, text: string): string {
  const i = at % (s.length + 1);
  return `${s.slice(0, i)}${text}${s.slice(i)}`;
}

// "0", "00", "0.0", "0.00", "000.00": zero is not positive
const zero = fc
  .tuple(stringOf('0', 1, 3), fc.constantFrom('', '.0', '.00'))
  .map(([int, frac]) => invalid(`${int}${frac}`, 'is zero, not positive'));

// "-0.00", "-10.50"
const negative = fc
  .oneof(validAmount(), fc.constantFrom('0', '0.00'))
  .map((a) => invalid(`-${a}`, 'is negative (or negative zero)'));

// "1.005", "0.001", "12.3450001": 3+ decimals, one of them past the second not zero
const tooManyDecimals = fc
  .tuple(validAmount({ maxDecimals: 0, maxIntegerDigits: 9 }), fc.constantFrom('0', ''), stringOf(DIGITS, 2, 5), charFrom(NON_ZERO))
  .map(([int, zeroInt, mid, last]) => {
    const value = `${zeroInt === '0' ? '0' : int}.${mid}${last}`;
    return invalid(value, `has ${mid.length + 1} decimals (at most two allowed)`);
  });

// "1e3", "1.5E+2", "25e-1"
const exponent = fc
  .tuple(validAmount({ maxIntegerDigits: 3 }), fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), stringOf(DIGITS, 1, 2))
  .map(([m, e, sign, x]) => invalid(`${m}${e}${sign}${x}`, 'uses exponent notation'));

// "+5", "+10.00"
const explicitSign = validAmount().map((a) => invalid(`+${a}`, 'carries an explicit "+" sign'));

// " 5", "5 ", "1 000", "10.\t50", "\u00a05"
const whitespaceChar = fc.constantFrom(' ', '  ', '\t', '\n', '\r\n', '\u00a0');
const whitespace = fc
  .tuple(validAmount({ maxIntegerDigits: 9 }), whitespaceChar, fc.constantFrom('leading', 'trailing', 'inner'), fc.nat())
  .map(([a, ws, where, at]) => {
    if (where === 'leading') return invalid(`${ws}${a}`, 'has leading whitespace');
    if (where === 'trailing') return invalid(`${a}${ws}`, 'has trailing whitespace');
    // inner: strictly between two characters (a one-character amount gets it after a "1" prefix)
    const base = a.length >= 2 ? a : `1${a}`;
    const i = 1 + (at % (base.length - 1));
    return invalid(`${base.slice(0, i)}${ws}${base.slice(i)}`, 'has whitespace inside');
  });

// "", "  "
const empty = fc.constantFrom('', ' ', '   ').map((v) => invalid(v, v === '' ? 'is empty' : 'is only whitespace'));

// "10a", "$10", "5 BDT", "১0": a character that is neither a digit nor the decimal point
const foreignChar = fc.constantFrom(...'abcxyzABCXYZ$#%&*_/=!?@:;()[]~^\'"`'.split(''));
const nonDigit = fc.oneof(
  fc
    .tuple(validAmount({ maxIntegerDigits: 9 }), foreignChar, fc.nat())
    .map(([a, ch, at]) => invalid(insertAt(a, at, ch), `contains ${show(ch)}, not a digit`)),
  fc.constantFrom(
    'ten',
    'abc',
    '5 BDT',
    'BDT 5',
    '৳500',
    '$10.00',
    '10.00 ৳',
    'one hundred',
  ).map((v) => invalid(v, 'is not made of digits')),
);

// "1,50", "1,000.00", "1.000,50": a comma is not a decimal separator here, nor a group separator
const comma = fc.oneof(
  fc
    .tuple(validAmount({ maxDecimals: 0, maxIntegerDigits: 6 }), stringOf(DIGITS, 1, 2))
    .map(([int, frac]) => invalid(`${int},${frac}`, 'uses a comma as decimal separator')),
  fc.constantFrom('1,000', '1,000.00', '1.000,50', '12,345,678.90').map((v) => invalid(v, 'uses a comma separator')),
);

// "NaN", "Infinity", ...: words a float parser knows
const word = fc
  .constantFrom('NaN', 'nan', 'Infinity', '-Infinity', '+Infinity', 'inf', 'undefined', 'null', 'true', 'false')
  .map((v) => invalid(v, 'is a word, not a decimal'));

// "0x10", "0XFF", "0b101", "0o17", "1_000": number-literal syntax, not a decimal string
const radix = fc.oneof(
  fc
    .tuple(fc.constantFrom('0x', '0X'), stringOf('0123456789abcdefABCDEF', 1, 6))
    .map(([p, h]) => invalid(`${p}${h}`, 'is hexadecimal')),
  fc.constantFrom('0b101', '0o17', '1_000', '1_000.00').map((v) => invalid(v, 'uses number-literal syntax')),
);

// "1.2.3", "1..5", ".", "-", "+", "--1"
const punctuation = fc
  .constantFrom('1.2.3', '1..5', '10.00.', '.', '..', '-', '+', '--1', '+-1', '1-', '1.-5')
  .map((v) => invalid(v, 'is not a well-formed number'));

/**
 * Amount strings the spec clearly rejects; breaks `CREATE-AMOUNT-INVALID`, codes `[invalid_amount]`.
 */
export function invalidAmount(): Arbitrary<InvalidCase<string>> {
  return fc.oneof(
    zero,
    negative,
    tooManyDecimals,
    exponent,
    explicitSign,
    whitespace,
    empty,
    nonDigit,
    comma,
    word,
    radix,
    punctuation,
  );
}

const AMOUNT_FORM = /^(0|[1-9][0-9]{0,16})(\.[0-9]{1,2})?$/;

/** CREATE-AMOUNT-INVALID and CREATE-AMOUNT-MISSING in a body (service/generators/internal/field-rule.ts). */
export const FIELD_RULES: FieldRules<'CREATE-AMOUNT-INVALID' | 'CREATE-AMOUNT-MISSING'> = {
  violations: {
    'CREATE-AMOUNT-INVALID': (slots) => (slots.includes('amount') ? [invalidAmount().map(set('amount'))] : []),
    'CREATE-AMOUNT-MISSING': (slots) =>
      slots.includes('amount')
        ? [
            fc.constant({
              slot: 'amount' as const,
              remove: true,
              value: undefined,
              case: {
                value: undefined,
                breaks: 'CREATE-AMOUNT-MISSING' as const,
                codes: ['invalid_amount', 'invalid_request'] as const,
                why: 'amount is missing (it is required)',
              },
            }),
          ]
        : [],
  },
  // "amount: required; a positive decimal string with at most two decimals" (18+ integer digits are borderline, never drawn)
  oracle: (body) => {
    if (!has(body, 'amount')) return reading('amount', ['CREATE-AMOUNT-MISSING']);
    const amount = body.amount;
    return reading(
      'amount',
      typeof amount === 'string' && (!AMOUNT_FORM.test(amount) || /^0(\.0+)?$/.test(amount)) ? ['CREATE-AMOUNT-INVALID'] : [],
    );
  },
};

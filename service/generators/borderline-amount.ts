/**
 * borderlineAmount: amounts the spec does not clearly rule on; the suite sends them and records
 * whether the target accepts them and, if so, how it returns the amount.
 *
 * Spec: "positive decimal string with at most two decimals"; no maximum, no statement on leading
 * zeros, a bare decimal point, trailing zero decimals or non-ASCII digits. So:
 *
 *   leading zeros    "007", "00.50"        a lenient parser reads a valid amount
 *   bare point       "1.", ".5"            many decimal grammars accept them
 *   zero decimals    "1.000"               numerically two decimals, textually three
 *   18+ int digits   "123456789012345678"  no maximum is stated
 *   non-ASCII digits "১০০", "１００"        Unicode Nd digits (Bengali: the service is BDT)
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import type { BorderlineCase } from './invalid-case.ts';
import { DIGITS, charFrom, show, stringOf } from './internal/charsets.ts';
import { validAmount } from './valid-amount.ts';

function borderline(value: string, why: string): BorderlineCase<string> {
  return { value, why: `amount ${show(value)} ${why}` };
}

const DIGIT_SETS: ReadonlyArray<readonly [string, string]> = [
  ['Bengali', '০১২৩৪৫৬৭৮৯'],
  ['Arabic-Indic', '٠١٢٣٤٥٦٧٨٩'],
  ['Devanagari', '०१२३४५६७८९'],
  ['fullwidth', '０１２３４５６７８９'],
];

/** Amounts whose acceptance the spec leaves open. */
export function borderlineAmount(): Arbitrary<BorderlineCase<string>> {
  const leadingZeros = fc
    .tuple(stringOf('0', 1, 3), validAmount({ maxIntegerDigits: 6 }))
    .map(([zeros, a]) => borderline(`${zeros}${a}`, 'has leading zeros'));
  const bareTrailingPoint = validAmount({ maxDecimals: 0 }).map((a) => borderline(`${a}.`, 'ends with a bare decimal point'));
  const bareLeadingPoint = stringOf(DIGITS, 1, 2)
    .filter((f) => /[1-9]/.test(f))
    .map((f) => borderline(`.${f}`, 'has no integer digit before the point'));
  const trailingZeroDecimals = fc
    .tuple(validAmount({ maxIntegerDigits: 9 }), stringOf('0', 1, 3))
    .map(([a, zeros]) => {
      const frac = a.includes('.') ? a.split('.')[1]! : '';
      const padded = `${a}${a.includes('.') ? '' : '.'}${frac.padEnd(2, '0').slice(frac.length)}${zeros}`;
      return borderline(padded, 'has more than two decimals, all extra ones zero');
    });
  const tooManyIntegerDigits = fc
    .tuple(charFrom('123456789'), stringOf(DIGITS, 17, 30), fc.constantFrom('', '.00', '.99'))
    .map(([lead, rest, frac]) => borderline(`${lead}${rest}${frac}`, `has ${rest.length + 1} integer digits (no maximum is stated)`));
  const unicodeDigits = fc
    .tuple(validAmount({ maxIntegerDigits: 6 }), fc.constantFrom(...DIGIT_SETS), fc.boolean())
    .map(([a, [script, digits], all]) => {
      let changed = false;
      const mapped = a.replace(/[0-9]/g, (d) => {
        if (!all && changed) return d;
        changed = true;
        return digits[Number(d)]!;
      });
      return borderline(mapped, `uses ${script} digits${/[0-9]/.test(mapped) ? ' mixed with ASCII ones' : ''}`);
    });
  return fc.oneof(
    leadingZeros,
    bareTrailingPoint,
    bareLeadingPoint,
    trailingZeroDecimals,
    tooManyIntegerDigits,
    unicodeDigits,
    fc.constantFrom(
      borderline('007', 'has leading zeros'),
      borderline('1.', 'ends with a bare decimal point'),
      borderline('.5', 'has no integer digit before the point'),
      borderline('1.000', 'has three decimals, all zero past the second'),
      borderline('123456789012345678.00', 'has 18 integer digits (no maximum is stated)'),
      borderline('১০০', 'uses Bengali digits'),
    ),
  );
}

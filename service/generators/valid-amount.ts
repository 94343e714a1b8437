/**
 * validAmount: amounts the spec clearly accepts.
 *
 * Spec, CreatePaymentRequest: amount is a "positive decimal string with at most two decimals, never a
 * JSON number"; Limits: "amount precision: at most two decimals". No maximum is stated; the suite
 * uses up to 17 integer digits (DESIGN principle 4: "12345678901234567.89" must come back equal).
 *
 * Grammar (the value is also > 0):
 *
 *   amount   = integer [ "." fraction ]
 *   integer  = "0" / %x31-39 0*16DIGIT     ; 1..17 digits, no leading zero except "0.xx"
 *   fraction = 1*2DIGIT
 *
 * Equivalently `^(0|[1-9][0-9]{0,16})(\.[0-9]{1,2})?$` and not zero. Leading zeros ("007"),
 * a bare dot ("1.", ".5") and 18+ integer digits are borderline (see borderlineAmount).
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { DIGITS, charFrom, stringOf } from './internal/charsets.ts';

export interface ValidAmountConstraints {
  /** Most integer digits, 1..17. @defaultValue 17 */
  maxIntegerDigits?: number;
  /** Most decimals, 0..2. @defaultValue 2 */
  maxDecimals?: 0 | 1 | 2;
}

const NON_ZERO = '123456789';

/** Positive decimal strings with 0..2 decimals, "0.01" up to 17 integer digits. */
export function validAmount(constraints: ValidAmountConstraints = {}): Arbitrary<string> {
  const maxIntegerDigits = constraints.maxIntegerDigits ?? 17;
  const maxDecimals = constraints.maxDecimals ?? 2;
  if (!Number.isInteger(maxIntegerDigits) || maxIntegerDigits < 1 || maxIntegerDigits > 17) {
    throw new RangeError(`maxIntegerDigits must be 1..17, got ${maxIntegerDigits}`);
  }
  if (![0, 1, 2].includes(maxDecimals)) throw new RangeError(`maxDecimals must be 0..2, got ${maxDecimals}`);

  // integer >= 1, then an optional fraction of any digits: "1", "10.5", "12345678901234567.89"
  const fraction: Arbitrary<string> =
    maxDecimals === 0
      ? fc.constant('')
      : fc.oneof(fc.constant(''), stringOf(DIGITS, 1, maxDecimals).map((f) => `.${f}`));
  const atLeastOne = fc
    .tuple(charFrom(NON_ZERO), stringOf(DIGITS, 0, maxIntegerDigits - 1), fraction)
    .map(([lead, rest, frac]) => `${lead}${rest}${frac}`);

  // "0." then a fraction that is not all zeros: "0.5", "0.05", "0.50", "0.99"
  const belowOneFractions: Arbitrary<string>[] = [];
  if (maxDecimals >= 1) belowOneFractions.push(charFrom(NON_ZERO));
  if (maxDecimals >= 2) {
    belowOneFractions.push(charFrom(NON_ZERO).map((d) => `0${d}`));
    belowOneFractions.push(fc.tuple(charFrom(NON_ZERO), charFrom(DIGITS)).map(([a, b]) => `${a}${b}`));
  }
  const belowOne = belowOneFractions.length > 0 ? fc.oneof(...belowOneFractions).map((f) => `0.${f}`) : undefined;

  // the edges the suite most wants to see, kept when the constraints allow them
  const edges = ['0.01', '0.1', '1', '1.00', '100', '12345678901234567.89', '99999999999999999.99'].filter(
    (edge) => {
      const [int = '', frac = ''] = edge.split('.');
      return int.length <= maxIntegerDigits && frac.length <= maxDecimals;
    },
  );

  const arbs: fc.WeightedArbitrary<string>[] = [{ arbitrary: atLeastOne, weight: 6 }];
  if (belowOne) arbs.push({ arbitrary: belowOne, weight: 2 });
  if (edges.length > 0) arbs.push({ arbitrary: fc.constantFrom(...edges), weight: 1 });
  return fc.oneof(...arbs);
}

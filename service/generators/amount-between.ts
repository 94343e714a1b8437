/**
 * amountBetween: amount strings for a cents value in a closed range, written in either form the
 * spec accepts (Resources: amount, "decimal string, at most two decimals"). The orders suite draws
 * amounts around an order's remaining_due with it (DESIGN, oracle principle 4: amounts compare as
 * decimals, never floats, so cents are BigInt).
 *
 *   amount = whole "." 2DIGIT                 ; form "fixed": "12.50", "12.00"
 *          / whole [ "." 1*2DIGIT ]           ; form "short": "12.5", "12" (no trailing zero)
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';

/** The amount string of `cents`, in one of the forms the spec accepts ("12", "12.5", "12.50"). */
export function formatCents(cents: bigint, form: 'fixed' | 'short' = 'fixed'): string {
  const whole = cents / 100n;
  const frac = (cents % 100n).toString().padStart(2, '0');
  if (form === 'fixed') return `${whole}.${frac}`;
  if (frac === '00') return `${whole}`;
  return frac.endsWith('0') ? `${whole}.${frac[0]}` : `${whole}.${frac}`;
}

/** An amount string for a cents value in [min, max] (min ≥ 0), written in either accepted form. */
export function amountBetween(min: bigint, max: bigint): Arbitrary<string> {
  if (min < 0n || max < min) throw new RangeError(`need 0 ≤ min ≤ max, got ${min}..${max}`);
  return fc
    .tuple(fc.bigInt({ min, max }), fc.constantFrom<'fixed' | 'short'>('fixed', 'short'))
    .map(([c, form]) => formatCents(c, form));
}

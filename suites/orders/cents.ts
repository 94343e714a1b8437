/**
 * Amounts as BigInt cents for the orders suite (DESIGN, oracle principle 4: amounts compare as
 * decimals, never floats). The order fixture's remaining_due comes from the profile.
 */
import fc from 'fast-check';

/** Cents of a decimal string with at most two decimals ("1000", "1000.5", "1000.00"), or null. */
export function toCents(amount: string): bigint | null {
  const m = /^([0-9]+)(?:\.([0-9]{1,2}))?$/.exec(amount);
  if (!m) return null;
  return BigInt(m[1]!) * 100n + BigInt(((m[2] ?? '') + '00').slice(0, 2));
}

/** The amount string of `cents`, in one of the forms the spec accepts ("12", "12.5", "12.50"). */
export function formatCents(cents: bigint, form: 'fixed' | 'short' = 'fixed'): string {
  const whole = cents / 100n;
  const frac = (cents % 100n).toString().padStart(2, '0');
  if (form === 'fixed') return `${whole}.${frac}`;
  if (frac === '00') return `${whole}`;
  return frac.endsWith('0') ? `${whole}.${frac[0]}` : `${whole}.${frac}`;
}

/** An amount string for a cents value in [min, max], written in either accepted form. */
export function amountBetween(min: bigint, max: bigint): fc.Arbitrary<string> {
  return fc
    .tuple(fc.bigInt({ min, max }), fc.constantFrom<'fixed' | 'short'>('fixed', 'short'))
    .map(([c, form]) => formatCents(c, form));
}

/**
 * Amounts as BigInt cents for the orders suite (DESIGN, oracle principle 4: amounts compare as
 * decimals, never floats). The order fixture's remaining_due comes from the profile; amounts
 * around it are drawn by service/generators/amount-between.ts.
 */

/** Cents of a decimal string with at most two decimals ("1000", "1000.5", "1000.00"), or null. */
export function toCents(amount: string): bigint | null {
  const m = /^([0-9]+)(?:\.([0-9]{1,2}))?$/.exec(amount);
  if (!m) return null;
  return BigInt(m[1]!) * 100n + BigInt(((m[2] ?? '') + '00').slice(0, 2));
}

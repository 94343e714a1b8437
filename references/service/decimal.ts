/**
 * Decimal amounts in BDT major units, handled as BigInt cents: never through a float
 * (spec, "What the service does": amounts are decimal strings, never JSON numbers).
 */

/** Spec, CreatePaymentRequest.amount: a positive decimal string with at most two decimals. */
export const AMOUNT_PATTERN = /^[0-9]+(\.[0-9]{1,2})?$/;
export const MAX_INTEGER_DIGITS = 18;

/** Cents of a string matching AMOUNT_PATTERN. */
export function toCents(amount: string): bigint {
  const [whole = '0', fraction = ''] = amount.split('.');
  return BigInt(whole) * 100n + BigInt((fraction + '00').slice(0, 2));
}

/** "1000.00" form of a non-negative cents value. */
export function formatCents(cents: bigint): string {
  const sign = cents < 0n ? '-' : '';
  const abs = cents < 0n ? -cents : cents;
  const whole = abs / 100n;
  const fraction = (abs % 100n).toString().padStart(2, '0');
  return `${sign}${whole}.${fraction}`;
}

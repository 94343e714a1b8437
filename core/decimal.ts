/** Decimal strings compared by value ("10.50" equals "10.5"), never through a float. */
export function decimalEquals(a: unknown, b: unknown): boolean {
  const na = normaliseDecimal(a);
  const nb = normaliseDecimal(b);
  return na !== null && na === nb;
}

export function normaliseDecimal(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const m = /^([0-9]+)(?:\.([0-9]+))?$/.exec(v);
  if (!m) return null;
  const int = m[1]!.replace(/^0+(?=\d)/, '');
  const frac = (m[2] ?? '').replace(/0+$/, '');
  return frac ? `${int}.${frac}` : int;
}

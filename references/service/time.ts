/** Timestamps: RFC 3339 with milliseconds, UTC, and a strict RFC 3339 parser for filters. */

// Formatting is memoised: the read path formats the same few timestamps again and again.
const FORMAT_CACHE_MAX = 8192;
const formatted = new Map<number, string>();

export function formatTimestamp(ms: number, offset: 'Z' | '+00:00' = 'Z'): string {
  let s = formatted.get(ms);
  if (s === undefined) {
    s = new Date(ms).toISOString();
    if (formatted.size >= FORMAT_CACHE_MAX) formatted.clear();
    formatted.set(ms, s);
  }
  return offset === 'Z' ? s : `${s.slice(0, -1)}+00:00`;
}

export function formatNullableTimestamp(ms: number | null, offset: 'Z' | '+00:00' = 'Z'): string | null {
  return ms === null ? null : formatTimestamp(ms, offset);
}

// RFC 3339, section 5.6: date-time = full-date "T" full-time; time-offset = "Z" / time-numoffset.
// "T" and "Z" may be lower case (RFC 3339 5.6 NOTE).
const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/**
 * Milliseconds since the epoch, or null when `text` is not an RFC 3339 date-time.
 * Sub-millisecond digits are rounded towards `rounding` so that inclusive bounds stay
 * exact: a lower bound rounds up (ceil), an upper bound rounds down (floor).
 */
export function parseRfc3339(text: string, rounding: 'floor' | 'ceil'): number | null {
  const m = RFC3339.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, , sign, oh, om] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12) return null;
  if (day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 60) return null;
  let offsetMinutes = 0;
  if (sign !== undefined) {
    const offH = Number(oh);
    const offM = Number(om);
    if (offH > 23 || offM > 59) return null;
    offsetMinutes = (sign === '-' ? -1 : 1) * (offH * 60 + offM);
  }
  const digits = frac ?? '';
  let millis = Number((digits + '000').slice(0, 3));
  if (rounding === 'ceil' && /[1-9]/.test(digits.slice(3))) millis += 1;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  return utc - offsetMinutes * 60_000;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

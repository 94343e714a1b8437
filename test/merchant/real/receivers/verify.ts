/** A merchant's hand-written check of Service-Signature: HMAC-SHA256 over `<t>.` + raw body, lowercase hex, timingSafeEqual, 5-minute window. */
import { createHmac, timingSafeEqual } from 'node:crypto';

export function verifyServiceSignature(raw: Buffer, header: string | undefined, secret: string, nowS = Date.now() / 1000): boolean {
  if (!header) return false;
  const items = header.split(',').map((kv) => kv.split('='));
  const ts = items.filter(([k]) => k === 't');
  if (ts.length !== 1 || !/^\d+$/.test(ts[0]![1] ?? '')) return false;
  const t = ts[0]![1]!;
  if (nowS - Number(t) > 300) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.`).update(raw).digest('hex'));
  return items.some(([k, v]) => k === 'v1' && v !== undefined && v.length === expected.length && timingSafeEqual(Buffer.from(v), expected));
}

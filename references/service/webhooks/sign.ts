/**
 * Webhook signatures (spec, "Events" > "Signature"):
 * `Service-Signature: t=<unix_time>,v1=<hex>`, where v1 is the lowercase hex
 * HMAC-SHA256, keyed with the endpoint's signing secret, over `<t>.` followed by the
 * exact raw body bytes.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export function computeSignature(secret: string, timestamp: number, body: Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(body).digest('hex');
}

export function signatureHeader(secret: string, timestamp: number, body: Buffer): string {
  return `t=${timestamp},v1=${computeSignature(secret, timestamp, body)}`;
}

/** What a receiver does (steps 1-2): recompute, compare in constant time, reject stale timestamps. */
export function verifySignature(
  header: string | undefined,
  secret: string,
  body: Buffer,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  if (header === undefined) return false;
  let timestamp: number | null = null;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === 't' && /^\d+$/.test(value)) timestamp = Number(value);
    if (name === 'v1') candidates.push(value);
  }
  if (timestamp === null || Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(computeSignature(secret, timestamp, body), 'utf8');
  return candidates.some((c) => {
    const given = Buffer.from(c, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

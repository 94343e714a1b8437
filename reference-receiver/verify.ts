/**
 * The reference receiver's signature check (spec, Events › Signature): HMAC-SHA256 keyed with the
 * signing secret over `<t>.` + the raw bytes, lowercase hex, compared in constant time, 5-minute
 * tolerance. Written here apart from the sink's verifier (the oracle the suite judges with), so a
 * mistake in one cannot hide in the other. Each planted fault of the check is a branch here.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverFaultName } from './faults.ts';

export const TOLERANCE_SECONDS = 300;

export function signatureAccepted(header: string | undefined, rawBody: Buffer, secret: string, nowSeconds: number, faults: ReadonlySet<ReceiverFaultName>): boolean {
  if (faults.has('skips-verification')) return true;
  let body = rawBody;
  if (faults.has('verifies-reserialised-json')) {
    // Wrong: the framework's parsed body, serialised again, is not the bytes that were signed.
    try {
      body = Buffer.from(JSON.stringify(JSON.parse(rawBody.toString('utf8'))), 'utf8');
    } catch {
      return false;
    }
  }
  let sent = header;
  if (sent !== undefined && faults.has('several-v1-skip-check')) {
    const parsed = parseSignature(sent);
    if (parsed !== null && parsed.v1.length > 1) return true; // wrong: "rotation in progress" taken on trust
  }
  if (sent !== undefined && faults.has('accepts-uppercase-hex')) sent = sent.replace(/v1=([0-9A-Fa-f]+)/g, (_m, hex: string) => `v1=${hex.toLowerCase()}`);
  const tolerance = faults.has('accepts-stale-timestamps') ? null : faults.has('tolerance-four-minutes') ? 240 : TOLERANCE_SECONDS;
  return sent !== undefined && verified(sent, body, secret, nowSeconds, tolerance);
}

/** Any v1 matching the HMAC of `<t>.` + body (constant time), then |now - t| within the tolerance (null: unchecked). */
function verified(header: string, body: Buffer, secret: string, nowSeconds: number, tolerance: number | null): boolean {
  const parsed = parseSignature(header);
  if (parsed === null) return false;
  const expected = Buffer.from(createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${parsed.t}.`, 'utf8').update(body).digest('hex'), 'utf8');
  const matches = parsed.v1.some((candidate) => {
    const given = Buffer.from(candidate, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches && (tolerance === null || Math.abs(nowSeconds - Number(parsed.t)) <= tolerance);
}

/**
 * `t=<unix>,v1=<hex>[,v1=…]`: comma-separated key=value items, no whitespace, no empty item, key or
 * value; exactly one `t` of 1-15 digits (kept as sent: the HMAC covers those characters); at least
 * one `v1`; other schemes ignored. Anything else: null.
 */
function parseSignature(header: string): { t: string; v1: string[] } | null {
  if (header.length === 0 || /\s/.test(header)) return null;
  let t: string | undefined;
  const v1: string[] = [];
  for (const item of header.split(',')) {
    const eq = item.indexOf('=');
    if (eq <= 0 || eq === item.length - 1) return null;
    const key = item.slice(0, eq);
    const value = item.slice(eq + 1);
    if (key === 't') {
      if (t !== undefined || !/^[0-9]{1,15}$/.test(value)) return null;
      t = value;
    } else if (key === 'v1') {
      v1.push(value);
    }
  }
  return t === undefined || v1.length === 0 ? null : { t, v1 };
}

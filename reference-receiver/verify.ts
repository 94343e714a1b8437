/**
 * The reference receiver's signature check (spec, Events › Signature), on the sink's strict
 * verifier: HMAC over `<t>.` + the raw bytes, constant-time compare, 5-minute tolerance.
 * Each planted fault of the check is a branch here.
 */
import { parseSignatureHeader, verifySignature } from '../sink/verify-signature.ts';
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
    const parsed = parseSignatureHeader(sent);
    if (parsed.ok && parsed.v1.length > 1) return true; // wrong: "rotation in progress" taken on trust
  }
  if (sent !== undefined && faults.has('accepts-uppercase-hex')) sent = sent.replace(/v1=([0-9A-Fa-f]+)/g, (_m, hex: string) => `v1=${hex.toLowerCase()}`);
  const tolerance = faults.has('accepts-stale-timestamps') ? null : faults.has('tolerance-four-minutes') ? 240 : TOLERANCE_SECONDS;
  return verifySignature({ header: sent, rawBody: body, secrets: [secret], nowSeconds, toleranceSeconds: tolerance }).valid;
}

/**
 * The reference receiver's signature check (spec, Events › Signature): HMAC-SHA256 keyed with the
 * signing secret over `<t>.` + the raw bytes, lowercase hex, compared in constant time, 5-minute
 * tolerance. Written here apart from the sink's verifier (the oracle the suite judges with), so a
 * mistake in one cannot hide in the other. Each planted fault of the check is an override in the
 * `faulty` table of the step it breaks (steps.ts).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { checkOf, type PlantingStep, type ReceiverFaultName, type Step } from './steps.ts';

export const TOLERANCE_SECONDS = 300;

interface Delivery {
  readonly header: string | undefined;
  readonly rawBody: Buffer;
  readonly secret: string;
  readonly nowSeconds: number;
  readonly faults: ReadonlySet<ReceiverFaultName>;
}

export function signatureAccepted(header: string | undefined, rawBody: Buffer, secret: string, nowSeconds: number, faults: ReadonlySet<ReceiverFaultName>): boolean {
  return checkOf(SIGNATURE, faults)({ header, rawBody, secret, nowSeconds, faults });
}

/** The whole check: the signed bytes, the header, then a v1 matching within the tolerance. */
const SIGNATURE: Step<Delivery, boolean> = {
  name: 'every delivery is verified before it is processed',
  check: ({ header, rawBody, secret, nowSeconds, faults }) => {
    const body = checkOf(SIGNED_BYTES, faults)(rawBody);
    if (body === null || header === undefined) return false;
    return checkOf(MATCH, faults)({ header: checkOf(HEX_CASE, faults)(header), body, secret, nowSeconds, tolerance: checkOf(TOLERANCE, faults)() });
  },
  faulty: {
    'skips-verification': {
      does: 'The signature is never checked: every delivery is processed and acknowledged.',
      breaks: ['RECV-VERIFY-SIGNATURE', 'RECV-TIMESTAMP-TOLERANCE', 'RECV-FULFIL-ON-PAID', 'RECV-REJECTED-NOT-PROCESSED'],
      plant: () => true,
    },
  },
};

/** The bytes the HMAC is computed over: null when there are none to check. */
const SIGNED_BYTES: Step<Buffer, Buffer | null> = {
  name: 'the HMAC covers the raw bytes received',
  check: (rawBody) => rawBody,
  faulty: {
    'verifies-reserialised-json': {
      does: 'The signature is checked over JSON.stringify(JSON.parse(body)), not over the raw bytes received.',
      breaks: ['RECV-RAW-BODY'],
      violates: ['signature.hmac-over-raw-body#receiver-raw-body'],
      plant: (rawBody) => {
        try {
          return Buffer.from(JSON.stringify(JSON.parse(rawBody.toString('utf8'))), 'utf8');
        } catch {
          return null;
        }
      },
    },
  },
};

/** The header as compared: v1 is lowercase hex, compared as sent. */
const HEX_CASE: Step<string, string> = {
  name: 'v1 is compared as sent (lowercase hex)',
  check: (header) => header,
  faulty: {
    'accepts-uppercase-hex': {
      does: 'v1 is lower-cased before the comparison, so an upper-case hex signature is accepted.',
      breaks: ['RECV-SIGNATURE-STRICT'],
      violates: ['signature.hmac-over-raw-body#receiver-strict'],
      plant: (header) => header.replace(/v1=([0-9A-Fa-f]+)/g, (_m, hex: string) => `v1=${hex.toLowerCase()}`),
    },
  },
};

/** The timestamp tolerance in seconds; null: unchecked (faults outermost last: the last listed wins). */
const TOLERANCE: Step<void, number | null> = {
  name: 'the timestamp is within 5 minutes',
  check: () => TOLERANCE_SECONDS,
  faulty: {
    'tolerance-four-minutes': {
      does: 'The timestamp tolerance is 4 minutes instead of 5: deliveries inside the window are rejected.',
      breaks: ['RECV-TIMESTAMP-EDGE'],
      violates: ['signature.receiver-rejects-stale#edge', 'limits.webhook-timestamp-tolerance'],
      plant: () => 240,
    },
    'accepts-stale-timestamps': {
      does: 'The timestamp window is not checked: a correctly signed replay of any age is accepted.',
      breaks: ['RECV-TIMESTAMP-TOLERANCE', 'RECV-FULFIL-ON-PAID', 'RECV-REJECTED-NOT-PROCESSED'],
      violates: ['signature.receiver-rejects-stale#stale'],
      plant: () => null,
    },
  },
};

const MATCH: Step<{ readonly header: string; readonly body: Buffer; readonly secret: string; readonly nowSeconds: number; readonly tolerance: number | null }, boolean> = {
  name: 'a v1 entry matches the HMAC of `<t>.` + body',
  check: ({ header, body, secret, nowSeconds, tolerance }) => verified(header, body, secret, nowSeconds, tolerance),
  faulty: {
    'several-v1-skip-check': {
      does: 'A header with more than one v1 entry (secret rotation) is accepted without comparing any of them.',
      breaks: ['RECV-VERIFY-SIGNATURE'],
      violates: ['signature.failure-400-not-processed#answers-400'],
      plant: (input, next) => {
        const parsed = parseSignature(input.header);
        return parsed !== null && parsed.v1.length > 1 ? true : next(input);
      },
    },
  },
};

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

/** The steps of this file that plant faults (references/receiver/faults.ts reads their declarations). */
export const FAULTY_STEPS: readonly PlantingStep[] = [SIGNATURE, SIGNED_BYTES, HEX_CASE, TOLERANCE, MATCH];

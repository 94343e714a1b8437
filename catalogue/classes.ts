/**
 * Conformance classes (docs/classes.md): the MUST rules of the catalogue grouped by what a
 * target must offer for them to be tested, the way OGC API standards declare conformance
 * classes. Every MUST rule belongs to exactly one class (test/catalogue-classes.test.ts); a
 * class's profile fields are the union of its rules' `needs`. A class is conformant only when
 * every testable MUST rule of it ran and passed (verdict/classes.ts).
 */
import { RULES, type RuleId } from './rules.ts';
import type { ProfileNeed, Side } from './types.ts';

export const CLASS_IDS = [
  'core',
  'scopes',
  'isolation-business',
  'isolation-live',
  'live-readiness',
  'orders',
  'webhooks',
  'webhooks-schedule',
  'control',
  'rate-limiting',
  'receiver',
  'client',
] as const;
export type ClassId = (typeof CLASS_IDS)[number];

export interface ConformanceClass {
  readonly id: ClassId;
  readonly title: string;
  /** What the class covers, in one sentence. */
  readonly covers: string;
  /** Absent: the service (`run`); otherwise the merchant-side command that tests it. */
  readonly side?: Side;
  /** Classes that must also be certified for this one to be (OGC's "dependencies"). */
  readonly dependsOn: readonly ClassId[];
  /** Its MUST rules, testable or not. */
  readonly rules: readonly RuleId[];
}

export const CLASSES: readonly ConformanceClass[] = [
  {
    id: 'core', title: 'API core', dependsOn: [],
    covers: 'Everything one Test secret key can exercise: authentication, routing, response shapes, createPayment validation, idempotency, the Test helpers, listing, versioning, unknown orders.',
    rules: [
      'AUTH-MISSING-KEY', 'AUTH-MALFORMED-KEY', 'AUTH-UNKNOWN-KEY', 'AUTH-NO-KEY-NEVER-SUCCEEDS',
      'ROUTE-UNKNOWN-404', 'ROUTE-WRONG-METHOD-405', 'ROUTE-OFFLINE-PAYMENTS-404',
      'RESP-STATUS-LISTED', 'RESP-ERROR-ENVELOPE', 'RESP-ERROR-STATUS-MATCHES-CODE', 'RESP-PAYMENT-SCHEMA', 'RESP-PAYMENT-LIVEMODE',
      'RESP-PAYMENT-CHECKOUT-URL', 'RESP-LIST-SCHEMA',
      'CREATE-VALID-ACCEPTED', 'CREATE-FIELDS-ECHOED', 'CREATE-AMOUNT-DECIMAL-EXACT', 'CREATE-AMOUNT-INVALID', 'CREATE-AMOUNT-NOT-STRING',
      'CREATE-AMOUNT-MISSING', 'CREATE-RETURN-URL-VALID', 'CREATE-RETURN-URL-FORBIDDEN-SCHEME', 'CREATE-RETURN-URL-NOT-HTTPS',
      'CREATE-METADATA-AT-LIMITS', 'CREATE-METADATA-TOO-MANY-KEYS', 'CREATE-METADATA-KEY-TOO-LONG', 'CREATE-METADATA-VALUE-TOO-LONG',
      'CREATE-METADATA-NOT-STRINGS', 'CREATE-ALLOWED-METHODS-VALID', 'CREATE-ALLOWED-METHODS-INVALID', 'CREATE-ALLOWED-CHANNELS-VALID',
      'CREATE-ALLOWED-CHANNELS-INVALID', 'CREATE-CONTEXT-ITEMS-REJECTED', 'CREATE-DESCRIPTION-TOO-LONG-CODE', 'CREATE-REFERENCE-TOO-LONG-CODE',
      'CREATE-EXTERNAL-ID-TOO-LONG-CODE', 'CREATE-WRONG-TYPE', 'CREATE-MALFORMED-JSON', 'CREATE-BODY-NOT-OBJECT', 'CREATE-MULTI-VIOLATION',
      'ORDER-NOT-FOUND',
      'IDEM-REPLAY', 'IDEM-CONFLICT', 'IDEM-IN-PROGRESS', 'IDEM-REPLAY-EXTERNAL-ID', 'IDEM-EXTERNAL-ID-CONFLICT', 'IDEM-VALUES-EXACT',
      'IDEM-RETENTION-24H',
      'ISO-UNKNOWN-ID', 'ISO-TEST-NO-LIVE-409', 'ISO-KEY-ALONE',
      'TRANS-CREATE-PENDING', 'TRANS-CANCEL', 'TRANS-HELPER-SUCCEED', 'TRANS-HELPER-CANCEL', 'TRANS-ILLEGAL',
      'LIST-FILTER-STATUS', 'LIST-FILTER-EXTERNAL-ID', 'LIST-FILTER-CREATED-RANGE', 'LIST-FILTER-STRICT', 'LIST-LIMIT-BOUNDS',
      'LIST-LIMIT-DEFAULT', 'LIST-LIMIT-RESPECTED', 'LIST-PAGINATION-COMPLETE', 'LIST-HAS-MORE',
      'VERS-UNKNOWN-VERSION-404', 'VERS-DESCRIPTION-DOCUMENT', 'VERS-ADDITIVE-TOLERANCE',
      'MODEL-SEQUENCES',
    ],
  },
  {
    id: 'scopes', title: 'Restricted and revoked keys', dependsOn: ['core'],
    covers: 'Read-only and write-only keys are refused what their scope lacks and allowed what it has; a revoked key is refused.',
    rules: ['AUTH-REVOKED-KEY', 'AUTH-READ-SCOPE-REQUIRED', 'AUTH-WRITE-SCOPE-REQUIRED', 'AUTH-SCOPE-SUFFICIENT'],
  },
  {
    id: 'isolation-business', title: 'Isolation between businesses', dependsOn: ['core'],
    covers: 'Another business\'s key sees none of this business\'s Payments; idempotency keys are scoped to the API key and external_id uniqueness to the business (IDEM-SCOPED-TO-API-KEY runs with keys.other_test or keys.test_write_only).',
    rules: ['ISO-OTHER-BUSINESS', 'IDEM-EXTERNAL-ID-SCOPE', 'IDEM-SCOPED-TO-API-KEY'],
  },
  {
    id: 'isolation-live', title: 'Test/Live isolation', dependsOn: ['core'],
    covers: 'A Live key neither sees nor changes Test Payments (and the reverse), and the Test helpers refuse a Live key.',
    rules: ['ISO-TEST-LIVE-GET', 'ISO-TEST-LIVE-LIST', 'ISO-TEST-LIVE-WRITE', 'ISO-LIVE-KEY-TEST-HELPERS'],
  },
  {
    id: 'live-readiness', title: 'Live readiness', dependsOn: ['core'],
    covers: 'Live creates by a business not ready, without credit, or asking for a method or channel it cannot receive are refused with their codes; a ready business creates.',
    rules: ['LIVE-NOT-READY', 'LIVE-NO-CREDIT', 'LIVE-METHOD-UNAVAILABLE', 'LIVE-CHANNEL-UNAVAILABLE', 'LIVE-READY-CREATES'],
  },
  {
    id: 'orders', title: 'Payments for orders', dependsOn: ['core'],
    covers: 'Payments referring to existing orders and customers: accepted within the remaining due, refused on customer mismatch, excess, a cancelled order or a foreign customer.',
    rules: ['ORDER-CUSTOMER-ACCEPTED', 'ORDER-INVALID-CUSTOMER', 'ORDER-CUSTOMER-MISMATCH', 'ORDER-EXCEEDS-DUE', 'ORDER-WITHIN-DUE', 'ORDER-CANCELLED'],
  },
  {
    id: 'webhooks', title: 'Webhook delivery', dependsOn: ['core'],
    covers: 'Events are emitted for every change, signed, routed by environment, subscription and state, retried on failure with the same body, never after an acknowledgement, and delivered at least once.',
    rules: [
      'HOOK-SIGNATURE-VALID', 'HOOK-SIGNATURE-OWN-SECRET', 'HOOK-TIMESTAMP-FRESH', 'HOOK-HEADERS', 'HOOK-ENVELOPE', 'HOOK-EVENT-CREATED',
      'HOOK-EVENT-CANCELLED', 'HOOK-EVENT-PAID', 'HOOK-EVENT-HELPER-CANCELLED', 'HOOK-ROUTE-ENVIRONMENT', 'HOOK-ROUTE-SUBSCRIPTION',
      'HOOK-ROUTE-DISABLED', 'HOOK-NO-RETRY-AFTER-ACK', 'HOOK-RETRY-ON-FAILURE', 'HOOK-REDIRECT-NOT-FOLLOWED', 'HOOK-RETRY-SAME-BODY',
      'HOOK-AT-LEAST-ONCE', 'HOOK-REFUSED-NO-EVENT', 'VERS-EVENT-API-VERSION',
    ],
  },
  {
    id: 'webhooks-schedule', title: 'The whole retry schedule', dependsOn: ['core', 'webhooks'],
    covers: 'A failing event is retried on the spec\'s schedule (never early) and attempted at most 8 times: the run waits the whole schedule out (divided by time_scale).',
    rules: ['HOOK-RETRY-SCHEDULE', 'HOOK-MAX-ATTEMPTS'],
  },
  {
    id: 'control', title: 'Operator actions (control interface)', dependsOn: ['core'],
    covers: 'What only the service\'s operators can cause, reached through the profile\'s control interface: a reversal (REVERSED and payment.reversed) and Send test event (endpoint.test).',
    rules: ['TRANS-REVERSED', 'HOOK-EVENT-REVERSED', 'HOOK-ENDPOINT-TEST'],
  },
  {
    id: 'rate-limiting', title: 'Rate limiting', dependsOn: ['core'],
    covers: 'A key over its rate limit gets 429 rate_limited with Retry-After, recovers after it, and the limit is per key.',
    rules: ['LIMIT-RATE-429', 'LIMIT-RETRY-AFTER', 'LIMIT-RECOVERY', 'LIMIT-PER-KEY'],
  },
  {
    id: 'receiver', title: 'Merchant webhook receiver', side: 'receiver', dependsOn: [],
    covers: 'A merchant\'s webhook endpoint (`hps-conformance receiver`): acknowledges, verifies signatures on the raw body and timestamp, ignores unknown types, answers in time, and never processes what it rejected.',
    rules: [
      'RECV-ACK-EVERY-TYPE', 'RECV-VERIFY-SIGNATURE', 'RECV-CONSTANT-TIME-COMPARE', 'RECV-RAW-BODY', 'RECV-TIMESTAMP-TOLERANCE',
      'RECV-IGNORE-UNKNOWN-TYPES', 'RECV-RESPONSE-TIME', 'RECV-REJECTED-NOT-PROCESSED', 'RECV-DEDUPLICATE', 'RECV-ARRIVAL-ORDER',
      'RECV-FULFIL-ON-PAID', 'RECV-SECRET-KEYS-SERVER-ONLY', 'RECV-PUBLIC-HTTPS-ENDPOINTS',
    ],
  },
  {
    id: 'client', title: 'Merchant API client', side: 'client', dependsOn: [],
    covers: 'A merchant\'s API client (`hps-conformance client`): retries what the guidance says with the same Idempotency-Key, honours Retry-After, retries a cancel only after a 429, never retries a 4xx.',
    rules: ['CLIENT-RETRY-TRANSIENT', 'CLIENT-SAME-IDEMPOTENCY-KEY', 'CLIENT-HONOUR-RETRY-AFTER', 'CLIENT-CANCEL-RETRY-ONLY-429', 'CLIENT-NO-RETRY-4XX', 'CLIENT-NO-DUPLICATE-PAYMENT'],
  },
];

const byRule = new Map<string, ConformanceClass>(CLASSES.flatMap((c) => c.rules.map((r) => [r, c] as const)));
const byId = new Map<string, ConformanceClass>(CLASSES.map((c) => [c.id, c]));


export function getClass(id: string): ConformanceClass | undefined {
  return byId.get(id);
}


/** The classes `run` (side absent), `receiver` or `client` reports on. */
export function classesOfSide(side: Side | undefined): ConformanceClass[] {
  return CLASSES.filter((c) => c.side === side);
}

/** The profile fields a class needs: the union of its rules' `needs`, in catalogue order. */
export function classNeeds(c: ConformanceClass): ProfileNeed[] {
  const ids = new Set<string>(c.rules);
  const out = new Set<ProfileNeed>();
  for (const r of RULES) if (ids.has(r.id)) for (const n of (r as { needs?: readonly ProfileNeed[] }).needs ?? []) out.add(n);
  return [...out];
}

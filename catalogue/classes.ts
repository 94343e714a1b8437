/**
 * Conformance classes (docs/classes.md): the MUST rules of the catalogue grouped by what a
 * target must offer for them to be tested, the way OGC API standards declare conformance
 * classes. Every MUST rule names its one class in its catalogue entry (`class`: a MUST rule
 * without one does not compile, test/claims.test.ts checks it too); a class's rule list is
 * derived from the entries, in catalogue order, and its profile fields are the union of its
 * rules' `needs`. A class is conformant only when every testable MUST rule of it ran and passed
 * (results/verdict/classes.ts).
 */
import { RULES, type RuleId } from './rules.ts';
import type { ClassId, ProfileNeed, Side } from './types.ts';

export { CLASS_IDS, type ClassId } from './types.ts';

export interface ConformanceClass {
  readonly id: ClassId;
  readonly title: string;
  /** What the class covers, in one sentence. */
  readonly covers: string;
  /** Absent: the service (`run`); otherwise the merchant-side command that tests it. */
  readonly side?: Side;
  /** Classes that must also be certified for this one to be (OGC's "dependencies"). */
  readonly dependsOn: readonly ClassId[];
  /** Its MUST rules, testable or not, in catalogue order (derived from the entries' `class`). */
  readonly rules: readonly RuleId[];
}

/** A class as declared here: everything but its rules, which name it themselves. */
type ClassDefinition = Omit<ConformanceClass, 'rules'>;

const DEFINITIONS: readonly ClassDefinition[] = [
  {
    id: 'core', title: 'API core', dependsOn: [],
    covers: 'Everything one Test secret key can exercise: authentication, routing, response shapes, createPayment validation, ' +
      'idempotency, the Test helpers, listing, versioning, unknown orders.',
  },
  {
    id: 'scopes', title: 'Restricted and revoked keys', dependsOn: ['core'],
    covers: 'Read-only and write-only keys are refused what their scope lacks and allowed what it has; a revoked key is refused.',
  },
  {
    id: 'isolation-business', title: 'Isolation between businesses', dependsOn: ['core'],
    covers: 'Another business\'s key sees none of this business\'s Payments; idempotency keys are scoped to the API key and external_id ' +
      'uniqueness to the business (IDEM-SCOPED-TO-API-KEY runs with keys.other_test or keys.test_write_only).',
  },
  {
    id: 'isolation-live', title: 'Test/Live isolation', dependsOn: ['core'],
    covers: 'A Live key neither sees nor changes Test Payments (and the reverse), and the Test helpers refuse a Live key.',
  },
  {
    id: 'live-readiness', title: 'Live readiness', dependsOn: ['core'],
    covers: 'Live creates by a business not ready, without credit, or asking for a method or channel it cannot receive are refused with ' +
      'their codes; a ready business creates.',
  },
  {
    id: 'orders', title: 'Payments for orders', dependsOn: ['core'],
    covers: 'Payments referring to existing orders and customers: accepted within the remaining due, refused on customer mismatch, ' +
      'excess, a cancelled order or a foreign customer.',
  },
  {
    id: 'webhooks', title: 'Webhook delivery', dependsOn: ['core'],
    covers: 'Events are emitted for every change, signed, routed by environment, subscription and state, retried on failure with the ' +
      'same body, never after an acknowledgement, and delivered at least once.',
  },
  {
    id: 'webhooks-schedule', title: 'The whole retry schedule', dependsOn: ['core', 'webhooks'],
    covers: 'A failing event is retried on the spec\'s schedule (never early) and attempted at most 8 times: the run waits the whole ' +
      'schedule out (divided by time_scale).',
  },
  {
    id: 'control', title: 'Operator actions (control interface)', dependsOn: ['core'],
    covers: 'What only the service\'s operators can cause, reached through the profile\'s control interface: a reversal (REVERSED and ' +
      'payment.reversed) and Send test event (endpoint.test).',
  },
  {
    id: 'rate-limiting', title: 'Rate limiting', dependsOn: ['core'],
    covers: 'A key over its rate limit gets 429 rate_limited with Retry-After, recovers after it, and the limit is per key.',
  },
  {
    id: 'receiver', title: 'Merchant webhook receiver', side: 'receiver', dependsOn: [],
    covers: 'A merchant\'s webhook endpoint (`hps-conformance receiver`): acknowledges, verifies signatures on the raw body and ' +
      'timestamp, ignores unknown types, answers in time, and never processes what it rejected.',
  },
  {
    id: 'client', title: 'Merchant API client', side: 'client', dependsOn: [],
    covers: 'A merchant\'s API client (`hps-conformance client`): retries what the guidance says with the same Idempotency-Key, honours ' +
      'Retry-After, retries a cancel only after a 429, never retries a 4xx.',
  },
];

/** The MUST rules naming `id` as their class, in catalogue order. */
function rulesOfClass(id: ClassId): RuleId[] {
  return RULES.flatMap((r) => ('class' in r && r.class === id ? [r.id] : []));
}

export const CLASSES: readonly ConformanceClass[] = DEFINITIONS.map((d) => ({ ...d, rules: rulesOfClass(d.id) }));

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

import type { ClauseId } from './clauses.ts';
import type { ErrorCode } from './error-codes.ts';

/** Result levels (docs/design.md): MUST decides the verdict, SHOULD warns, OBSERVE records. */
export type Level = 'MUST' | 'SHOULD' | 'OBSERVE';

/** Spec areas; each service-side area has a folder under suites/ of the same name (`receiver` and `client` are the merchant side: merchant/receiver/, merchant/client/). */
export const AREAS = [
  'auth',
  'routing',
  'responses',
  'create',
  'orders',
  'idempotency',
  'isolation',
  'transitions',
  'listing',
  'limits',
  'live',
  'webhooks',
  'versioning',
  'model',
  'receiver',
  'client',
] as const;
export type Area = (typeof AREAS)[number];

/**
 * Dotted path of a profile field a rule needs (docs/profile.md). When the profile
 * lacks it the rule is SKIP and the reason names the field.
 */
export type ProfileNeed =
  | 'keys.test_read_only'
  | 'keys.test_write_only'
  | 'keys.test_revoked'
  | 'keys.test_rate_limited'
  | 'keys.live'
  | 'keys.other_test'
  | 'keys.other_live'
  | 'keys.live_not_ready'
  | 'keys.live_no_credit'
  | 'live_receiving'
  | 'fixtures.customer_id'
  | 'fixtures.foreign_customer_id'
  | 'fixtures.order'
  | 'fixtures.cancelled_order_id'
  | 'fixtures.foreign_order_id'
  | 'fixtures.live_customer_id'
  | 'fixtures.live_order_id'
  | 'webhooks'
  | 'control'
  | 'probes.live_writes'
  | 'receiver.inspect_url';

/**
 * Which party a rule certifies. Absent: the service (`hps-conformance run`). `receiver`: a merchant's
 * webhook endpoint (`hps-conformance receiver`); `client`: a merchant's API client
 * (`hps-conformance client`). `run` never selects or counts merchant-side rules.
 */
export type Side = 'receiver' | 'client';
export const SIDE_COMMAND: Record<Side, string> = { receiver: 'hps-conformance receiver', client: 'hps-conformance client' };

/**
 * Conformance classes (docs/classes.md, catalogue/classes.ts): every MUST rule names the one it
 * belongs to in its entry (`class`), and each class's rule list is derived from the entries.
 */
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

/** A MUST rule names its conformance class; a SHOULD or OBSERVE rule belongs to none. */
type LevelAndClass =
  | { readonly level: 'MUST'; readonly class: ClassId }
  | { readonly level: 'SHOULD' | 'OBSERVE'; readonly class?: never };

export type RuleDef = RuleFields & LevelAndClass;

interface RuleFields {
  /** Stable, meaningful id: AREA-MEANING. Never renumbered, never reused. */
  readonly id: string;
  readonly area: Area;
  /** The spec heading the rule comes from. */
  readonly section: string;
  /** What passing means, in our words (one sentence). */
  readonly requirement: string;
  /**
   * The clauses of the spec it checks (catalogue/clauses.ts): the other direction of the trace. A
   * normative clause is checked when a rule that can run (not `untestable`) cites it; `run --dry-run
   * --clauses` prints the matrix clause → rules → planted faults.
   */
  readonly clauses: readonly ClauseId[];
  /**
   * Obligations of its clauses (catalogue/obligations.ts) this rule never tries, being another side's duty (a merchant
   * client's retry, a receiver's verification): its passing never passes them (results/verdict/obligations.ts).
   */
  readonly notTrying?: readonly string[];
  /** Error codes of the spec's table this rule exercises. */
  readonly codes?: readonly ErrorCode[];
  /** Profile fields without which the rule is SKIP. */
  readonly needs?: readonly ProfileNeed[];
  /** Why no test can exercise it through the API (then no suite test is expected). */
  readonly untestable?: string;
  /** Merchant-side rule: the command that exercises it (absent: the service side, `run`). */
  readonly side?: Side;
  /** Ids this rule was known by before a rename (reports and docs of older runs use them). */
  readonly formerly?: readonly string[];
  /** Our ruling where the spec is silent or contradicts itself (docs/rulings.md). */
  readonly ruling?: string;
  /**
   * A createPayment body the generators break this rule with (service/generators/invalid-case.ts derives
   * `CREATE_RULE_IDS` from it): one field of an otherwise valid body (`field`: the generator file
   * that breaks it exports its `FIELD_RULES` entry), or the body as a whole (`body`).
   */
  readonly invalidInput?: 'field' | 'body';
  /**
   * Judged on the traffic of every test, not by a test of its own: `exchange`, each answer alone
   * (its check is in core/ambient-checks.ts, a registry typed from these declarations, so a rule
   * declared so without a check does not compile); `views`, every answer showing a Payment against
   * the others of the run (service/harness/worker/payment-views.ts).
   */
  readonly ambient?: 'exchange' | 'views';
}

/**
 * The shape of report.json (docs/design.md), extended additively: `tests`,
 * `error`/`flaky` statuses, `must` counts and `observed` per rule. HTML, JUnit
 * and Markdown are rendered from this file alone.
 */
import type { MutationSummary } from './mutation.ts';

/** One request and its answer (or transport trouble), as recorded by the suite's client. */
export interface Exchange {
  seq: number;
  at: string;
  durationMs: number;
  request: { method: string; path: string; headers: Record<string, string>; body?: string };
  response?: { status: number; headers: Record<string, string>; body: string };
  /** Transport trouble (refused, reset, time-out): never a conformance verdict by itself. */
  transportError?: string;
  /** Answered, but waited out or sent again by the suite as a model client (a 429, a 503): never judged. */
  retried?: string;
}

export type RuleStatus = 'pass' | 'fail' | 'warn' | 'info' | 'skip' | 'error' | 'flaky';

export type Evidence =
  | {
      kind: 'mismatch';
      message: string;
      expected?: unknown;
      actual?: unknown;
      /** Set on an ambient finding: the rule and test whose traffic produced it. */
      source?: { rule: string; test: string };
    }
  | {
      kind: 'exchange';
      exchange: Exchange;
      /** The exchange the failing check judged (the others are the test's last requests, for context). */
      failing?: boolean;
    }
  | {
      kind: 'property';
      seed: number;
      runs: number;
      path?: string;
      counterexample: string;
      replayOutcome: string;
      /** How many times fast-check shrank the counterexample. */
      shrinks?: number;
      /** Why the counterexample is not shrunk (or only partly), e.g. each run waits for webhook deliveries. */
      shrink_note?: string;
    }
  | { kind: 'replay'; command: string }
  | { kind: 'note'; message: string }
  | TimelineEvidence;

/** One webhook event's delivery attempts at one endpoint, in arrival order (gap 0 for the first). */
export interface TimelineEvidence {
  kind: 'timeline';
  event_id: string;
  /** e.g. `payment.succeeded@/hooks/a`. */
  label?: string;
  attempts: Array<{
    /** Milliseconds since the first attempt arrived. */
    at_ms: number;
    /** The receiver's answer: an HTTP status, or `timeout` / `reset`. */
    status: number | string;
    /** Measured gap since the previous attempt (0 for the first). */
    gap_ms: number;
    /** The schedule's gap before this attempt, already divided by the run's time scale. */
    expected_gap_ms?: number;
  }>;
}

export interface RuleReport {
  id: string;
  area: string;
  level: 'MUST' | 'SHOULD' | 'OBSERVE';
  status: RuleStatus;
  title: string;
  spec: string;
  reason?: string;
  ruling?: string;
  untestable?: boolean;
  evidence: Evidence[];
  observed?: Record<string, unknown>;
  /** Checks the rule's tests made (verifiers, and ambient checks for RESP-* rules); 0 never passes. */
  checks?: number;
  /** Each test of the rule; `cases`: the generated cases its properties ran (absent: it ran no property). */
  tests: Array<{ title: string; state: 'pass' | 'fail' | 'skip'; duration_ms: number; requests: number; cases?: number; error?: string }>;
  /**
   * The rows of the rule's fixed case tables that ran (service/generators/case-tables.ts), numbered within the
   * rule, each titled with what passing means and its own outcome; `run --rule ID --case N` replays one.
   */
  cases?: CaseReport[];
  /** The setup refusal (`Report.setup_refusals[].cause`) that kept this rule from being checked: its status is ERROR, not FAIL. */
  blocked_by?: string;
  /**
   * Obligations of the rule's clauses (catalogue/obligations.ts) its tests said they did not try in this run, and why
   * (`t.notTried`); `needs`: the profile fields whose absence left it untried. Absent: it tried every one of them.
   */
  not_tried?: NotTried[];
}

/** An obligation a rule did not try in this run: its id, why, and the profile fields that would let it. */
export interface NotTried {
  obligation: string;
  why: string;
  needs?: string[];
}

/**
 * Why an obligation is not tried in this run: `untestable`, no request or delivery can show it (the catalogue's reason);
 * `profile`, the profile lacks what would try it; `not_reached`, its rules were filtered out or the run stopped before them;
 * `not_proven`, its rules ended ERROR or SKIP for another reason; `rule`, a rule that ran said it did not try it (with
 * `needs` when the profile's lack was why);
 * `no_rule`, no rule of this side judges it (none cites its clause, or only OBSERVE rules do).
 */
export type NotTriedKind = 'untestable' | 'profile' | 'not_reached' | 'not_proven' | 'rule' | 'no_rule';

/** What this run showed about one obligation of the service (or receiver, client) under test (results/verdict/obligations.ts). */
export interface ObligationResult {
  id: string;
  clause: string;
  status: 'passed' | 'failed' | 'not_tried';
  /** passed: the rules that passed and tried it; failed: the rules that failed; not_tried: the rules citing its clause. */
  rules: string[];
  /** failed: false when the failing rule's clauses hold other obligations its failure is not told apart from. */
  attributed?: boolean;
  /** not_tried: why, in a few words. */
  kind?: NotTriedKind;
  /** failed and not_tried: why, in words. */
  why?: string;
  /** not_tried for the profile's sake (kind `profile`, or `rule` when the rule said so): the fields that would let the run try it. */
  needs?: string[];
}

/** The run's claim per obligation: every obligation of the clauses this side's rules cite, and the totals. */
export interface ObligationsReport {
  totals: { obligations: number; passed: number; failed: number; not_tried: number; untestable: number };
  entries: ObligationResult[];
}

/**
 * A request a rule's setup needed and the target refused (`SetupRefused`, service/harness/worker/expect.ts), named
 * once for every rule it blocked. It counts as a failure: a run with one is not conformant.
 */
export interface SetupRefusalReport {
  /** `<request> answered <status> <code>`: what `blocked_by` names. */
  cause: string;
  /** The areas of the rules it blocked. */
  areas: string[];
  request: string;
  status: number;
  code: string | null;
  /** Why the spec allows this refusal (a Live-only 409): the rules it blocked are not proven, and the run is incomplete, not failed. */
  allowed?: string;
  rules: string[];
}

/**
 * One fixed case of a rule: `fail`, its check did not hold; `error`, transport trouble (no verdict on
 * the row); `skip`, the row could not be tried with this profile or target (reason says why).
 */
export interface CaseReport {
  n: number;
  title: string;
  status: 'pass' | 'fail' | 'error' | 'skip';
  reason?: string;
}

/**
 * `not_conformant`: a MUST rule failed (FAIL or FLAKY), or a policy the user asked for failed;
 * `incomplete`: nothing failed, but a MUST rule testable with this profile (merchant side: this
 * program) did not run, ended ERROR or was not proven (results/verdict/incomplete.ts, docs/rulings.md).
 */
export type Verdict = 'conformant' | 'not_conformant' | 'incomplete';

export interface Report {
  tool: { name: string; version: string };
  /** Which side was certified (absent = service): `run`, `receiver` (a webhook endpoint) or `client` (an API client). */
  side?: 'service' | 'receiver' | 'client';
  target: { base_url: string; embedded_reference: boolean };
  run_id: string;
  seed: number;
  runs: number;
  started_at: string;
  finished_at: string;
  duration_ms: number;
  /** `levels`: set by `run --level` (absent = every level). */
  selection: { areas: string[]; rules: string[]; levels?: Array<'MUST' | 'SHOULD' | 'OBSERVE'> };
  verdict: Verdict;
  summary: { pass: number; fail: number; warn: number; info: number; skip: number; error: number; flaky: number };
  /** MUST rules: `total` catalogued, `untestable` of them not exercisable through the API, `ran` of the rest. */
  must: { total: number; testable: number; untestable: number; ran: number; passed: number; failed: number; skipped: number };
  requests: number;
  rules: RuleReport[];
  mutation?: MutationSummary;
  /** Requests the rules' setup needed and the target refused, each once, with the rules it blocked (absent: none). */
  setup_refusals?: SetupRefusalReport[];
  /** Why the run stopped early (`run --max-failures`), if it did: the rules not reached are SKIP. */
  stopped?: string;
  /**
   * The run did not finish (interrupted by SIGINT/SIGTERM, or rendered from results.ndjson after the
   * process was killed): the results so far, the rules not reached are SKIP; never a certification.
   */
  partial?: boolean;
  /** Why it is partial (the signal and when, or `report.json was missing: rendered from results.ndjson`). */
  partial_reason?: string;
  /** The run was interrupted by this signal, this long into it: `report DIR` exits as the run did (130 / 143). */
  interrupted?: Interruption;
  /** `client --run`: the merchant's command, how it ended and the last 64 KiB of its output (redacted, control characters removed). */
  command?: { line: string; exit_code: number | null; timed_out: boolean; duration_ms: number; output_bytes: number; output_tail: string };
  /** `run --strict` / `--min-must-coverage` (and, for `receiver` / `client`, the evidence gate): the policy applied and what made the verdict fail under it. */
  policy?: { strict: boolean; min_must_coverage?: number; failed_because: string[] };
  /** Why the verdict is `incomplete` (each MUST rule not proven, and why; or why nothing ran): set only then. */
  incomplete_because?: string[];
  /** What the run's own traffic cost as a model client (429s waited out, retries, outages), per area. */
  traffic?: Traffic;
  /** `webhooks judge`: the sink log the rules were judged from. */
  source_log?: SourceLog;
  /** Per obligation (catalogue/obligations.ts): passed, failed or not tried in this run, and why (results/verdict/obligations.ts). */
  obligations?: ObligationsReport;
  /** Per conformance class (docs/classes.md): conformant, not conformant or not tested, and why (results/verdict/classes.ts). */
  classes?: ClassVerdict[];
  /** `--require` (and the profile's `require`): the classes the CI gate required, and those it found unmet (results/verdict/require.ts). */
  gate?: { required: string[]; unmet: Array<{ id: string; why: string }> };
}

/** A signal that stopped a run (core/interrupt.ts), and how long into the run it came. */
export interface Interruption {
  signal: 'SIGINT' | 'SIGTERM';
  after_s: number;
}

/** The durable log of a `hps-conformance sink` run that `webhooks judge` read (service/judge/). */
export interface SourceLog {
  /** The file's name (not its path). */
  file: string;
  bytes: number;
  sha256: string;
  lines: number;
  /** Lines not read (torn, over the cap, not a sink line). */
  skipped_lines: number;
  /** Event deliveries judged. */
  deliveries: number;
  /** (endpoint, event) pairs. */
  events: number;
  /** The target's retry clock speed the gaps were divided by. */
  time_scale: number;
  watched_from: string;
  watched_until: string;
  /** The log ends with the sink's stop line (else it crashed or still runs: the last line is the end). */
  stopped_in_order: boolean;
  restarts: number;
}

/** One conformance class's verdict in a report, derived from its MUST rules' statuses alone. */
export interface ClassVerdict {
  id: string;
  status: 'conformant' | 'not_conformant' | 'not_tested';
  /** Its testable MUST rules: how many there are, ran (pass, fail or flaky), passed, failed (fail or flaky). */
  testable: number;
  ran: number;
  passed: number;
  failed: number;
  /** Profile fields whose absence left rules of it SKIP, or obligations of it untried. */
  missing: string[];
  /** Why it is not conformant or not tested, in a few words (absent when conformant). */
  reason?: string;
  /** Obligations one of its testable MUST rules said it did not try in this run: the class is not tested. */
  not_tried?: Array<{ obligation: string; why: string }>;
}

/** What the run's own traffic cost as a model client (results/verdict/traffic.ts): reported, never judged. */
export interface TrafficCounts {
  /** 429 answers waited out (Retry-After) and sent again. */
  throttled: number;
  /** What those 429s asked to wait, summed, ms. */
  throttle_wait_ms: number;
  /** Time requests waited for their turn (Retry-After, the adapted pace, --max-rps), summed, ms. */
  pace_wait_ms: number;
  /** Time requests waited for a target that stopped answering (circuit half-open), summed, ms. */
  outage_wait_ms: number;
  /** Idempotent requests sent again after no answer. */
  transport_retries: number;
  /** Idempotent requests sent again after 502, 503 or 504. */
  status_retries: number;
  /** Rule tests run again from the start after a transport failure. */
  reruns: number;
}

export interface Traffic {
  /** `--max-rps` / probes.max_rps, per API key; null = paced by 429s only. */
  max_rps: number | null;
  /** Rule tests in flight at once per suite worker. */
  concurrency: number;
  total: TrafficCounts;
  areas: Record<string, TrafficCounts>;
}

/** certificate.json, next to report.json (results/verdict/certificate.ts, docs/certificates.md). */
export interface Certificate {
  /** The certificate format; a verifier refuses one it does not know. */
  format: string;
  tool: { name: string; version: string };
  description_document_version: string;
  /** SHA-256 of the spec text the catalogue was written from (catalogue/spec-text.ts). */
  spec_sha256: string;
  /** SHA-256 of the canonical JSON of the rule catalogue and its classes. */
  catalogue_sha256: string;
  report_sha256: string;
  /** The profile without secrets (null for the merchant side, which has no profile). */
  profile_sha256: string | null;
  side: 'service' | 'receiver' | 'client';
  seed: number;
  runs: number;
  base_url: string;
  selection: Report['selection'];
  verdict: Report['verdict'];
  counts: Report['summary'];
  must: Report['must'];
  must_coverage: { ran: number; testable: number; pct: number };
  classes: ClassVerdict[];
  /** The classes this certificate certifies: conformant, with the classes they depend on, in an unfiltered run at the default runs. */
  certified_classes: string[];
  certification: boolean;
  not_certification_reason?: string;
  /** When the certificate was written (ISO 8601); signed with the rest, not derived from the report. */
  issued_at: string;
  /** The run's start and end, as its report.json says (started_at, finished_at). */
  run_started_at: string;
  run_ended_at: string;
  /** Ed25519 over the canonical JSON of the certificate with `signature.value` left out; null: unsigned. */
  signature: CertificateSignature | null;
}

/**
 * The fields of a certificate the renderers read (catalogue/schemas/report.ts certificateReadSchema): a
 * certificate.json from anyone, of this format or an older one, is shown, never trusted.
 */
export type CertificateRead = Pick<Certificate, 'tool' | 'description_document_version' | 'report_sha256' | 'seed' | 'base_url' | 'verdict' | 'counts' | 'must_coverage' | 'certification' | 'not_certification_reason'> & {
  profile_sha256: string | null;
  certified_classes?: string[];
  signature?: CertificateSignature | null;
};

export interface CertificateSignature {
  algorithm: 'Ed25519';
  /** The signer's public key, SPKI DER in base64. */
  public_key: string;
  /** SHA-256 of that DER: the key's fingerprint. */
  public_key_sha256: string;
  /** The signature, base64. */
  value: string;
}

/**
 * How a suite states a rule: `ruleTest('AUTH-MISSING-KEY', async (t) => ...)`.
 * The test is titled with the rule id and requirement; the RuleContext gives
 * the profile, a recording client, seeded properties with replay lines,
 * observations and skips, all left in task.meta for the runner.
 */
import type fc from 'fast-check';
import { inject, test, type TestContext } from 'vitest';
import { getRule, type Rule, type RuleId } from '../../../catalogue/index.ts';
import type { CaseTable } from '../../../catalogue/case-table.ts';
import { obligationsOfClauses } from '../../../catalogue/obligations.ts';
import { DEFAULT_WAIT_BUDGET_MS, processWaitedMs } from '../../../core/back-pressure.ts';
import { DEFAULT_OUTAGE_BUDGET_MS } from '../../../core/circuit.ts';
import type { ApiResponse, Client } from '../../../core/client.ts';
import { clientForProfile } from '../../../core/client-for-profile.ts';
import { allowedRefusal, type HpsMeta, type SetupRefusal } from '../../../core/evidence.ts';
import { profileHas, type Profile } from '../../../core/profile.ts';
import type { SuiteContextData } from '../../../core/run-context.ts';
import { holdTargetAlone, MAX_TURN_WAIT_MS } from '../../../core/target-gate.ts';
import type { TimelineEvidence } from '../../../catalogue/report/model.ts';
import { replayCommand } from '../../../results/verdict/replay.ts';
import { casesRunner, type CaseOptions, type CaseResult } from './cases.ts';
import { withDeadline } from './deadline.ts';
import { ExchangeTracker } from './exchange-tracker.ts';
import { EXCLUSIVE_AREAS } from '../common/exclusive.ts';
import { Mismatch, SetupRefused, withCheckCounter, type CheckCounter } from './expect.ts';
import { fileCleanup, releaseTargetAfterFile } from './file-cleanup.ts';
import { runProperty, type PropertyOptions } from './property.ts';
import { RuleTimeout, SkipRule, transportCause } from './rule-errors.ts';
import { onNewRun } from './run-scoped.ts';
import { suiteContext } from './suite-context.ts';
import { newWaitClock, waitedMs, waiting, withWaitClock } from './wait-clock.ts';

/** A counter making each external_id of this worker's run unique. */
let uniq = 0;
onNewRun(() => {
  uniq = 0;
});

export interface RuleContext {
  readonly rule: Rule;
  readonly profile: Profile;
  readonly keys: Profile['keys'];
  readonly runId: string;
  readonly seed: number;
  readonly runs: number;
  readonly client: Client;
  readonly sinkUrl: string | null;
  /** Whether this run selected the rule `id` too (false when the runner did not say). */
  alsoRuns(id: string): boolean;
  /** Skips the rule unless the profile has every field named. */
  need(...fields: string[]): void;
  skip(reason: string): never;
  /** Counts checks the test made itself (the verifiers of service/harness/worker/expect.ts count their own). */
  checked(n?: number): void;
  /** Runs a seeded fast-check property; a failure carries counterexample, seed and replay line. */
  property<T>(arb: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, opts?: PropertyOptions): Promise<void>;
  /**
   * Runs a fixed table (service/generators/case-tables.ts), one titled case per row, each with its own
   * outcome (service/harness/worker/cases.ts).
   */
  cases<Row>(table: CaseTable<Row>, check: (row: Row, index: number) => Promise<CaseResult>, opts?: CaseOptions): Promise<void>;
  observe(key: string, value: unknown): void;
  note(text: string): void;
  /**
   * Says this test did not try an obligation of the rule's clauses (catalogue/obligations.ts), and why; `needs`: the profile
   * fields whose absence left it untried. A rule that passes tried every obligation of its clauses unless it says so here:
   * the report then gives the obligation `not tried`, never passed, and its class is not tested (docs/rulings.md).
   */
  notTried(obligation: string, why: string, needs?: readonly string[]): void;
  /** A webhook event's attempts (catalogue/report/timeline.ts timelineEvidence), shown as a timeline if the test fails. */
  timeline(e: TimelineEvidence): void;
  /** A unique external_id carrying the run marker. */
  externalId(label?: string): string;
  /** Metadata carrying the run marker, plus extra entries. */
  metadata(extra?: Record<string, string>): Record<string, string>;
  /** Creates a marked Test (or given key's) Payment and returns its 201 body; fails the test if it cannot. */
  createPayment(overrides?: Record<string, unknown>, key?: string): Promise<any>;
  replayLine(): string;
}

/** A setup create the target refused: the request, the answer, and why the spec allows it, if it does. */
function setupRefusalOf(request: string, key: string, res: ApiResponse): SetupRefusal {
  const code = typeof res.json?.error?.code === 'string' ? res.json.error.code.slice(0, 64) : null;
  const allowed = allowedRefusal(key.startsWith('pt_live_'), res.status, code);
  return { request, status: res.status, code, ...(allowed ? { allowed } : {}) };
}

interface RuleTestOptions {
  /** Distinguishes several tests of one rule; the title still starts with the id. */
  title?: string;
  /** The test's own deadline, ms (default 60 000), extended by the time its requests waited out back-pressure or an outage. */
  timeout?: number;
  /** The test runs alone, in file order, never beside the file's other tests (rules whose meaning depends on order or timing). */
  inOrder?: boolean;
}

export function ruleTest(id: RuleId, fn: (t: RuleContext) => Promise<void>, opts: RuleTestOptions = {}): void {
  const rule = getRule(id);
  const created = fileCleanup();
  const title = `${id}: ${opts.title ?? rule.requirement}`;
  const timeoutMs = opts.timeout ?? 60_000;
  // vitest's own time-out is a safety net a little past ours: running out of time is ERROR, not FAIL.
  // vitest's own time-out is a safety net past ours (two attempts, each extended by its waits).
  const pace = inject('hps')?.pace;
  const exclusive = EXCLUSIVE_AREAS.has(rule.area);
  if (exclusive) releaseTargetAfterFile();
  // An exclusive area's test may first wait for its turn (core/target-gate.ts), outside its own deadline.
  const safetyNet = 2 * (timeoutMs + 15_000) + (pace?.waitBudgetMs ?? DEFAULT_WAIT_BUDGET_MS) + (pace?.outageBudgetMs ?? DEFAULT_OUTAGE_BUDGET_MS) + (exclusive ? MAX_TURN_WAIT_MS : 0);
  (opts.inOrder ? test.sequential : test)(title, { timeout: safetyNet }, async (vctx: TestContext) => {
    const ctx = suiteContext();
    const attempt = (rerun?: string) => attemptRule({ ctx, rule, title, created, timeoutMs, fn, vctx, rerun });
    try {
      await attempt();
    } catch (e) {
      // A blip (a reset, a restart) that met a request the guidance never sends twice (a cancel,
      // a create without Idempotency-Key) is not the target's answer: once the target answers
      // again the rule's test runs once more from the start, and the report says so.
      const transport = transportCause(e);
      if (
        !transport ||
        transport.notSent ||
        transport.code === 'HPS_ERR_TARGET_THROTTLED' ||
        transport.code === 'HPS_ERR_KEY_REJECTED' ||
        !(await targetAnswers(ctx))
      ) throw e;
      await attempt(`${transport.code}: ${transport.message}`.slice(0, 300));
    }
  });
}

interface RuleAttempt {
  ctx: SuiteContextData;
  rule: Rule;
  title: string;
  created: Map<string, string>;
  timeoutMs: number;
  fn: (t: RuleContext) => Promise<void>;
  vctx: TestContext;
  /** Why this is a second attempt (the first met a transport failure). */
  rerun?: string;
}

/** One run of a rule's test, leaving its evidence, counts and client costs in task.meta. */
async function attemptRule(a: RuleAttempt): Promise<void> {
  const id = a.rule.id as RuleId;
  const meta: HpsMeta = { rule: id, ...(a.rerun ? { rerun: a.rerun } : {}), startedAt: Date.now() };
  a.vctx.task.meta.hps = meta;
  const counter: CheckCounter = { count: 0 };
  const clock = newWaitClock();
  // The target to this area alone (service/harness/common/exclusive.ts): waited for outside the test's deadline, as waiting.
  if (EXCLUSIVE_AREAS.has(a.rule.area)) await withWaitClock(clock, () => waiting(holdTargetAlone()));
  const tracker = new ExchangeTracker(id, a.title, meta, a.created);
  const client = clientForProfile(a.ctx.profile, { onExchange: (ex, res, req) => tracker.onExchange(ex, res, req) });
  const t = ruleContext(a.ctx, a.rule, meta, client, counter, () => a.vctx.skip());
  try {
    if (a.rule.needs?.length) t.need(...a.rule.needs);
    // Its own requests' waits, or the time its worker's requests waited while it ran if longer: a rule
    // that awaits a setup shared with the file's other rules (made under a rate limit) waits too.
    const since = processWaitedMs();
    const { stats } = client;
    const waited = () => Math.max(stats.paceWaitMs, processWaitedMs() - since) + stats.outageWaitMs + stats.gateWaitMs + stats.largeWaitMs;
    await withDeadline(withWaitClock(clock, () => withCheckCounter(counter, () => a.fn(t))), a.timeoutMs, id, waited);
  } catch (e) {
    recordFailure(meta, e, client);
    throw e;
  } finally {
    meta.waitedMs = Math.round(waitedMs(clock));
    meta.requests = tracker.requests;
    meta.checks = counter.count;
    meta.client = { ...client.stats };
    tracker.finish();
  }
}

/** Whether the target answers a read now (the circuit may hold it until it does, within the outage budget). */
async function targetAnswers(ctx: SuiteContextData): Promise<boolean> {
  try {
    await clientForProfile(ctx.profile).listPayments(ctx.profile.keys.test, { limit: 1 });
    return true;
  } catch {
    return false;
  }
}

/** The profile's name of a key (`keys.live`), never the key itself. */
function keyNameOf(profile: Profile, key: string): string {
  const name = Object.entries(profile.keys).find(([, v]) => v === key)?.[0];
  return name ? `keys.${name}` : 'a key of the profile';
}

function recordFailure(meta: HpsMeta, e: unknown, client: Client): void {
  if (e instanceof SetupRefused && !meta.setupRefusal) meta.setupRefusal = e.refusal;
  if (e instanceof Mismatch && !meta.mismatch) {
    meta.mismatch = { expected: e.expected, actual: e.actual };
    if (e.exchange) meta.failedExchange = e.exchange;
  }
  const transport = transportCause(e);
  if (transport) meta.transport = `${transport.code}: ${transport.message}`;
  if (e instanceof RuleTimeout) meta.incomplete = e.message;
  if (!(e instanceof SkipRule) && !meta.skipReason) meta.transcript = client.transcript.slice(-6);
}

/** RuleContext.notTried: an obligation of the rule's clauses (anything else is the suite's own mistake), once per test. */
function recordNotTried(rule: Rule, meta: HpsMeta, obligation: string, why: string, needs: readonly string[]): void {
  if (!obligationsOfClauses(rule.clauses).includes(obligation)) {
    throw new Error(`${rule.id}: t.notTried names ${obligation}, not an obligation of the rule's clauses (${rule.clauses.join(', ')})`);
  }
  const list = (meta.notTried ??= []);
  if (!list.some((n) => n.obligation === obligation)) list.push({ obligation, why, ...(needs.length ? { needs: [...needs] } : {}) });
}

function ruleContext(
  ctx: SuiteContextData,
  rule: Rule,
  meta: HpsMeta,
  client: Client,
  counter: CheckCounter,
  vitestSkip: () => void,
): RuleContext {
  const id = rule.id as RuleId;
  let propertyIndex = 0;
  const t: RuleContext = {
    rule,
    profile: ctx.profile,
    keys: ctx.profile.keys,
    runId: ctx.runId,
    seed: ctx.seed,
    runs: ctx.runs,
    client,
    sinkUrl: ctx.sinkUrl,
    alsoRuns: (other) => ctx.selectedRules?.includes(other) ?? false,
    need(...fields) {
      const missing = fields.filter((f) => !profileHas(ctx.profile, f));
      if (missing.length) t.skip(`profile lacks ${missing.join(', ')}`);
    },
    skip(reason) {
      meta.skipReason = reason;
      vitestSkip();
      throw new SkipRule(reason); // unreachable: vitest's skip throws
    },
    checked(n = 1) {
      counter.count += n;
    },
    property(arb, predicate, popts = {}) {
      return runProperty({ ctx, id, index: propertyIndex++, meta, replay: () => t.replayLine() }, arb, predicate, popts);
    },
    cases: casesRunner({ meta, env: { testKey: ctx.profile.keys.test }, filter: ctx.caseFilter, isTransport: (e) => !!transportCause(e) }),
    observe(key, value) {
      (meta.observed ??= {})[key] = value;
    },
    note(text) {
      (meta.notes ??= []).push(text);
    },
    notTried: (obligation, why, needs = []) => recordNotTried(rule, meta, obligation, why, needs),
    timeline(e) {
      const list = (meta.timelines ??= []);
      if (list.length < 12) list.push(e);
    },
    externalId(label = 'x') {
      return `${ctx.runId}-${label}-${process.pid.toString(36)}${(++uniq).toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
    },
    metadata(extra = {}) {
      return { conformance_run: ctx.runId, ...extra };
    },
    async createPayment(overrides = {}, key = ctx.profile.keys.test) {
      const body = { amount: '100.00', external_id: t.externalId('fx'), metadata: t.metadata(), ...overrides };
      const res: ApiResponse = await client.createPayment(key, body);
      if (res.status !== 201) {
        throw new SetupRefused(setupRefusalOf(`createPayment under ${keyNameOf(ctx.profile, key)}`, key, res), { status: 201 }, { status: res.status, body: res.json ?? res.text.slice(0, 200) }, res.exchange);
      }
      return res.json;
    },
    replayLine() {
      return replayCommand(ctx, [id]);
    },
  };
  return t;
}


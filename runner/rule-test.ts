/**
 * How a suite states a rule: `ruleTest('AUTH-MISSING-KEY', async (t) => ...)`.
 * The test is titled with the rule id and requirement; the RuleContext gives
 * the profile, a recording client, seeded properties with replay lines,
 * observations and skips, all left in task.meta for the runner.
 */
import fc from 'fast-check';
import { afterAll, inject, test, type TestContext } from 'vitest';
import { getCurrentSuite } from 'vitest/suite';
import { getRule, type Rule, type RuleId } from '../catalogue/index.ts';
import { checkExchange } from '../core/ambient.ts';
import { checkPaymentViews, PaymentViews } from './payment-views.ts';
import { configureBackPressure, DEFAULT_WAIT_BUDGET_MS } from '../core/back-pressure.ts';
import { DEFAULT_OUTAGE_BUDGET_MS, shareOutagesThrough } from '../core/circuit.ts';
import { Client, resetClientState, TransportError, type ApiResponse, type Exchange, type RequestOptions } from '../core/client.ts';
import { deriveSeed, type SuiteContextData } from '../core/run-context.ts';
import { allowedRefusal, type Finding, type HpsMeta, type PropertyFailure, type SetupRefusal } from '../core/evidence.ts';
import { profileHas, profileSecrets, type Profile } from '../core/profile.ts';
import { clientForProfile } from '../core/client-for-profile.ts';
import { livemodeOfKey } from '../core/api-key.ts';
import { mapLimit } from '../core/concurrency.ts';
import { redactText } from '../core/redact.ts';
import { replayCommand } from '../verdict/replay.ts';
import type { TimelineEvidence } from '../report/model.ts';
import { enterRun, onNewRun } from './run-scoped.ts';
import { Mismatch, SetupRefused, withCheckCounter, type CheckCounter } from './expect.ts';
import { casesRunner, type CaseOptions } from './cases.ts';
import { newWaitClock, waitedMs, waiting, withWaitClock } from './wait-clock.ts';
import { holdTargetAlone, MAX_TURN_WAIT_MS, releaseTarget, useTargetGate } from '../core/target-gate.ts';
import { EXCLUSIVE_AREAS } from './exclusive.ts';
import type { CaseTable } from '../catalogue/case-table.ts';
import type { ErrorCode } from '../core/error-codes.ts';

export function suiteContext(): SuiteContextData {
  const ctx = inject('hps');
  if (!ctx) throw new Error('hps-conformance suites run through `hps-conformance run`, which provides the target profile');
  if (enterRun(ctx.runId)) {
    configureBackPressure({ maxRps: ctx.pace?.maxRpsPerProcess, waitBudgetMs: ctx.pace?.waitBudgetMs });
    shareOutagesThrough(ctx.pace?.outageFile);
    useTargetGate(inject('hpsGate'));
  }
  return ctx;
}

/**
 * Payments each test file created with Test keys, cancelled at the end of that
 * file (or describe block) if still PENDING (docs/profile.md). Files may share this
 * module (the runner does not isolate modules per file), so the bookkeeping is per file.
 */
const createdByFile = new WeakMap<object, Map<string, string>>();
const seenRequestIds = new Set<string>();
/** Every Payment view of the run in this worker (runner/payment-views.ts). */
const paymentViews = new PaymentViews();
let uniq = 0;
onNewRun(() => {
  seenRequestIds.clear();
  paymentViews.clear();
  uniq = 0;
  resetClientState();
});

function fileCleanup(): Map<string, string> {
  // vitest creates a fresh collector per file (and per describe block): the bookkeeping follows it.
  const file: object = getCurrentSuite();
  let created = createdByFile.get(file);
  if (created) return created;
  const mine = new Map<string, string>();
  created = mine;
  createdByFile.set(file, mine);
  afterAll(async () => {
    const ctx = suiteContext();
    const client = clientForProfile(ctx.profile);
    const pending = [...mine.entries()];
    mine.clear();
    await mapLimit(pending, 16, async ([id, key]) => {
      try {
        // Cancel needs only payments:write (the creating key has it); a non-PENDING one answers 409, harmlessly.
        await client.cancelPayment(key, id);
      } catch {
        /* best effort */
      }
    });
  }, 60_000);
  return mine;
}

const releasing = new WeakSet<object>();

/** Opens the target gate again when the current file (an exclusive area's) ends. */
function releaseTargetAfterFile(): void {
  const file: object = getCurrentSuite();
  if (releasing.has(file)) return;
  releasing.add(file);
  afterAll(() => releaseTarget());
}

export interface PropertyOptions {
  /** Overrides the run's --runs for an expensive property. */
  runs?: number;
  /**
   * Why this property's counterexample is not (or only partly) shrunk, e.g. its arbitrary is
   * fc.noShrink because each run is a slow webhook round trip: the report prints it.
   */
  shrinkNote?: string;
}

export class SkipRule extends Error {
  readonly code = 'HPS_RULE_SKIPPED' satisfies ErrorCode;
}

export interface RuleContext {
  readonly rule: Rule;
  readonly profile: Profile;
  readonly keys: Profile['keys'];
  readonly runId: string;
  readonly seed: number;
  readonly runs: number;
  readonly client: Client;
  readonly sinkUrl: string | null;
  /** Skips the rule unless the profile has every field named. */
  need(...fields: string[]): void;
  skip(reason: string): never;
  /** Counts checks the test made itself (the verifiers of runner/expect.ts count their own). */
  checked(n?: number): void;
  /** Runs a seeded fast-check property; a failure carries counterexample, seed and replay line. */
  property<T>(arb: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, opts?: PropertyOptions): Promise<void>;
  /** Runs a fixed table (generators/case-tables.ts), one titled case per row, each with its own outcome (runner/cases.ts). */
  cases<Row>(table: CaseTable<Row>, check: (row: Row, index: number) => Promise<void>, opts?: CaseOptions): Promise<void>;
  observe(key: string, value: unknown): void;
  note(text: string): void;
  /** A webhook event's attempts (report/timeline.ts timelineEvidence), shown as a timeline if the test fails. */
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

/** Ambient findings kept per test and rule (the rest are counted, not stored). */
const AMBIENT_KEPT_PER_RULE = 3;
const OUTSIDE_HTTP_KEPT = 20;

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
      if (!transport || transport.notSent || transport.code === 'HPS_ERR_TARGET_THROTTLED' || transport.code === 'HPS_ERR_KEY_REJECTED' || !(await targetAnswers(ctx))) throw e;
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
  // The target to this area alone (runner/exclusive.ts): waited for outside the test's deadline, as waiting.
  if (EXCLUSIVE_AREAS.has(a.rule.area)) await withWaitClock(clock, () => waiting(holdTargetAlone()));
  const tracker = new ExchangeTracker(id, a.title, meta, a.created);
  const client = clientForProfile(a.ctx.profile, { onExchange: (ex, res, req) => tracker.onExchange(ex, res, req) });
  const t = ruleContext(a.ctx, a.rule, meta, client, counter, () => a.vctx.skip());
  try {
    if (a.rule.needs?.length) t.need(...a.rule.needs);
    const waited = () => client.stats.paceWaitMs + client.stats.outageWaitMs + client.stats.gateWaitMs;
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

/** Thrown when a rule's test runs past its time limit: the rule could not be decided (ERROR). */
export class RuleTimeout extends Error {
  readonly code = 'HPS_RULE_TIMEOUT' satisfies ErrorCode;
}

/** `work`, or RuleTimeout after `ms` plus whatever `waited()` says its requests spent waiting for the target. */
async function withDeadline<T>(work: Promise<T>, ms: number, id: string, waited: () => number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const started = performance.now();
  const deadline = new Promise<never>((_, reject) => {
    const arm = () => {
      const due = started + ms + waited();
      const left = due - performance.now();
      if (left <= 0) reject(new RuleTimeout(`${id} did not finish within ${ms} ms${due - started > ms ? ` (+${Math.round(due - started - ms)} ms waited out for the target)` : ''}`));
      else timer = setTimeout(arm, left);
    };
    arm();
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
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

/** A transport error, also when fast-check or a helper wrapped it. */
export function transportCause(e: unknown): TransportError | undefined {
  for (let cur: unknown = e, depth = 0; cur && depth < 5; depth++) {
    if (cur instanceof TransportError) return cur;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Watches every exchange of one test: ambient checks (attributed to this rule
 * and test), probes outside ordinary HTTP (observed only), created Payments
 * (cancelled at the end of the file).
 */
class ExchangeTracker {
  requests = 0;
  private readonly ambient: Finding[] = [];
  private readonly perRule = new Map<string, number>();
  private readonly checked: Record<string, number> = {};
  constructor(
    private readonly rule: string,
    private readonly title: string,
    private readonly meta: HpsMeta,
    private readonly created: Map<string, string>,
  ) {}

  onExchange(ex: Exchange, res: ApiResponse | undefined, req: RequestOptions): void {
    this.requests++;
    if (req.outsideHttp) return this.observeOutside(req.outsideHttp, ex, res);
    if (!res) return;
    const key = req.authorization === undefined ? req.key ?? undefined : undefined;
    const keyLivemode = livemodeOfKey(key);
    const idempotent = 'idempotency-key' in ex.request.headers;
    const count = (r: string) => (this.checked[r] = (this.checked[r] ?? 0) + 1);
    const answer = { method: ex.request.method, path: ex.request.path, sentAt: Date.parse(ex.at), answeredAt: Date.now() };
    const findings = checkExchange({ method: ex.request.method, path: ex.request.path, keyLivemode, idempotent }, res, seenRequestIds, count);
    for (const f of [...findings, ...checkPaymentViews(paymentViews, answer, res, count)]) {
      const n = this.perRule.get(f.rule) ?? 0;
      this.perRule.set(f.rule, n + 1);
      if (n < AMBIENT_KEPT_PER_RULE) this.ambient.push({ ...f, source: { rule: this.rule, test: this.title } });
    }
    if (res.status === 201 && ex.request.method === 'POST' && /^\/v1\/payments$/.test(ex.request.path) && res.json?.id && res.json.livemode === false) {
      if (key) this.created.set(res.json.id, key);
    }
  }

  private observeOutside(reason: string, ex: Exchange, res: ApiResponse | undefined): void {
    const list = (this.meta.outsideHttp ??= []);
    if (list.length >= OUTSIDE_HTTP_KEPT) return;
    const contentType = res?.headers['content-type'] ?? null;
    const envelope = res !== undefined && typeof res.json?.error?.code === 'string';
    list.push({
      reason,
      request: `${ex.request.method} ${ex.request.path.slice(0, 80)}`,
      status: res?.status ?? null,
      content_type: contentType,
      answered_by: !res ? 'no answer' : envelope ? 'service' : res.status >= 400 && !/json/i.test(contentType ?? '') ? 'infrastructure' : 'unknown',
    });
  }

  finish(): void {
    if (this.ambient.length) this.meta.ambient = this.ambient;
    if (Object.keys(this.checked).length) this.meta.ambientChecked = this.checked;
  }
}

function ruleContext(ctx: SuiteContextData, rule: Rule, meta: HpsMeta, client: Client, counter: CheckCounter, vitestSkip: () => void): RuleContext {
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

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Time a failing property may spend shrinking its counterexample. */
const SHRINK_BUDGET_MS = 15_000;

interface PropertyRun {
  ctx: SuiteContextData;
  id: RuleId;
  index: number;
  meta: HpsMeta;
  replay: () => string;
}

/**
 * A property's predicate, guarded: transport trouble is never a counterexample (the first one ends
 * the property as an ERROR, unshrunk), and shrinking — a request per step — stops after a time
 * budget (a candidate then counts as passing, so fast-check keeps the smallest failing value found
 * by then; the report says so).
 */
class GuardedPredicate<T> {
  transport: unknown;
  shrinkCut = false;
  private firstFailureAt: number | undefined;

  constructor(private readonly predicate: (value: T) => Promise<void>) {}

  readonly run = async (v: T): Promise<void> => {
    // A skipped candidate resolves at once: yield to the event loop all the same, or fast-check's
    // walk of the rest of the shrink tree starves it for seconds and pooled sockets the target
    // closed meanwhile are reused blind (seen: UND_ERR_SOCKET on every request after the walk).
    if (this.transport) return yieldToEventLoop();
    if (this.firstFailureAt !== undefined && performance.now() - this.firstFailureAt > SHRINK_BUDGET_MS) {
      this.shrinkCut = true;
      return yieldToEventLoop();
    }
    try {
      await this.predicate(v);
    } catch (e) {
      if (transportCause(e) || e instanceof SkipRule) {
        this.transport = e;
        return;
      }
      this.firstFailureAt ??= performance.now();
      throw e;
    }
  };

  /** The replay of a counterexample gets a fresh budget. */
  restartBudget(): void {
    this.firstFailureAt = undefined;
  }

  throwTransport(): void {
    if (this.transport) throw this.transport;
  }
}

async function runProperty<T>(p: PropertyRun, arb: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, popts: PropertyOptions): Promise<void> {
  if (p.ctx.caseFilter !== undefined) return; // `run --case`: one fixed row alone, no property
  const seed = deriveSeed(p.ctx.seed, `${p.id}#${p.index}`);
  const numRuns = popts.runs ?? p.ctx.runs;
  const guard = new GuardedPredicate(predicate);
  const details = await fc.check(fc.asyncProperty(arb, guard.run), { seed, numRuns, endOnFailure: false });
  p.meta.cases = (p.meta.cases ?? 0) + details.numRuns;
  guard.throwTransport();
  if (!details.failed) return;
  const failure = propertyFailure(p, details, { seed, numRuns, shrinkNote: popts.shrinkNote, shrinkCut: guard.shrinkCut });
  guard.restartBudget();
  // Replay the shrunk counterexample once with the same seed and path before reporting it.
  if (details.counterexamplePath) {
    const again = await fc.check(fc.asyncProperty(arb, guard.run), { seed, numRuns, path: details.counterexamplePath, endOnFailure: true });
    guard.throwTransport();
    failure.replayOutcome = again.failed ? 'fail' : 'pass';
    if (!again.failed) failure.replayError = 'the same counterexample passed when replayed';
  }
  p.meta.property = failure;
  const cause = details.errorInstance;
  if (cause instanceof SetupRefused) p.meta.setupRefusal = cause.refusal;
  if (cause instanceof Mismatch) {
    p.meta.mismatch = { expected: cause.expected, actual: cause.actual };
    if (cause.exchange) p.meta.failedExchange = cause.exchange;
  }
  const why = cause instanceof Error ? cause.message : String(cause);
  throw new Error(`property failed after ${details.numRuns} run(s), shrunk ${details.numShrinks} time(s): ${why}\ncounterexample: ${failure.counterexample}\nreplay: ${failure.replay}`);
}

/** What the report keeps of a failed property: seed, path, the (redacted) counterexample, the replay line. */
function propertyFailure<T>(p: PropertyRun, details: fc.RunDetails<[T]>, o: { seed: number; numRuns: number; shrinkNote?: string; shrinkCut: boolean }): PropertyFailure {
  const failure: PropertyFailure = {
    seed: o.seed,
    runs: o.numRuns,
    path: details.counterexamplePath ?? undefined,
    counterexample: redactText(fc.stringify(details.counterexample?.[0]), profileSecrets(p.ctx.profile)).slice(0, 2000),
    replay: p.replay(),
    replayOutcome: 'not-replayed',
    shrinks: details.numShrinks,
  };
  const notes = [o.shrinkNote, o.shrinkCut ? `shrinking stopped after ${SHRINK_BUDGET_MS / 1000} s (each step is a request to the target): the counterexample is the smallest found by then` : undefined].filter(Boolean);
  if (notes.length) failure.shrink_note = notes.join('; ');
  return failure;
}

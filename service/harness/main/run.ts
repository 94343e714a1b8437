/**
 * `hps-conformance run`: resolves the target (a profile, or the embedded
 * reference server), starts the webhook sink, checks the target answers, runs
 * the suites through vitest's Node API, maps results to catalogued rules and
 * writes report.json plus its renderings.
 */
import { partlyChecked } from '../../../catalogue/report/partly-checked.ts';
import { obligationTotalsLine } from '../../../results/render/obligations.ts';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { selectRules, type Rule } from '../../../catalogue/index.ts';
import type { Report } from '../../../catalogue/report/model.ts';
import { CIRCUIT_OPEN_MARK, CIRCUIT_THRESHOLD } from '../../../core/circuit.ts';
import { closePoolOf } from '../../../core/client.ts';
import { preflight } from '../../../core/targets/preflight.ts';
import type { KeyContradiction } from '../../../core/key-contradiction.ts';
import type { FinishedTest } from '../../../results/verdict/collect.ts';
import { judgeRun } from '../../../results/verdict/judge-run.ts';
import type { SuiteContextData } from '../../../core/run-context.ts';
import { EXIT, HarnessError } from '../../../core/errors.ts';
import { loadProfile, profileSecrets, type Profile } from '../../../core/profile.ts';
import { checkNetwork, mergeNetwork, type ProfileNetwork } from '../../../core/network.ts';
import { redactDeep, registerSecrets } from '../../../core/redact.ts';
import { validateSelection } from './selection.ts';
import { embeddedReplayArgs } from '../../../results/verdict/replay.ts';
import { startTarget, type RunningTarget } from './embedded.ts';
import type { RunMonitor } from './progress.ts';
import type { VerdictPolicy } from '../../../results/verdict/policy.ts';
import { TOOL } from '../../../core/version.ts';
import { DEFAULT_CONCURRENCY, EMBEDDED_SUITE_WORKERS, SuiteSession } from './suite-session.ts';
import { roundTripMs, workersForDistance } from './distance.ts';
import { ruleFilesFor } from './suite-files.ts';
import { trafficLine } from '../../../results/verdict/traffic.ts';
import { DEFAULT_WAIT_BUDGET_MS } from '../../../core/back-pressure.ts';
import { DEFAULT_OUTAGE_BUDGET_MS } from '../../../core/circuit.ts';
import { inertLine } from '../../../core/inert.ts';
import { verdictHeadline } from '../../../catalogue/report/headline.ts';
import { classesLine } from '../../../results/verdict/classes.ts';
import { requiredClasses, type UnmetRequirement } from '../../../results/verdict/require.ts';
import type { KeyObject } from 'node:crypto';
import type { Certificate } from '../../../catalogue/report/model.ts';
import { clearOwnFiles, makeDirectory, RUN_FILES } from '../../../core/safe-write.ts';
import { armInterrupts, type InterruptGuard } from '../../../core/interrupt.ts';
import { invokedAs } from '../../../core/invocation.ts';
import { bothReporters, ResultsLog } from './results-log.ts';
import { writeRunFiles } from './persist.ts';


export interface RunOptions {
  profilePath?: string;
  areas?: string[];
  rules?: string[];
  seed?: number;
  runs?: number;
  reportDir?: string;
  /** Embedded reference only: its retry clock speed-up. */
  timeScale?: number;
  /** Embedded reference only: planted faults to switch on. */
  faults?: string[];
  /** Embedded reference only: its decisions on points the spec leaves open. */
  variant?: 'reference' | 'alt';
  log?: (line: string) => void;
  /** A profile built by the caller (`run --base-url --key-env`); used instead of profilePath. */
  profile?: Profile;
  /** Arguments naming the target in replay lines when there is no profile file (`--base-url URL --key-env VAR`). */
  targetArgs?: string[];
  /** `run --case N|TITLE`: only this fixed case of the rule runs (service/harness/worker/cases.ts). */
  caseFilter?: string;
  /** Only rules of these levels (`run --level`); absent = every level. */
  levels?: Array<'MUST' | 'SHOULD' | 'OBSERVE'>;
  /** `--header`, `--client-cert`, `--client-key`, `--ca`: added to the target profile's network section. */
  network?: ProfileNetwork;
  /** Per-request time-out of the suites' client (overrides probes.request_timeout_ms). */
  requestTimeoutMs?: number;
  /** Cap on requests per second per API key (overrides probes.max_rps). */
  maxRps?: number;
  /** Rule tests in flight at once per suite worker (overrides probes.concurrency). */
  concurrency?: number;
  /** --strict / --min-must-coverage. */
  policy?: VerdictPolicy;
  /** Progress while the run is in progress (a vitest reporter; may stop the run early). */
  monitor?: (selected: readonly Rule[], ctx: SuiteContextData) => RunMonitor;
  /** A vitest session kept open by the caller across runs (the mutation score); absent = one for this run. */
  session?: SuiteSession;
  /** The embedded reference's internal errors (default: one line each on stderr). */
  onReferenceError?: (err: unknown) => void;
  /** Write report.json, its renderings and the certificate, and print the summary (default true). */
  persist?: boolean;
  /** `--require`: conformance classes the verdict requires, besides the profile's `require` (results/verdict/require.ts). */
  require?: string[];
  /** Signs certificate.json (Ed25519, results/verdict/signing.ts); absent: unsigned. */
  signKey?: KeyObject;
  /** The command's own run (`hps-conformance run`): SIGINT/SIGTERM write the results so far (core/interrupt.ts). */
  interruptible?: boolean;
  /** Interrupted, and the emergency writer wrote the results (the run never returns): the command's own after-run steps (CI hooks). */
  onEmergencyWritten?: (result: RunResult) => void;
}

export interface RunResult {
  report: Report;
  exitCode: number;
  reportDir: string;
  /** Required classes not conformant or not tested (empty when the gate holds or none is required). */
  unmet?: UnmetRequirement[];
  certificate?: Certificate;
}

export async function run(opts: RunOptions): Promise<RunResult> {
  const log = opts.log ?? ((l: string) => console.log(l));
  const areas = opts.areas ?? [];
  const { rules: ruleIds, renamed } = validateSelection(areas, opts.rules ?? []);
  for (const line of renamed) log(`hps-conformance: ${line}`);
  const selected = selectRules({ areas, rules: ruleIds }).filter((r) => !opts.levels || opts.levels.includes(r.level));
  if (selected.length === 0) throw new HarnessError('HPS_ERR_USAGE', 'the selection (--area/--rule) matches no service-side rule (merchant-side rules: hps-conformance receiver / client)');
  // Non-negative, so a replay line's `--seed=N` is also valid as `--seed N` everywhere.
  const seed = opts.seed ?? randomBytes(4).readUInt32BE(0) >>> 1;
  const runs = opts.runs ?? 100;
  const runId = `cr${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const reportDir = resolve(opts.reportDir ?? join('reports', 'runs', runId));
  const startedAt = new Date();

  if ((opts.profilePath || opts.profile) && (opts.faults?.length || opts.timeScale !== undefined)) {
    throw new HarnessError('HPS_ERR_USAGE', '--fault and --time-scale apply to the embedded reference server only (drop --profile)');
  }
  const profile: Profile | undefined = opts.profile ?? (opts.profilePath ? loadProfile(opts.profilePath) : undefined);
  // Before the target starts: a header or TLS file the run could not use is one line, exit 2.
  if (opts.network) checkNetwork(mergeNetwork(profile?.network, opts.network), '--header/--client-cert/--client-key/--ca');
  const required = requiredClasses([...(opts.require ?? []), ...(profile?.require ?? [])]);
  const guard = opts.interruptible ? armInterrupts({ startedAt: startedAt.getTime() }) : undefined;
  // vitest starts while the target starts and answers the preflight (the caller's session: already open);
  // against a profile's target, with as many workers as its distance calls for (./distance.ts).
  const rtt = profile && !opts.session ? await roundTripMs(profile.base_url, mergeNetwork(profile.network, opts.network)) : undefined;
  // No more workers than rule files to run (a replay of one rule: one).
  const wanted = profile ? workersForDistance(rtt, profile.base_url) : EMBEDDED_SUITE_WORKERS;
  const workers = opts.session?.workers ?? Math.max(1, Math.min(wanted, ruleFilesFor(selected).size));
  const own = opts.session ? undefined : openOwnSession(workers);
  const target: RunningTarget = await startTarget({ profile, timeScale: opts.timeScale, faults: opts.faults, variant: opts.variant, onReferenceError: opts.onReferenceError, needSink: selected.some((r) => r.area === 'webhooks' || (r.needs as readonly string[] | undefined)?.includes('webhooks')) }).catch(async (e: unknown) => {
    guard?.disarm();
    await closeOwnSession(own);
    throw e;
  });
  if (opts.network) target.profile.network = mergeNetwork(target.profile.network, opts.network);
  // The target's keys (an embedded reference's are new every run) are released when the run ends.
  const releaseSecrets = registerSecrets(profileSecrets(target.profile));
  const { ctx, maxRps, concurrency } = suiteContextOf(opts, target, { runId, seed, runs, workers, selected: selected.map((r) => r.id) });
  const outageFile = ctx.pace!.outageFile!;
  guard?.addCleanup(() => rmSync(outageFile, { force: true }));
  guard?.addCleanup(() => target.removeTempSync());
  try {
    // A key that behaves as the spec forbids for what it is declared to be is judged, not blamed on the profile.
    const contradictions = await preflight(target.profile, { keys: !target.embedded });
    for (const c of contradictions) log(`preflight: ${c.field} contradicts the profile: ${c.rule} will be judged FAIL (or the profile ` +
      `is wrong: ${c.profileWrong})`);
    log(`hps-conformance: ${target.embedded ? 'embedded reference server' : 'target'} ${target.profile.base_url} · run ${runId} · seed ${seed} · ${runs} runs · ${selected.length} rules · ${workers} suite workers${rtt === undefined ? '' : ` (a round trip ${rtt.toFixed(1)} ms)`}`);
    const monitor = opts.monitor?.(selected, ctx);
    const secrets = profileSecrets(target.profile);
    return await suitesThenReport({ opts, own, selected, ctx, target, startedAt, areas, ruleIds, secrets, maxRps, concurrency, monitor, persist: opts.persist !== false, reportDir, log, guard, required, contradictions });
  } finally {
    await closeOwnSession(own);
    guard?.cleanup();
    rmSync(outageFile, { force: true });
    await target.close();
    await closePoolOf(target.profile.base_url);
    releaseSecrets();
    guard?.disarm();
  }
}

/** What the suite workers get: the profile (with --request-timeout), the run's ids, its pace. */
function suiteContextOf(
  opts: RunOptions,
  target: RunningTarget,
  run: { runId: string; seed: number; runs: number; workers: number; selected: string[] },
): { ctx: SuiteContextData; maxRps: number | null; concurrency: number } {
  const { runId, seed, runs } = run;
  const probes = target.profile.probes ?? {};
  const maxRps = opts.maxRps ?? probes.max_rps ?? null;
  const concurrency = opts.concurrency ?? probes.concurrency ?? DEFAULT_CONCURRENCY;
  const ctx: SuiteContextData = {
    profile: opts.requestTimeoutMs ? {
      ...target.profile,
      probes: { ...probes, request_timeout_ms: opts.requestTimeoutMs },
    } : target.profile,
    profilePath: opts.profilePath ? resolve(opts.profilePath) : null,
    runId,
    seed,
    runs,
    sinkUrl: target.sinkUrl,
    sinkToken: target.sinkToken,
    replayArgs: [...(opts.targetArgs ?? []), ...(target.embedded ? embeddedReplayArgs(opts) : [])],
    command: invokedAs(),
    selectedRules: run.selected,
    ...(opts.caseFilter !== undefined ? { caseFilter: opts.caseFilter } : {}),
    pace: {
      // Each suite worker paces its own requests: the cap is split between them.
      ...(maxRps !== null ? { maxRpsPerProcess: maxRps / run.workers } : {}),
      waitBudgetMs: (probes.throttle_budget_s ?? DEFAULT_WAIT_BUDGET_MS / 1000) * 1000,
      outageBudgetMs: (probes.outage_budget_s ?? DEFAULT_OUTAGE_BUDGET_MS / 1000) * 1000,
      concurrency,
      outageFile: join(tmpdir(), `hps-conformance-outage-${runId}`),
    },
  };
  return { ctx, maxRps, concurrency };
}

interface Finish {
  opts: RunOptions; own: Promise<SuiteSession> | undefined; selected: readonly Rule[]; ctx: SuiteContextData; target: RunningTarget; startedAt: Date;
  areas: string[]; ruleIds: string[]; secrets: string[]; maxRps: number | null; concurrency: number;
  monitor: RunMonitor | undefined; persist: boolean; reportDir: string; log: (line: string) => void; guard: InterruptGuard | undefined;
  /** `--require` and the profile's `require`: the classes the CI gate requires. */
  required: readonly string[];
  /** The preflight's key contradictions: each a FAIL of its rule. */
  contradictions: readonly KeyContradiction[];
}

/**
 * The suites, their results logged as they finish (results.ndjson), then the report. Interrupted:
 * from the tests that finished, marked partial; the emergency writer does the same if this path is
 * not at the report within the interrupt's grace time.
 */
async function suitesThenReport(f: Finish): Promise<RunResult> {
  const { guard } = f;
  const results = f.persist ? openResults(
    f.reportDir,
    f.ctx,
    { target: f.target, startedAt: f.startedAt, areas: f.areas, ruleIds: f.ruleIds, levels: f.opts.levels },
  ) : undefined;
  guard?.setEmergencyWriter(() => f.opts.onEmergencyWritten?.(finishRun(f, results!.tests, true)));
  const tests = redactDeep(
    await runSuites(f.opts.session ?? f.own, f.selected, f.ctx, f.monitor, f.concurrency, results, guard),
    f.secrets,
  );
  results?.close();
  // The run's own workers end before the verdict and the report files (the run's peak of memory):
  // their heaps (~50 MB on the quick start) are not held through it.
  if (!f.opts.session) await closeOwnSession(f.own);
  if (guard && !guard.claimWrite()) return await new Promise<never>(() => {}); // the emergency writer wrote them and exits
  return guard?.signal && results ? finishRun(f, results.tests, true) : finishRun(f, tests);
}

/** Finished tests → the report (partial when interrupted), written with its renderings unless not persisting. */
function finishRun(f: Finish, tests: FinishedTest[], interrupted = false): RunResult {
  const { ctx, target, opts } = f;
  const partialReason = interrupted ? f.guard?.reason() : undefined;
  const interruption = interrupted ? f.guard?.interruption() : undefined;
  const { report, exitCode, unmet } = judgeRun({
    target: { base_url: target.profile.base_url, embedded_reference: target.embedded },
    ctx, startedAt: f.startedAt, selected: f.selected, tests, secrets: f.secrets,
    selection: { areas: f.areas, rules: f.ruleIds, ...(opts.levels ? { levels: opts.levels } : {}) },
    pace: { maxRps: f.maxRps, concurrency: f.concurrency },
    policy: { ...opts.policy, stopped: f.monitor?.stopReason() },
    required: f.required,
    contradictions: f.contradictions,
    ...(partialReason ? { partialReason } : {}),
    ...(interruption ? { interrupted: interruption } : {}),
  });
  if (partialReason) f.log(`PARTIAL: ${partialReason}: the results so far, the rules not reached are SKIP; not a certification`);
  if (!f.persist) return { report, reportDir: f.reportDir, exitCode, unmet };
  const written = writeRunFiles(f.reportDir, report, target.profile, opts.signKey);
  printSummary(report, written.dir, f.log);
  return {
    report,
    reportDir: written.dir,
    exitCode: f.guard?.exitCode ?? (written.fallbackBecause ? EXIT.reportFallback : exitCode),
    unmet,
    certificate: written.certificate,
  };
}

/** The run's directory cleared of this tool's files, and its results log opened (service/harness/main/results-log.ts). */
function openResults(
  dir: string,
  ctx: SuiteContextData,
  a: { target: RunningTarget; startedAt: Date; areas: string[]; ruleIds: string[]; levels?: RunOptions['levels'] },
): ResultsLog {
  makeDirectory(dir);
  clearOwnFiles(dir, RUN_FILES);
  return ResultsLog.open(dir, {
    kind: 'run', tool: TOOL, run_id: ctx.runId, seed: ctx.seed, runs: ctx.runs,
    target: { base_url: a.target.profile.base_url, embedded_reference: a.target.embedded },
    selection: { areas: a.areas, rules: a.ruleIds, ...(a.levels ? { levels: a.levels } : {}) },
    started_at: a.startedAt.toISOString(), profile_path: ctx.profilePath, replay_args: ctx.replayArgs, command: ctx.command,
  }, profileSecrets(ctx.profile));
}

/**
 * The suites through the caller's session (a SuiteSession), or through the one `run` opened for
 * itself (a promise of it; `run` closes it).
 */
async function runSuites(
  session: SuiteSession | Promise<SuiteSession> | undefined,
  selected: readonly Rule[],
  ctx: SuiteContextData,
  monitor: RunMonitor | undefined,
  concurrency: number,
  results?: ResultsLog,
  guard?: InterruptGuard,
): Promise<FinishedTest[]> {
  const o = { concurrency, stopped: () => monitor?.stopReason() !== undefined || guard?.signal !== undefined };
  const reporter = results ? bothReporters(monitor?.reporter, results.reporter()) : monitor?.reporter;
  if (session instanceof SuiteSession) return session.run(selected, ctx, reporter, o);
  const own = await session!;
  guard?.ownSignals();
  guard?.onStop(() => void own.cancel().catch(() => {}));
  return own.run(selected, ctx, reporter, o);
}

/**
 * A session for this run alone. Its workers are kept across the run (keepWorkers): nothing is
 * started or loaded twice.
 */
function openOwnSession(workers: number): Promise<SuiteSession> {
  const opening = SuiteSession.open({ keepWorkers: true, workers });
  opening.catch(() => {}); // awaited by runSuites; a run that fails before never sees it
  return opening;
}

/** Sessions closed (or closing): a run closes its own once its suites end, and again on its way out. */
const closing = new WeakMap<SuiteSession, Promise<void>>();

async function closeOwnSession(own: Promise<SuiteSession> | undefined): Promise<void> {
  const session = await own?.catch(() => undefined);
  if (session === undefined) return;
  if (!closing.has(session)) closing.set(session, session.close());
  await closing.get(session);
}



function printSummary(report: Report, dir: string, log: (l: string) => void): void {
  const s = report.summary;
  // A setup refusal is printed once, with the rules it blocked, not as an ERROR per rule.
  for (const c of report.setup_refusals ?? []) log(`  BLOCKED ${inertLine(`setup refused: ${c.cause}${c.allowed ? ' (as the spec allows for a Live business not ready or without credit: not proven, not failed)' : ''} — blocks ${c.rules.length} rule(s) (${c.areas.join(', ')}): ${c.rules.join(', ')}`)}`.slice(0, 800));
  for (const r of report.rules.filter((x) => ['fail', 'warn', 'flaky', 'error'].includes(x.status) && x.blocked_by === undefined)) {
    // Reasons and replay lines may carry the target's text: one line each, no control character (core/inert.ts).
    log(`  ${r.status.toUpperCase().padEnd(5)} ${inertLine(`${r.id} — ${r.reason ?? ''}`)}`.slice(0, 300));
    const replays = r.evidence.flatMap((e) => (e.kind === 'replay' ? [e.command] : []));
    if (replays[0] !== undefined) log(`        replay: ${inertLine(replays[0])}`);
    // The first failing fixed case alone (addReplayLines adds it after the rule's line).
    const oneCase = replays.slice(1).find((c) => / --case /.test(c));
    if (oneCase !== undefined) log(`        replay the case alone: ${inertLine(oneCase)}`);
  }
  if (report.rules.some((r) => r.status === 'error' && (r.reason ?? '').includes(CIRCUIT_OPEN_MARK))) {
    log(`  the target stopped answering: after ${CIRCUIT_THRESHOLD} requests in a row without an answer the client waited for it to ` +
      `answer again, then stopped sending; the rules left are ERROR (not checked)`);
  }
  for (const p of partlyChecked(report)) log(`  PARTLY CHECKED ${inertLine(`${p.id} — ${p.text}`)}`.slice(0, 700));
  for (const why of (report.incomplete_because ?? []).slice(0, 40)) log(`  NOT PROVEN ${inertLine(why)}`.slice(0, 700));
  const untried = (report.obligations?.entries ?? []).filter((e) => e.kind === 'rule' && e.needs?.length);
  for (const o of untried.slice(0, 20)) {
    log(`  NOT TRIED ${inertLine(`${o.id} (needs ${o.needs!.join(', ')}) — ${o.why ?? ''}`)}`.slice(0, 700));
  }
  const cost = trafficLine(report.traffic);
  if (cost) log(`  ${cost}`);
  const head = verdictHeadline(report);
  log(`verdict: ${head.word === 'PARTIAL' ? `PARTIAL (${inertLine(head.detail!)})` : report.verdict} · pass ${s.pass} · fail ${s.fail} ` +
    `· warn ${s.warn} · info ${s.info} · skip ${s.skip}${s.error ? ` · error ${s.error}` : ''}${s.flaky ? ` · flaky ${s.flaky}` : ''}`);
  if (report.classes) log(classesLine(report.classes));
  log(`MUST rules: ${report.must.ran} of ${report.must.testable} testable ran (${report.must.passed} passed, ${report.must.failed} ` +
    `failed, ${report.must.skipped} skipped; ${report.must.untestable} not exercisable through the API) · ${report.requests} requests ` +
    `· ${(report.duration_ms / 1000).toFixed(1)} s`);
  const obligations = obligationTotalsLine(report);
  if (obligations) log(obligations);
  log(`report: ${inertLine(join(dir, 'report.html'))}`);
}

/**
 * `hps-conformance load`, end to end: resolve the target (profile, or the embedded reference
 * server), preflight (exit 3), create the read pool, run the load, check what came back, read
 * back a sample, clean up (shared targets), judge thresholds and checks, write load.json and
 * load.md, print the table. Exit 0 all good, 1 a threshold missed or a check failed.
 */
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { closeAllPools, type Client } from '../core/client.ts';
import { clientForProfile } from '../core/client-for-profile.ts';
import { profileSecrets } from '../core/profile.ts';
import { redactText } from '../core/redact.ts';
import { cleanup, rereadSample, replayDuplicates, type CleanupOutcome, type RereadOutcome } from './after.ts';
import { buildChecks, type Check } from './checks.ts';
import { buildFigures, type Figures } from './figures.ts';
import { addToConformanceReport } from './in-report.ts';
import { Observations } from './observe.ts';
import type { LoadOptions } from './options.ts';
import { createPool, type PoolOutcome } from './pool.ts';
import { renderLoadText } from '../results/render/load-text.ts';
import { writeReport, type LoadReport } from './report.ts';
import { OPS, opsOf } from './scenarios.ts';
import { preflight } from '../core/targets/preflight.ts';
import { openLoadTarget, safeUrl, type LoadTarget } from '../core/targets/reference-process.ts';
import { evaluateThresholds, SHORTFALL_TOLERANCE, type ThresholdResult } from './thresholds.ts';
import { runWorkers } from './workers.ts';
import type { GeneratorResult } from './generator.ts';
import { startLive } from './live.ts';
import { startLoadMetrics, type LoadMetrics, type LoadMetricsRun } from './metrics.ts';
import { TOOL } from '../core/version.ts';
import { loadVerdict } from '../results/verdict/load-verdict.ts';

export interface LoadRunResult {
  exitCode: number;
  report: LoadReport;
  reportDir: string;
}

export interface LoadIo {
  out?: (text: string) => void;
  progress?: (text: string) => void;
  /** SIGINT/SIGTERM handling (core/interrupt.ts, armed by the command): the first signal stops sending and the figures so far are written, partial. */
  interrupts?: LoadInterrupts;
}

/** What the load run needs of the command's interrupt guard (core/interrupt.ts's InterruptGuard). */
export interface LoadInterrupts {
  readonly signal: string | undefined;
  readonly exitCode: number | undefined;
  reason(): string | undefined;
  onStop(fn: () => void): void;
  setEmergencyWriter(fn: () => void): void;
  claimWrite(): boolean;
}

export function newRunId(): string {
  return `ld${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
}

export async function runLoad(opts: LoadOptions, io: LoadIo = {}): Promise<LoadRunResult> {
  const out = io.out ?? ((t: string) => console.log(t));
  const shardTag = opts.shard ? `s${opts.shard.index}` : '';
  const runId = opts.runId ? `${opts.runId}${shardTag ? `-${shardTag}` : ''}` : `${newRunId()}${shardTag}`;
  const startedAt = new Date();
  const reportDir = resolve(opts.reportDir ?? join('reports', 'load', startedAt.toISOString().replace(/[:.]/g, '-')));
  const target = await targetOf(opts);
  const { profile, secrets } = target;
  const guard = io.interrupts;
  const stop = new AbortController();
  guard?.onStop(() => stop.abort());
  let metrics: LoadMetricsRun | undefined;
  try {
    metrics = opts.metrics ? await startLoadMetrics(opts.metrics, { run_id: runId, scenario: opts.scenario }, sayOf(io)) : undefined;
    await preflight(profile);
    const client = clientForProfile(profile);
    const timeoutMs = client.timeoutMs;
    const facts = { runId, startedAt, target, timeoutMs, workers: opts.workers, figures: null, checks: [], cleaned: null };
    // Interrupted before the generator's figures are in: the run's identity, no figures, partial.
    guard?.setEmergencyWriter(() => writeReport(
      reportDir,
      markPartial(assemble(opts, facts), `${guard.reason()}; the generator had not returned its figures`),
      secrets,
    ));
    const key = profile.keys.test;
    const setupObs = new Observations();
    const ops = opsOf(opts.scenario, opts.mix);
    const pool = ops.includes('read') ? await createPool(client, key, runId, setupObs) : null;
    const ran = pool === null || pool.ok;
    const results = ran ? await generate(opts, io, { runId, profile, key, timeoutMs, pool, metrics: metrics?.metrics }, stop.signal) : [];
    const obs = Observations.merge([setupObs.snapshot(), ...results.map((r) => r.obs)]);
    const figures = ran ? buildFigures(results, opts.rate ?? null, opts.durationS, opts.honourRetryAfter) : null;
    if (figures) figures.errors.by_code = Object.fromEntries(OPS.flatMap((op) => [...obs.errorCodes[op]].map(([k, n]) => [
      `${op} ${k}`,
      n,
    ])));
    const judge = (after: AfterOutcome): LoadReport =>
      assemble(opts, { ...facts, workers: results.length || opts.workers, figures, cleaned: after.cleaned, checks: buildChecks({ scenario: opts.scenario, ops, obs, pool, ran, reread: after.reread, duplicates: after.duplicates, storm: after.storm, internalErrors: results.flatMap((r) => r.internalErrors) }) });
    // Interrupted from here on: the figures so far, without the read-back and clean-up (they send).
    const NOTHING_AFTER: AfterOutcome = { reread: null, duplicates: null, storm: null, cleaned: null };
    guard?.setEmergencyWriter(() => writeReport(reportDir, markPartial(judge(NOTHING_AFTER), guard.reason()!), secrets));
    let report = guard?.signal ? judge(NOTHING_AFTER) : judge(await afterTheLoad(client, key, obs, ran, target.embedded, pool));
    if (guard && !guard.claimWrite()) return await new Promise<never>(() => {}); // the emergency writer wrote them and exits
    if (guard?.signal) report = markPartial(report, guard.reason()!);
    writeReport(reportDir, report, secrets);
    out(redactText(renderLoadText(report), secrets));
    out(`report: ${join(reportDir, 'load.json')} (+ load.md, load.html, load.junit.xml)`);
    const beside = report.partial ? undefined : addToConformanceReport(reportDir);
    if (beside) out(beside);
    await metrics?.end(report, secrets);
    return { exitCode: guard?.exitCode ?? report.exit_code, report, reportDir };
  } finally {
    await metrics?.close();
    await closeAllPools();
    await target.close();
  }
}

/** A target from flags (--base-url --key-env), a profile file, or the embedded reference server. */
async function targetOf(opts: LoadOptions): Promise<LoadTarget> {
  return opts.profile ? {
    profile: opts.profile,
    embedded: false,
    secrets: profileSecrets(opts.profile),
    close: async () => undefined,
  } : await openLoadTarget(opts.profilePath);
}

/** The generator's run with the live progress (stderr: a live line on a terminal, one line per interval otherwise). */
async function generate(
  opts: LoadOptions,
  io: LoadIo,
  x: { runId: string; profile: LoadTarget['profile']; key: string; timeoutMs: number; pool: PoolOutcome | null; metrics?: LoadMetrics },
  stop: AbortSignal,
): Promise<GeneratorResult[]> {
  const tty = io.progress === undefined && process.stderr.isTTY === true;
  const progress = io.progress ?? ((t: string) => void process.stderr.write(t));
  progress(`load: ${opts.rate ? `open model, ${opts.rate} req/s ${opts.arrivals}` : 'closed model'} · ${opts.workers} worker(s) ` +
    `· ${opts.warmupS} s warm-up + ${opts.durationS} s…\n`);
  const live = startLive({
    runId: x.runId,
    workers: Math.max(1, Math.min(opts.workers, opts.connections)),
    intervalS: opts.intervalS,
    windowS: opts.durationS,
    ...(opts.ndjsonFile ? { ndjsonFile: opts.ndjsonFile } : {}),
    write: progress,
    tty,
  });
  try {
    const plan = {
      baseUrl: x.profile.base_url,
      key: x.key,
      runId: x.runId,
      tag: '',
      scenario: opts.scenario,
      mix: opts.mix,
      connections: opts.connections,
      ...(opts.rate ? { rate: opts.rate } : {}),
      arrivals: opts.arrivals,
      warmupS: opts.warmupS,
      durationS: opts.durationS,
      timeoutMs: x.timeoutMs,
      maxRequests: opts.maxRequests,
      honourRetryAfter: opts.honourRetryAfter,
      intervalMs: opts.intervalS * 1000,
      pool: x.pool?.ok ? x.pool.pool : [],
      ...(x.profile.network ? { network: x.profile.network } : {}),
      ...(x.metrics ? { metrics: true } : {}),
    };
    const results = await runWorkers(plan, opts.workers, undefined, (s) => {
      live.onInterval(s);
      x.metrics?.fromWorker(s.metrics);
    }, stop);
    for (const r of results) x.metrics?.fromWorker(r.metrics);
    return results;
  } finally {
    live.close();
  }
}

/** The metrics' lines (the endpoint, a receiver that fails) go where the progress goes: stderr. */
function sayOf(io: LoadIo): (line: string) => void {
  return (line) => (io.progress ?? ((t: string) => void process.stderr.write(t)))(`${line}\n`);
}

/** An interrupted run's report: partial, with the reason; its figures are what was measured until the stop. */
function markPartial(report: LoadReport, reason: string): LoadReport {
  const notes = [
    `PARTIAL: ${reason}: the figures are those measured until the stop; no read-back, no clean-up (this run's payments carry ` +
      `metadata.conformance_run ${report.run_id})`,
    ...report.notes,
  ];
  return { ...report, partial: true, partial_reason: reason, notes };
}

function rateLimitedNote(model: 'open' | 'closed', l: NonNullable<Figures['rate_limited']>, responses: number): string {
  const asked = l.retry_after_s ? `Retry-After ${l.retry_after_s.min}–${l.retry_after_s.max} s on ${l.with_retry_after}` : 'no usable ' +
    'Retry-After';
  const head = `${l.count} of ${responses} answers were 429 (${asked})`;
  if (model === 'open') return `OFFERED RATE NOT ACCEPTED: ${head}; the open model keeps offering its rate whatever the answers (a ` +
    `client honouring Retry-After would have backed off)`;
  return l.honoured ? `${head}; honoured: ${l.waits} waits, ${l.waited_s} s in all (--honour-retry-after)` : `${head}; not honoured ` +
    `(the connections went on at once; --honour-retry-after waits it)`;
}

interface AfterOutcome {
  reread: RereadOutcome | null;
  duplicates: RereadOutcome | null;
  storm: RereadOutcome | null;
  cleaned: CleanupOutcome | null;
}

async function afterTheLoad(
  client: Client,
  key: string,
  obs: Observations,
  ran: boolean,
  embedded: boolean,
  pool: PoolOutcome | null,
): Promise<AfterOutcome> {
  const outcome: AfterOutcome = { reread: null, duplicates: null, storm: null, cleaned: null };
  if (ran) {
    if (obs.created.length) outcome.reread = await rereadSample(client, key, obs.created, obs);
    if (obs.replayedExternalIds.size) outcome.duplicates = await replayDuplicates(client, key, obs.replayedExternalIds, obs);
    if (obs.storm.externalIds.length) outcome.storm = await replayDuplicates(client, key, obs.storm.externalIds, obs);
  }
  if (!embedded) {
    const ids = [...(pool?.ok ? pool.pool : []), ...obs.created].map((p) => p.id);
    if (ids.length) outcome.cleaned = await cleanup(client, key, ids);
  }
  return outcome;
}

interface RunFacts {
  runId: string;
  startedAt: Date;
  target: LoadTarget;
  timeoutMs: number;
  workers: number;
  figures: Figures | null;
  checks: Check[];
  cleaned: CleanupOutcome | null;
}

function assemble(opts: LoadOptions, x: RunFacts): LoadReport {
  const thresholds: ThresholdResult[] = x.figures ? evaluateThresholds(opts.thresholds, x.figures) : [];
  return {
    tool: TOOL,
    kind: 'load',
    run_id: x.runId,
    ...(opts.shard && opts.runId ? { shard_of: { run_id: opts.runId, ...opts.shard } } : {}),
    target: { base_url: safeUrl(x.target.profile.base_url), embedded: x.target.embedded },
    started_at: x.startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    options: {
      scenario: opts.scenario,
      mix: opts.mix,
      model: opts.rate ? 'open' : 'closed',
      arrivals: opts.rate ? opts.arrivals : null,
      rate: opts.rate ?? null,
      warmup_s: opts.warmupS,
      duration_s: opts.durationS,
      connections: opts.connections,
      workers: x.workers,
      shard: opts.shard ?? null,
      max_requests: opts.maxRequests,
      ...(opts.honourRetryAfter ? { honour_retry_after: true } : {}),
      timeout_s: x.timeoutMs / 1000,
      thresholds: opts.thresholds,
    },
    figures: x.figures,
    checks: x.checks,
    thresholds,
    cleanup: x.cleaned,
    notes: notesFor(opts, x.target.embedded, x.target.profile.base_url, x.figures, x.cleaned),
    ...loadVerdict(x.checks, thresholds),
  };
}

function notesFor(opts: LoadOptions, embedded: boolean, baseUrl: string, f: Figures | null, cleaned: CleanupOutcome | null): string[] {
  const notes: string[] = [];
  if (embedded) notes.push('embedded reference server: its own process on this machine, sharing the cores with the generator; the ' +
    'figures are indicative — compare ratios between runs, not absolute numbers');
  notes.push(
    opts.rate
      ? `open model: requests fall due at ${opts.rate} req/s (${opts.arrivals} arrivals) whatever the answers; each latency is measured ` +
        `from the request's due time (coordinated omission corrected, as wrk2 does), so a stall counts for every request that fell due ` +
        `during it`
      : 'closed model: each connection sends its next request when the previous answer is in; latencies are from the send time (a ' +
        'stalled target slows the offered load: use --rate for latency under a fixed load)',
  );
  notes.push(`latencies: HdrHistogram, µs resolution, 3 significant digits; the first ${opts.warmupS} s (warm-up) are sent and checked ` +
    `but not in the figures`);
  if (f && f.model === 'open' && f.shortfall > SHORTFALL_TOLERANCE) notes.push(`RATE NOT REACHED: offered ${f.offered_rps} req/s, ` +
    `achieved ${f.achieved_rps} req/s (${f.not_sent} of ${f.due} due requests never sent)${opts.thresholds.allowShort ? '; allowed by ' +
      '--allow-short' : ''}`);
  if (opts.shard) notes.push(`shard ${opts.shard.index}/${opts.shard.count}: 1/${opts.shard.count} of the rate, keys ` +
    `prefixed ${'`'}s${opts.shard.index}${'`'}; judge the whole with \`hps-conformance load merge\` over every shard's report directory`);
  if (f?.stopped_by === 'max-requests') notes.push(`the run stopped at the request cap (${opts.maxRequests}; the warm-up may use a ` +
    `tenth of it) after ${f.measured_s} s of the ${f.window_s} s window: rates are over the ${f.measured_s} s measured`);
  const limited = f?.rate_limited;
  if (f && limited && limited.count > 0) notes.push(rateLimitedNote(f.model, limited, f.responses));
  notes.push(
    baseUrl.startsWith('https:')
      ? `connections: ${opts.connections}, undici over TLS (certificates verified, undici defaults), one request in flight on each`
      : `connections: ${opts.connections}, HTTP/1.1 spoken by the generator itself (load/http1-connection.ts), one request in flight on ` +
        `each`,
  );
  if (cleaned) {
    notes.push(
      `clean-up: ${cleaned.cancelled} of ${cleaned.total} payments of this run cancelled` +
        (cleaned.notPending ? `, ${cleaned.notPending} no longer PENDING` : '') +
        (cleaned.failed ? `, ${cleaned.failed} failed` : '') +
        (cleaned.attempted < cleaned.total ? `, ${cleaned.total - cleaned.attempted} left (time budget ${cleaned.budgetMs / 1000} s; ` +
          `find them by metadata.conformance_run)` : ''),
    );
  }
  return notes;
}

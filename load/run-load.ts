/**
 * `hps-conformance load`, end to end: resolve the target (profile, or the embedded reference
 * server), preflight (exit 3), create the read pool, run the load, check what came back, read
 * back a sample, clean up (shared targets), judge thresholds and checks, write load.json and
 * load.md, print the table. Exit 0 all good, 1 a threshold missed or a check failed.
 */
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { Client, closeAllPools } from '../harness/client.ts';
import { EXIT } from '../harness/errors.ts';
import { redactText } from '../harness/redact.ts';
import { cleanup, rereadSample, replayDuplicates, type CleanupOutcome, type RereadOutcome } from './after.ts';
import { buildChecks } from './checks.ts';
import { runEngine, type EngineOutput } from './engine.ts';
import { Observations } from './observe.ts';
import type { LoadOptions } from './options.ts';
import { createPool, type PoolOutcome } from './pool.ts';
import { renderText } from './render.ts';
import { buildFigures, writeReport, type Figures, type LoadReport } from './report.ts';
import { MIXES, opsOf } from './scenarios.ts';
import { newTallies } from './stats.ts';
import { openLoadTarget, preflight, safeUrl } from './target.ts';
import { evaluateThresholds, type ThresholdResult } from './thresholds.ts';

export interface LoadRunResult {
  exitCode: number;
  report: LoadReport;
  reportDir: string;
}

export interface LoadIo {
  out?: (text: string) => void;
  progress?: (text: string) => void;
}

const TOOL = { name: 'hps-conformance', version: '0.1.0' };

export function newRunId(): string {
  return `ld${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
}

export async function runLoad(opts: LoadOptions, io: LoadIo = {}): Promise<LoadRunResult> {
  const out = io.out ?? ((t: string) => console.log(t));
  const progress = io.progress ?? (process.stderr.isTTY ? (t: string) => process.stderr.write(`\r${t}`) : () => undefined);
  const runId = newRunId();
  const startedAt = new Date();
  const reportDir = resolve(opts.reportDir ?? join('reports', 'load', startedAt.toISOString().replace(/[:.]/g, '-')));
  const target = await openLoadTarget(opts.profilePath);
  const { profile, secrets } = target;
  try {
    await preflight(profile, secrets);
    const timeoutMs = profile.probes?.request_timeout_ms ?? 10_000;
    const timeoutS = Math.max(1, Math.ceil(timeoutMs / 1000));
    const client = new Client({ baseUrl: profile.base_url, secrets, timeoutMs });
    const key = profile.keys.test;
    const obs = new Observations();
    const tallies = newTallies();
    const ops = opsOf(opts.scenario);

    let pool: PoolOutcome | null = null;
    if (ops.includes('read')) pool = await createPool(client, key, runId, obs);
    const ran = pool === null || pool.ok;

    let engine: EngineOutput | null = null;
    if (ran) {
      engine = await runEngine({
        baseUrl: profile.base_url,
        key,
        runId,
        scenario: opts.scenario,
        connections: opts.connections,
        durationS: opts.durationS,
        rate: opts.rate,
        maxRequests: opts.maxRequests,
        timeoutS,
        pool: pool?.ok ? pool.pool : [],
        obs,
        tallies,
        onTick: (n) => progress(`load: ${n} responses in the last second   `),
      });
      progress('\n');
    }

    let reread: RereadOutcome | null = null;
    let duplicates: RereadOutcome | null = null;
    let cleaned: CleanupOutcome | null = null;
    if (engine) {
      if (obs.created.length) reread = await rereadSample(client, key, obs.created, obs);
      if (obs.replayedExternalIds.size) duplicates = await replayDuplicates(client, key, obs.replayedExternalIds, obs);
    }
    if (!target.embedded) {
      const ids = [...(pool?.ok ? pool.pool : []), ...obs.created].map((p) => p.id);
      if (ids.length) cleaned = await cleanup(client, key, ids);
    }

    const figures: Figures | null = engine ? buildFigures(engine.raw, tallies, obs.errorCodes) : null;
    const checks = buildChecks({ scenario: opts.scenario, obs, pool, ran, reread, duplicates, internalErrors: engine?.internalErrors ?? [] });
    const thresholds: ThresholdResult[] = figures
      ? evaluateThresholds(opts.thresholds, {
          p99Ms: figures.latency_ms.overall.p99,
          responses: figures.responses,
          meanRps: figures.throughput_rps.mean,
          errorRate: figures.errors.rate,
        })
      : [];
    const failed = checks.some((c) => c.status === 'fail') || thresholds.some((t) => t.status === 'fail');
    const report: LoadReport = {
      tool: TOOL,
      kind: 'load',
      run_id: runId,
      target: { base_url: safeUrl(profile.base_url), embedded: target.embedded },
      started_at: startedAt.toISOString(),
      finished_at: new Date().toISOString(),
      options: {
        scenario: opts.scenario,
        mix: MIXES[opts.scenario],
        duration_s: opts.durationS,
        connections: opts.connections,
        connections_effective: engine?.connections ?? opts.connections,
        rate: opts.rate ?? null,
        max_requests: opts.maxRequests,
        timeout_s: timeoutS,
      },
      figures,
      checks,
      thresholds,
      cleanup: cleaned,
      notes: notesFor(opts, target.embedded, profile.base_url, figures, engine, cleaned),
      verdict: failed ? 'fail' : 'pass',
      exit_code: failed ? EXIT.notConformant : EXIT.conformant,
    };
    writeReport(reportDir, report, secrets);
    out(redactText(renderText(report), secrets));
    out(`report: ${join(reportDir, 'load.json')} (+ load.md)`);
    return { exitCode: report.exit_code, report, reportDir };
  } finally {
    await closeAllPools();
    await target.close();
  }
}

function notesFor(opts: LoadOptions, embedded: boolean, baseUrl: string, f: Figures | null, engine: EngineOutput | null, cleaned: CleanupOutcome | null): string[] {
  const notes: string[] = [];
  if (embedded) {
    notes.push('embedded reference server: it shares this process (one event loop) with the load generator, on a shared machine; the figures are indicative — compare ratios between runs, not absolute numbers');
  }
  notes.push('latency percentiles are over every response (autocannon\'s per-response time, ms); --max-p99-ms is checked against the overall p99; throughput figures are autocannon\'s per-second samples');
  if (opts.rate) notes.push('with --rate, latencies are measured from send, not corrected for coordinated omission');
  if (f && f.responses >= opts.maxRequests) notes.push(`the run stopped at the request cap (${opts.maxRequests}) before --duration`);
  if (engine) notes.push(`requests still in flight when the run stopped (at most ${engine.connections}) are neither counted nor checked`);
  if (baseUrl.startsWith('https:')) notes.push('autocannon does not verify TLS certificates; the preflight request (undici) did');
  if (cleaned) {
    notes.push(
      `clean-up: ${cleaned.cancelled} of ${cleaned.total} payments of this run cancelled` +
        (cleaned.notPending ? `, ${cleaned.notPending} no longer PENDING` : '') +
        (cleaned.failed ? `, ${cleaned.failed} failed` : '') +
        (cleaned.attempted < cleaned.total ? `, ${cleaned.total - cleaned.attempted} left (time budget ${cleaned.budgetMs / 1000} s; find them by metadata.conformance_run)` : ''),
    );
  }
  return notes;
}

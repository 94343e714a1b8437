/**
 * `hps-conformance load merge DIR...`: the load.json of every shard of one run merged
 * into one report: histograms merged bucket by bucket (exact), counts
 * added, offered rates added, and the thresholds judged over the whole — never per shard.
 * Thresholds come from the flags given to merge, else from the first shard's options. Only the
 * shards of one run, each once, are merged (load/shard-set.ts refuses the rest).
 */
import { existsSync } from 'node:fs';
import { readCappedText } from '../core/read-capped.ts';
import { REPORT_MAX_BYTES } from '../core/report-file.ts';
import { join, resolve } from 'node:path';
import { HarnessError } from '../core/errors.ts';
import type { Check } from './checks.ts';
import { buildFigures } from './figures.ts';
import { addToConformanceReport } from './in-report.ts';
import { parseLoadOptions, type Thresholds } from './options.ts';
import { renderLoadText } from '../results/render/load-text.ts';
import { writeReport, type LoadReport } from './report.ts';
import { checkShardSet, type ShardSet } from './shard-set.ts';
import type { LoadRunResult } from './run-load.ts';
import { evaluateThresholds } from './thresholds.ts';
import { loadVerdict } from '../results/verdict/load-verdict.ts';

type Raw = Record<string, string | boolean | string[] | undefined>;

/** DIR/load.json read back (untrusted, size capped): a load report, else one line naming it (exit 2); `what` heads the line. */
export function readShard(dir: string, what = 'load merge'): LoadReport {
  const file = join(dir, 'load.json');
  if (!existsSync(file)) throw new HarnessError('HPS_ERR_USAGE', `${what}: ${file} does not exist`);
  const text = readCappedText(file, REPORT_MAX_BYTES, what);
  let r: LoadReport;
  try {
    r = JSON.parse(text) as LoadReport;
  } catch (e) {
    throw new HarnessError('HPS_ERR_USAGE', `${what}: ${file} is not JSON (${(e as Error).message})`);
  }
  if (r?.kind !== 'load' || !r.options || typeof r.options !== 'object') {
    throw new HarnessError('HPS_ERR_USAGE', `${what}: ${file} is not a load report`);
  }
  return r;
}

/** One check per id: FAIL if any shard failed it, PASS if any passed (and none failed), else SKIP. */
export function mergeChecks(shards: readonly LoadReport[]): Check[] {
  const ids = [...new Set(shards.flatMap((s) => s.checks.map((c) => c.id)))];
  return ids.map((id) => {
    const each = shards.map((s) => ({ run: s.run_id, c: s.checks.find((c) => c.id === id) }));
    const status = each.some((e) => e.c?.status === 'fail') ? 'fail' : each.some((e) => e.c?.status === 'pass') ? 'pass' : 'skip';
    const first = each.find((e) => e.c)!.c!;
    const examples = each.flatMap((e) => (e.c?.examples ?? []).map((x) => `${e.run}: ${x}`)).slice(0, 5);
    return {
      id,
      title: first.title,
      status,
      detail: each.map((e) => `${e.run} ${e.c ? `${e.c.status}: ${e.c.detail}` : 'not run'}`).join(' | '),
      ...(examples.length ? { examples } : {}),
    };
  });
}

/** shards-complete: every shard of the run given and with figures; a shard left out by --allow-missing is a skip (incomplete), not a pass. */
function completeness(shards: readonly LoadReport[], withFigures: number, set: ShardSet): Check {
  const title = 'every shard is merged and has figures';
  if (withFigures < shards.length) return {
    id: 'shards-complete',
    title,
    status: 'fail',
    detail: `${shards.length} shards of run ${set.runId} merged, ${withFigures} with figures`,
  };
  if (set.missing.length) return {
    id: 'shards-complete',
    title,
    status: 'skip',
    detail: `shard ${set.missing.map((i) => `${i}/${set.count}`).join(', ')} of run ${set.runId} missing (--allow-missing): the figures ` +
      `are those of ${shards.length} of ${set.count} shards, not the whole run`,
  };
  return { id: 'shards-complete', title, status: 'pass', detail: `${set.count} of ${set.count} shards of run ${set.runId}, each once` };
}

export function mergeReports(shards: readonly LoadReport[], dirs: readonly string[], flags: Raw): LoadReport {
  const set = checkShardSet(shards, dirs, flags['allow-missing'] === true);
  const { shard_of: _one, ...first } = shards[0]!;
  const parts = shards.flatMap((s) => (s.figures?.raw ? [{ ...s.figures.raw, timeline: s.figures.timeline }] : []));
  const windowS = Math.max(...shards.map((s) => s.options.duration_s));
  const open = shards.every((s) => s.options.rate !== null);
  const offered = open ? shards.reduce((a, s) => a + (s.options.rate ?? 0), 0) : null;
  const figures = parts.length ? buildFigures(parts, offered, windowS) : null;
  const given = ['max-p99-ms', 'min-rps', 'max-error-rate', 'allow-short', 'threshold'].some((k) => flags[k] !== undefined);
  const thresholds: Thresholds = given ? parseLoadOptions({ ...flags, workers: '1' }).thresholds : first.options.thresholds;
  const judged = figures ? evaluateThresholds(thresholds, figures) : [];
  const checks = [...mergeChecks(shards), completeness(shards, parts.length, set)];
  const notes = [`merge of ${shards.length} of the ${set.count} shards of run ${set.runId}: HdrHistograms merged bucket by bucket, ` +
    `counts and offered rates added; thresholds judged over the merge${given ? ' (from the merge flags)' : ' (from the first shard\'s ' +
      'flags)'}`];
  return {
    ...first,
    run_id: `merge-${set.runId}`,
    started_at: shards.map((s) => s.started_at).sort()[0]!,
    finished_at: shards.map((s) => s.finished_at).sort().at(-1)!,
    options: {
      ...first.options,
      rate: offered,
      connections: shards.reduce((a, s) => a + s.options.connections, 0),
      workers: shards.reduce((a, s) => a + s.options.workers, 0),
      shard: null,
      thresholds,
      max_requests: shards.reduce((a, s) => a + s.options.max_requests, 0),
    },
    merged_from: shards.map((s, i) => ({ dir: dirs[i]!, run_id: s.run_id, shard: s.options.shard, responses: s.figures?.responses ?? 0 })),
    figures,
    checks,
    thresholds: judged,
    cleanup: null,
    notes,
    ...loadVerdict(checks, judged, set.missing.length),
  };
}

export async function mergeCommand(o: Raw, dirs: string[]): Promise<LoadRunResult> {
  if (dirs.length === 0) throw new HarnessError(
    'HPS_ERR_USAGE',
    'load merge: give the report directory of every shard (load merge DIR...)',
  );
  const shards = dirs.map((d) => readShard(resolve(d)));
  const report = mergeReports(shards, dirs, o);
  const out = resolve(typeof o.report === 'string' ? o.report : join(
    'reports',
    'load',
    `merge-${new Date().toISOString().replace(/[:.]/g, '-')}`,
  ));
  writeReport(out, report, []);
  console.log(renderLoadText(report));
  console.log(`report: ${join(out, 'load.json')} (+ load.md, load.html, load.junit.xml)`);
  const beside = addToConformanceReport(out);
  if (beside) console.log(beside);
  return { exitCode: report.exit_code, report, reportDir: out };
}

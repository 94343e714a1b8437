/**
 * `hps-conformance load compare DIR[=LABEL] DIR[=LABEL]... [--out FILE]`: the latency distributions
 * of two or more load runs overlaid in one self-contained page (results/render/load-compare.ts),
 * each run's line labelled LABEL or its directory's name. Every DIR's load.json is read as untrusted
 * (capped, checked to be a load report) and its HdrHistograms decoded only once checked to be ones
 * this tool writes (load/histogram.ts decodeUntrusted): a DIR without one, or with one that is not,
 * is one line naming it and exit 2, before anything is written.
 */
import { join } from 'node:path';
import { LOAD_OPS, type DistributionModel, type LoadOp, type Percentiles } from '../catalogue/report/load-model.ts';
import { HarnessError } from '../core/errors.ts';
import { inertLine } from '../core/inert.ts';
import { checkOutputFile } from '../core/output-path.ts';
import { writeFileAtomic } from '../core/safe-write.ts';
import { decodeUntrusted, distributionOf, newHistogram, percentilesOf, type Histogram } from '../load/histogram.ts';
import { readShard } from '../load/merge.ts';
import { renderLoadCompare, type LoadCompareRun } from '../results/render/load-compare.ts';
import type { Options } from './options.ts';
import { compareArg, MAX_COMPARE } from './report-command.ts';

const WHAT = 'load compare';
/** Where the page goes without --out (beside reports/load/<timestamp>/). */
const DEFAULT_OUT = join('reports', 'load', 'compare.html');

/** DIR's run: its load.json, and the distribution and percentiles of each operation's histogram and of all. */
function readRun(dir: string, label: string | undefined, seen: Map<string, number>): LoadCompareRun {
  const report = readShard(dir, WHAT);
  const file = join(dir, 'load.json');
  const raw = (report.figures as { raw?: { histograms?: unknown } } | null)?.raw?.histograms;
  if (!raw || typeof raw !== 'object') {
    throw new HarnessError(
      'HPS_ERR_USAGE',
      `${WHAT}: ${file} has no latency histograms (figures.raw.histograms): the run measured nothing`,
    );
  }
  const hists: Partial<Record<LoadOp, Histogram>> = {};
  for (const op of LOAD_OPS) {
    const enc = (raw as Record<string, unknown>)[op];
    if (enc === undefined) continue;
    try {
      hists[op] = decodeUntrusted(enc);
    } catch (e) {
      throw new HarnessError('HPS_ERR_USAGE', inertLine(`${WHAT}: ${file}: figures.raw.histograms.${op}: ${(e as Error).message}`));
    }
  }
  const distribution: DistributionModel = {};
  const percentiles: Partial<Record<LoadOp | 'all', Percentiles>> = {};
  const all = newHistogram();
  for (const h of Object.values(hists)) all.add(h);
  for (const [scope, h] of [...Object.entries(hists), ['all', all]] as [LoadOp | 'all', Histogram][]) {
    distribution[scope] = distributionOf(h);
    percentiles[scope] = percentilesOf(h);
  }
  const base = dir.replace(/\/+$/, '').split('/').at(-1) || dir;
  const n = (seen.get(base) ?? 0) + 1;
  seen.set(base, n);
  return { label: label ?? (n > 1 ? `${base} (${n})` : base), dir, report, distribution, percentiles };
}

export async function loadCompareCommand(o: Options, pos: string[]): Promise<number> {
  if (pos.length < 2) {
    throw new HarnessError('HPS_ERR_USAGE', `${WHAT}: give at least two DIRs holding load.json (DIR[=LABEL] DIR[=LABEL]...)`);
  }
  if (pos.length > MAX_COMPARE) throw new HarnessError('HPS_ERR_USAGE', `${WHAT}: at most ${MAX_COMPARE} DIRs (got ${pos.length})`);
  // Checked before any input is read: a bad path costs nothing.
  const out = checkOutputFile(typeof o.out === 'string' && o.out ? o.out : DEFAULT_OUT, '--out');
  const seen = new Map<string, number>();
  const runs = pos.map((a) => compareArg(a, WHAT)).map(({ dir, label }) => readRun(dir, label, seen));
  try {
    writeFileAtomic(out, renderLoadCompare(runs));
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    throw new HarnessError('HPS_ERR_REPORT', inertLine(`${WHAT}: cannot write ${out} (${why})`));
  }
  console.log(inertLine(`compared ${runs.length} load runs: ${out}`));
  return 0;
}

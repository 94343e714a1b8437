/**
 * The charts of a load run (load.html, the conformance report's load section) and of `load compare`,
 * from load.json alone: latency over time (per-second p50 and p99), throughput and errors over time
 * per operation (figures.timeline), and latency by percentile per operation (figures.distribution),
 * each with a table or the latency table beside it for readers who do not see the plot. A load.json
 * read back is untrusted: each field is checked for the shape it must have; what does not fit is
 * said, never drawn.
 */
import { LOAD_OPS, type LoadFiguresModel, type LoadOp } from '../../catalogue/report/load-model.ts';
import { html, type Html } from './escape.ts';
import {
  lineChart, MAX_POINTS, maxOf, niceTicks, percentileTicks, percentileX, ratePoints, thin, type PlotLine,
} from './load-plots.ts';

/** One colour per operation, the same in every chart of a page. */
export const OP_COLOURS: Record<LoadOp | 'all', string> = { create: '#1f77b4', read: '#e8710a', list: '#2ca02c', all: '#555555' };

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const num = (v: unknown): number => (finite(v) && v > 0 && v <= Number.MAX_SAFE_INTEGER ? v : 0);

/** x ticks of a time axis from 0 to `endS` seconds. */
function timeTicks(endS: number): { x: number; label: string }[] {
  return niceTicks(endS, 6).map((t) => ({ x: t, label: `${t} s` }));
}

/** Per-second p50 and p99 (figures.series) as two lines over the window. */
export function seriesChart(series: unknown, id: string): Html {
  const rows = Array.isArray(series) ? series.filter((s): s is { p50: number; p99: number } => !!s && typeof s === 'object') : [];
  if (rows.length === 0) return html`<p>No per-second series (no response in the window).</p>`;
  const line = (k: 'p50' | 'p99', colour: string): PlotLine => ({ label: k, colour, points: rows.map((s, i) => [i + 0.5, s[k]] as const) });
  return lineChart({
    id,
    title: 'latency over time',
    desc: `The 50th and 99th percentile latency (ms) of the answers to the requests due in each second of the window, ` +
      `${rows.length} s. The latency table gives the whole run's percentiles as numbers.`,
    xLabel: 'time in the window (s, by due time)',
    yLabel: 'latency (ms)',
    xTicks: timeTicks(rows.length),
    lines: [line('p50', '#1f77b4'), line('p99', '#d62728')],
  });
}

/** A distribution as load.json holds it ([percentile %, ms] pairs) as plot points; anything else left out. */
export function distributionPoints(points: unknown): [number, number][] {
  if (!Array.isArray(points)) return [];
  return points
    .filter((p): p is [number, number] => Array.isArray(p) && finite(p[0]) && p[0] >= 0 && p[0] <= 100 && finite(p[1]) && p[1] >= 0)
    .map(([pct, ms]) => [percentileX(pct), ms]);
}

/** Latency by percentile, one line each, on the HdrHistogram plotter's axis. */
export function distributionChart(id: string, title: string, lines: readonly PlotLine[]): Html {
  const maxX = maxOf(lines.flatMap((l) => thin(l.points).map(([x]) => x)));
  return lineChart({
    id,
    title,
    desc: 'Latency (ms, y) by percentile (x, on the HdrHistogram plotter\'s scale log10(1/(1-p)): 0%, 90%, 99%, 99.9% … evenly ' +
      'spaced, each tick a tenth of the requests left). Each line ends at its largest latency, at the highest percentile its count ' +
      `resolves (1 - 1/count). Lines: ${lines.map((l) => l.label).join(', ')}.`,
    xLabel: 'percentile (log scale of 1/(1-p))',
    yLabel: 'latency (ms)',
    xTicks: percentileTicks(maxX),
    lines,
  });
}

interface TimelineRead {
  bucketS: number;
  ops: { op: LoadOp; answers: unknown[]; errors: unknown[] }[];
}

/** figures.timeline when it has the shape load writes; null otherwise (older load.json, or not one). */
function readTimeline(t: unknown): TimelineRead | null {
  const x = t as { bucket_s?: unknown; by_operation?: Record<string, { answers?: unknown; errors?: unknown } | undefined> } | null;
  if (!x || typeof x !== 'object' || !finite(x.bucket_s) || x.bucket_s <= 0 || !x.by_operation || typeof x.by_operation !== 'object') {
    return null;
  }
  const ops = LOAD_OPS.flatMap((op) => {
    const c = x.by_operation![op];
    return c && Array.isArray(c.answers) && Array.isArray(c.errors) ? [{ op, answers: c.answers, errors: c.errors }] : [];
  });
  return { bucketS: x.bucket_s, ops };
}

/** Throughput and errors over time per operation, and a table of the same (total, mean, lowest and highest rate). */
export function timelineHtml(f: LoadFiguresModel, hx: (title: string) => Html, id: string): Html {
  const t = readTimeline(f.timeline);
  if (!t) return html`${hx('Throughput and errors over time')}<p>Not in this load.json (written before they were recorded).</p>`;
  const endS = finite(f.measured_s) && f.measured_s > 0 ? f.measured_s : finite(f.window_s) ? f.window_s : 0;
  if (!t.ops.length) return html`${hx('Throughput and errors over time')}<p>No request in the window: nothing to plot.</p>`;
  const longest = maxOf(t.ops.map((o) => o.answers.length));
  const widthS = t.bucketS * Math.max(1, Math.ceil(longest / MAX_POINTS));
  const lines = (k: 'answers' | 'errors'): PlotLine[] => t.ops.map((o) => ({
    label: o.op, colour: OP_COLOURS[o.op], points: ratePoints(o[k], t.bucketS, endS),
  }));
  const chart = (k: 'answers' | 'errors', title: string, yLabel: string, what: string) => lineChart({
    id: `${id}-${k}`, title, xLabel: 'time in the window (s, by due time)', yLabel, xTicks: timeTicks(Math.max(1, endS)), lines: lines(k),
    desc: `${what} per second, per operation, in buckets of ${widthS} s of the ${endS} s measured. The table below gives the same figures.`,
  });
  const errorsTotal = t.ops.reduce((a, o) => a + o.errors.reduce((s: number, v) => s + num(v), 0), 0);
  return html`${hx('Throughput over time (answers per second, per operation)')}${chart('answers', 'throughput over time',
    'answers per second', 'Answers (any status)')}${hx('Errors over time (per second, per operation)')}${errorsTotal === 0
    ? html`<p>No errors in the window.</p>`
    : chart('errors', 'errors over time', 'errors per second', 'Errors (non-2xx answers but the storm\'s expected 409s, and requests ' +
      'with no answer)')}${timelineTable(t, endS, widthS)}`;
}

function timelineTable(t: TimelineRead, endS: number, widthS: number): Html {
  const rate = (v: number) => (Math.round(v * 10) / 10).toFixed(1);
  const rows = t.ops.map((o) => {
    const a = ratePoints(o.answers, t.bucketS, endS).map(([, y]) => y);
    const e = ratePoints(o.errors, t.bucketS, endS).map(([, y]) => y);
    const sum = (xs: unknown[]) => xs.reduce((s: number, v) => s + num(v), 0);
    const answers = sum(o.answers);
    const cells = [answers, endS > 0 ? rate(answers / endS) : '–', a.length ? rate(Math.min(...a)) : '–',
      a.length ? rate(Math.max(...a)) : '–', sum(o.errors), e.length ? rate(Math.max(...e)) : '–'];
    return html`<tr><td>${o.op}</td>${cells.map((c) => html`<td>${c}</td>`)}</tr>`;
  });
  return html`<div class="scroll"><table><tr><th>operation</th><th>answers</th><th>mean /s</th><th>lowest /s (${widthS} s)</th>\
<th>highest /s (${widthS} s)</th><th>errors</th><th>highest errors /s</th></tr>${rows}</table></div>`;
}

/** Latency by percentile of the run, one line per operation (figures.distribution). */
export function distributionHtml(f: LoadFiguresModel, hx: (title: string) => Html, id: string): Html {
  const d = f.distribution as Record<string, unknown> | undefined;
  const head = hx('Latency by percentile (per operation)');
  if (!d || typeof d !== 'object') return html`${head}<p>Not in this load.json (written before it was recorded).</p>`;
  const lines = LOAD_OPS.filter((op) => op in d).map((op): PlotLine => ({
    label: op, colour: OP_COLOURS[op], points: distributionPoints(d[op]),
  }));
  if (!lines.some((l) => l.points.length)) return html`${head}<p>No answer in the window: no latency to plot.</p>`;
  return html`${head}${distributionChart(id, 'latency by percentile', lines)}`;
}

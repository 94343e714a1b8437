/**
 * `load compare`: several load runs' latency distributions overlaid in one self-contained page (no
 * script, no external resource), as wrk2 users overlay HdrHistogram plots: one chart for all
 * operations and one per operation, one line per run, each run labelled; below each chart, the
 * same percentiles as a table. The distributions and percentiles are computed by the caller from
 * each run's HdrHistograms; the other values come from load.json as read (untrusted): escaped,
 * and a number that is not one is shown as –.
 */
import {
  LOAD_OPS, type DistributionModel, type LoadOp, type LoadReportModel, type Percentiles,
} from '../../catalogue/report/load-model.ts';
import { html, trustedHtml, type Html } from './escape.ts';
import { distributionChart, distributionPoints } from './load-charts.ts';
import { PLOT_CSS, type PlotLine } from './load-plots.ts';

export interface LoadCompareRun {
  /** The line's and the row's name: DIR=LABEL's LABEL, or the directory's name. */
  label: string;
  dir: string;
  report: LoadReportModel;
  /** From the run's histograms (figures.raw.histograms), per operation and all. */
  distribution: DistributionModel;
  percentiles: Partial<Record<LoadOp | 'all', Percentiles>>;
}

const PALETTE = ['#1f77b4', '#e8710a', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#17becf'];
const DASHES = ['', '6 3', '2 3'];

/** Run i's stroke: 8 colours, then the same colours dashed, then dotted (24 runs told apart). */
export function runStroke(i: number): { colour: string; dash?: string } {
  const dash = DASHES[Math.floor(i / PALETTE.length) % DASHES.length]!;
  return { colour: PALETTE[i % PALETTE.length]!, ...(dash ? { dash } : {}) };
}

const CSS = `body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}` +
  `td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}td:first-child,th:first-child,td.l,th.l{text-align:left}` +
  `.scroll{overflow-x:auto;max-width:100%}svg.plot{border:1px solid #ddd;background:#fafafa}.meta{color:#555}${PLOT_CSS}`;

const n = (v: unknown, digits = 1): string => (typeof v === 'number' && Number.isFinite(v) ? v.toFixed(digits) : '–');
const PCTS = [['p50', 'p50'], ['p90', 'p90'], ['p99', 'p99'], ['p99_9', 'p99.9'], ['p99_99', 'p99.99'], ['max', 'max']] as const;

function runsTable(runs: readonly LoadCompareRun[]): Html {
  const row = (x: LoadCompareRun) => {
    const r = x.report;
    const f = r.figures;
    const model = r.options?.model === 'open' ? `open ${n(r.options.rate, 0)} req/s` : 'closed';
    return html`<tr><td>${x.label}</td><td class="l"><code>${x.dir}</code></td><td class="l">${r.run_id}</td>\
<td class="l">${r.options?.scenario}</td><td class="l">${model}</td><td>${n(r.options?.duration_s, 0)}</td><td>${n(f?.responses, 0)}</td>\
<td>${n(f?.achieved_rps)}</td><td>${typeof f?.errors?.rate === 'number' ? `${n(f.errors.rate * 100, 2)}%` : '–'}</td>\
<td class="l">${r.partial ? 'PARTIAL' : String(r.verdict).toUpperCase()}</td></tr>`;
  };
  return html`<div class="scroll"><table><tr><th>run</th><th class="l">directory</th><th class="l">run id</th><th class="l">scenario</th>\
<th class="l">model</th><th>window s</th><th>responses</th><th>req/s</th><th>error rate</th><th class="l">verdict</th></tr>\
${runs.map(row)}</table></div>`;
}

function scopeSection(runs: readonly LoadCompareRun[], scope: LoadOp | 'all', index: number): Html {
  const name = scope === 'all' ? 'all operations' : scope;
  const lines = runs.map((x, i): PlotLine => ({ label: x.label, ...runStroke(i), points: distributionPoints(x.distribution[scope]) }));
  const rows = runs.map((x) => {
    const p = x.percentiles[scope];
    const cells = PCTS.map(([k]) => html`<td>${p?.count ? n(p[k], 3) : '–'}</td>`);
    return html`<tr><td>${x.label}</td><td>${p ? p.count : 0}</td>${cells}</tr>`;
  });
  return html`<section><h2>Latency by percentile: ${name}</h2>\
${distributionChart(`cmp-${index}`, `latency by percentile, ${name}`, lines)}\
<div class="scroll"><table><tr><th>run</th><th>responses</th>${PCTS.map(([, l]) => html`<th>${l} ms</th>`)}</tr>${rows}</table></div>\
</section>`;
}

export function renderLoadCompare(runs: readonly LoadCompareRun[]): string {
  const scopes = (['all', ...LOAD_OPS] as const).filter((s) => runs.some((x) => x.percentiles[s]?.count));
  const body = scopes.length
    ? scopes.map((s, i) => scopeSection(runs, s, i))
    : [html`<p>No run has an answer in its window: no latency to plot.</p>`];
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8">\
<meta name="viewport" content="width=device-width, initial-scale=1">\
<title>Load runs compared: ${runs.map((x) => x.label).join(' · ')}</title><style>${trustedHtml(CSS)}</style></head><body>\
<h1>Load runs compared: latency by percentile</h1>\
<p class="meta">${runs.length} runs, one line each, from each run's HdrHistograms (load.json figures.raw.histograms), over its measured \
window. The x axis is the HdrHistogram plotter's: log10(1/(1-p)), so 90%, 99%, 99.9% … are evenly spaced; a line ends at its run's \
largest latency. Runs on one machine share its cores: compare runs made under the same conditions.</p>\
${runsTable(runs)}${body}</body></html>
`.text;
}

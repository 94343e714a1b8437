/**
 * load.json as one standalone HTML page (no script, no external resource): the percentile
 * table, the rate line, latency over time (per-second p50 and p99), latency by percentile,
 * throughput and errors over time per operation as inline SVG (load-charts.ts), the
 * threshold verdicts and the checks; and the same sections inside the conformance report. Every
 * value of load.json goes through `html` (results/render/escape.ts): a load.json read back is untrusted.
 */
import type { LoadReportModel } from '../../catalogue/report/load-model.ts';
import { html, trustedHtml, type Html } from './escape.ts';
import { errorsLines, headline, LATENCY_HEAD, latencyRows, loadVerdictWord, rateLine } from './load-text.ts';
import { distributionHtml, seriesChart, timelineHtml } from './load-charts.ts';
import { PLOT_CSS } from './load-plots.ts';

const CSS = trustedHtml(`body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}
td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}td:first-child,th:first-child,th:last-child,td.l{text-align:left}
.pass{color:#176b1e}.fail{color:#b00020;font-weight:bold}.off,.skip{color:#777}svg.plot{border:1px solid ` +
  `#ddd;background:#fafafa}.scroll{overflow-x:auto;max-width:100%}${PLOT_CSS}`);

/**
 * The load run's sections (headline, latency table, series, thresholds, checks, notes) with
 * headings at level `h`: the body of load.html (h = 2) and the load section the conformance
 * report gets when load.json sits beside its report.json (h = 3, load/in-report.ts).
 */
export function loadSectionsHtml(r: LoadReportModel, h: 2 | 3): Html {
  const hx = (title: string) => html`${trustedHtml(`<h${h}>`)}${title}${trustedHtml(`</h${h}>`)}`;
  const table = (
    head: readonly string[],
    rows: Html[],
  ) => html`<div class="scroll"><table><tr>${head.map((x) => html`<th>${x}</th>`)}</tr>${rows}</table></div>`;
  const parts: Html[] = headline(r).map((l) => html`<p>${l}</p>`);
  if (r.figures) {
    const rows = latencyRows(r).map((row) => html`<tr>${row.map((
      c,
      i,
    ) => html`<td${trustedHtml(i === row.length - 1 ? ' class="l"' : '')}>${c}</td>`)}</tr>`);
    const errors = errorsLines(r).map((l, i) => html`${i > 0 ? trustedHtml('<br>') : ''}${i > 0 ? '            ' : ''}${l}`);
    parts.push(hx('Latency (ms)'), table(LATENCY_HEAD, rows), html`<p>${rateLine(r)}</p>`, html`<p>${errors}</p>`);
    parts.push(hx('Latency over time (per second of the window)'), seriesChart(r.figures.series, 'load-series'));
    parts.push(distributionHtml(r.figures, hx, 'load-distribution'), timelineHtml(r.figures, hx, 'load-timeline'));
  }
  const verdictRow = (
    id: string,
    status: string,
    detail: Html,
  ) => html`<tr><td>${id}</td><td class="${status} l">${status.toUpperCase()}</td><td class="l">${detail}</td></tr>`;
  const examples = (e: readonly string[] | undefined) => (e ?? []).map((x) => html`<br>– ${x}`);
  parts.push(
    hx('Thresholds'),
    table(['threshold', 'verdict', 'detail'], r.thresholds.map((t) => verdictRow(t.id, t.status, html`${t.detail}`))),
  );
  parts.push(
    hx('Checks'),
    table(['check', 'status', 'detail'], r.checks.map((c) => verdictRow(c.id, c.status, html`${c.detail}${examples(c.examples)}`))),
  );
  if (r.notes.length) parts.push(hx('Notes'), html`<ul>${r.notes.map((n) => html`<li>${n}</li>`)}</ul>`);
  return html`${parts}`;
}

export function renderLoadHtml(r: LoadReportModel): string {
  const verdict = r.partial || r.verdict === 'incomplete' ? 'warn' : r.verdict === 'pass' ? 'pass' : 'fail';
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8">\
<meta name="viewport" content="width=device-width, initial-scale=1">\
<title>Load run ${r.run_id}: ${loadVerdictWord(r)}</title><style>${CSS}</style></head><body>\
<h1>Load run ${r.run_id}: <span class="${verdict}">${loadVerdictWord(r)}</span></h1>${loadSectionsHtml(r, 2)}</body></html>
`.text;
}

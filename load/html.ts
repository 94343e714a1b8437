/**
 * load.json as one standalone HTML page (no script, no external resource): the percentile
 * table, latency over time (per-second p50 and p99) as inline SVG, the rate line, the
 * threshold verdicts and the checks. Independent of render/html.ts (the conformance report).
 */
import { esc } from '../render/escape.ts';
import { errorsLine, headline, LATENCY_HEAD, latencyRows, loadVerdictWord, rateLine } from './render.ts';
import type { LoadReport } from './report.ts';

const CSS = `body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}
td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}td:first-child,th:first-child,th:last-child,td.l{text-align:left}
.pass{color:#176b1e}.fail{color:#b00020;font-weight:bold}.off,.skip{color:#777}svg{border:1px solid #ddd;background:#fafafa}.scroll{overflow-x:auto;max-width:100%}`;

/** Per-second p50 and p99 as two polylines on a linear ms axis. */
export function seriesSvg(series: readonly { second: number; p50: number; p99: number }[], width = 720, height = 220): string {
  if (series.length === 0) return '<p>No per-second series (no response in the window).</p>';
  const pad = 40;
  const maxY = Math.max(1, ...series.map((s) => s.p99));
  const n = Math.max(1, series.length - 1);
  const x = (i: number): number => pad + ((width - 2 * pad) * i) / n;
  const y = (v: number): number => height - pad + 0 - ((height - 2 * pad) * v) / maxY;
  const line = (k: 'p50' | 'p99'): string => series.map((s, i) => `${x(i).toFixed(1)},${y(s[k]).toFixed(1)}`).join(' ');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" style="max-width:100%;height:auto" role="img" aria-label="latency over time">`,
    `<line x1="${pad}" y1="${height - pad}" x2="${width - pad}" y2="${height - pad}" stroke="#999"/>`,
    `<line x1="${pad}" y1="${pad}" x2="${pad}" y2="${height - pad}" stroke="#999"/>`,
    `<text x="${pad}" y="${pad - 8}" font-size="11">${maxY.toFixed(1)} ms</text>`,
    `<text x="${pad}" y="${height - pad + 16}" font-size="11">0 s</text>`,
    `<text x="${width - pad}" y="${height - pad + 16}" font-size="11" text-anchor="end">${series.length} s</text>`,
    `<polyline fill="none" stroke="#1f77b4" stroke-width="1.5" points="${line('p50')}"><title>p50</title></polyline>`,
    `<polyline fill="none" stroke="#d62728" stroke-width="1.5" points="${line('p99')}"><title>p99</title></polyline>`,
    `<text x="${width - pad}" y="${pad - 8}" font-size="11" text-anchor="end"><tspan fill="#1f77b4">p50</tspan> · <tspan fill="#d62728">p99</tspan></text>`,
    '</svg>',
  ].join('');
}

/**
 * The load run's sections (headline, latency table, series, thresholds, checks, notes) with
 * headings at level `h`: the body of load.html (h = 2) and the load section the conformance
 * report gets when load.json sits beside its report.json (h = 3, load/in-report.ts).
 */
export function loadSectionsHtml(r: LoadReport, h: 2 | 3): string {
  const parts: string[] = headline(r).map((l) => `<p>${esc(l)}</p>`);
  const table = (head: string[], rows: string[]): string => `<div class="scroll"><table><tr>${head.map((x) => `<th>${esc(x)}</th>`).join('')}</tr>${rows.join('')}</table></div>`;
  if (r.figures) {
    const rows = latencyRows(r).map((row) => `<tr>${row.map((c, i) => `<td${i === row.length - 1 ? ' class="l"' : ''}>${esc(c)}</td>`).join('')}</tr>`);
    parts.push(`<h${h}>Latency (ms)</h${h}>`, table(LATENCY_HEAD, rows), `<p>${esc(rateLine(r))}</p>`, `<p>${esc(errorsLine(r)).replace(/\n/g, '<br>')}</p>`);
    parts.push(`<h${h}>Latency over time (per second of the window)</h${h}>`, seriesSvg(r.figures.series));
  }
  const verdictRow = (id: string, status: string, detail: string): string => `<tr><td>${esc(id)}</td><td class="${esc(status)} l">${esc(status.toUpperCase())}</td><td class="l">${detail}</td></tr>`;
  parts.push(`<h${h}>Thresholds</h${h}>`, table(['threshold', 'verdict', 'detail'], r.thresholds.map((t) => verdictRow(t.id, t.status, esc(t.detail)))));
  parts.push(`<h${h}>Checks</h${h}>`, table(['check', 'status', 'detail'], r.checks.map((c) => verdictRow(c.id, c.status, `${esc(c.detail)}${(c.examples ?? []).map((e) => `<br>– ${esc(e)}`).join('')}`))));
  if (r.notes.length) parts.push(`<h${h}>Notes</h${h}>`, '<ul>', ...r.notes.map((n) => `<li>${esc(n)}</li>`), '</ul>');
  return parts.join('');
}

export function renderHtml(r: LoadReport): string {
  return [
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Load run ${esc(r.run_id)}: ${loadVerdictWord(r)}</title><style>${CSS}</style></head><body>`,
    `<h1>Load run ${esc(r.run_id)}: <span class="${r.partial ? 'warn' : r.verdict}">${loadVerdictWord(r)}</span></h1>`,
    loadSectionsHtml(r, 2),
    '</body></html>\n',
  ].join('');
}

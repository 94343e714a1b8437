/**
 * load.json as one standalone HTML page (no script, no external resource): the percentile
 * table, latency over time (per-second p50 and p99) as inline SVG, the rate line, the
 * threshold verdicts and the checks. Independent of render/html.ts (the conformance report).
 */
import { errorsLine, headline, LATENCY_HEAD, latencyRows, rateLine } from './render.ts';
import type { LoadReport } from './report.ts';

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const CSS = `body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}
td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}td:first-child,th:first-child,th:last-child,td.l{text-align:left}
.pass{color:#176b1e}.fail{color:#b00020;font-weight:bold}.off,.skip{color:#777}svg{border:1px solid #ddd;background:#fafafa}`;

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
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" role="img" aria-label="latency over time">`,
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

export function renderHtml(r: LoadReport): string {
  const parts: string[] = [`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Load run ${esc(r.run_id)}: ${r.verdict.toUpperCase()}</title><style>${CSS}</style></head><body>`];
  parts.push(`<h1>Load run ${esc(r.run_id)}: <span class="${r.verdict}">${r.verdict.toUpperCase()}</span></h1>`, ...headline(r).map((l) => `<p>${esc(l)}</p>`));
  if (r.figures) {
    parts.push('<h2>Latency (ms)</h2><table><tr>', ...LATENCY_HEAD.map((h) => `<th>${esc(h)}</th>`), '</tr>');
    for (const row of latencyRows(r)) parts.push(`<tr>${row.map((c, i) => `<td${i === row.length - 1 ? ' class="l"' : ''}>${esc(c)}</td>`).join('')}</tr>`);
    parts.push('</table>', `<p>${esc(rateLine(r))}</p>`, `<p>${esc(errorsLine(r)).replace(/\n/g, '<br>')}</p>`);
    parts.push('<h2>Latency over time (per second of the window)</h2>', seriesSvg(r.figures.series));
  }
  parts.push('<h2>Thresholds</h2><table><tr><th>threshold</th><th>verdict</th><th>detail</th></tr>');
  for (const t of r.thresholds) parts.push(`<tr><td>${esc(t.id)}</td><td class="${t.status} l">${t.status.toUpperCase()}</td><td class="l">${esc(t.detail)}</td></tr>`);
  parts.push('</table><h2>Checks</h2><table><tr><th>check</th><th>status</th><th>detail</th></tr>');
  for (const c of r.checks) parts.push(`<tr><td>${esc(c.id)}</td><td class="${c.status} l">${c.status.toUpperCase()}</td><td class="l">${esc(c.detail)}${(c.examples ?? []).map((e) => `<br>– ${esc(e)}`).join('')}</td></tr>`);
  parts.push('</table>');
  if (r.notes.length) parts.push('<h2>Notes</h2><ul>', ...r.notes.map((n) => `<li>${esc(n)}</li>`), '</ul>');
  parts.push('</body></html>\n');
  return parts.join('');
}

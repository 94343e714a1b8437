/** The human renderings of a load report: the stdout table and load.md, from the report alone. */
import type { LoadReport } from './report.ts';
import { OPS } from './scenarios.ts';
import { fmtRate } from './thresholds.ts';

const LAT_COLS = ['p50', 'p90', 'p97_5', 'p99', 'max', 'mean'] as const;
const LAT_HEAD = ['p50', 'p90', 'p97.5', 'p99', 'max', 'mean'];

function mixText(r: LoadReport): string {
  return OPS.filter((op) => r.options.mix[op] > 0)
    .map((op) => `${op} ${Math.round(r.options.mix[op] * 100)}%`)
    .join(' · ');
}

function statusText(s: Record<string, number>): string {
  return Object.entries(s).map(([k, v]) => `${k}: ${v}`).join(', ');
}

function headline(r: LoadReport): string[] {
  const o = r.options;
  return [
    `hps-conformance load · ${r.target.embedded ? 'embedded reference server' : 'target'} ${r.target.base_url} · run ${r.run_id}`,
    `scenario ${o.scenario} (${mixText(r)}) · ${o.duration_s} s · ${o.connections_effective} connections · ${o.rate ? `${o.rate} req/s` : 'rate unlimited'} · cap ${o.max_requests} requests · time-out ${o.timeout_s} s`,
  ];
}

function errorCodesText(r: LoadReport): string {
  const parts: string[] = [];
  for (const op of OPS) {
    const codes = r.figures?.latency_ms.by_operation[op]?.error_codes ?? {};
    for (const [k, n] of Object.entries(codes)) parts.push(`${op} ${k} × ${n}`);
  }
  return parts.join(' · ');
}

export function renderText(r: LoadReport): string {
  const lines = headline(r);
  const f = r.figures;
  if (f) {
    const rows: string[][] = [['operation', 'responses', 'req/s', ...LAT_HEAD.map((h) => `${h} ms`), 'statuses']];
    for (const op of OPS) {
      const x = f.latency_ms.by_operation[op];
      if (x) rows.push([op, String(x.count), x.rps.toFixed(1), ...LAT_COLS.map((k) => x[k].toFixed(2)), statusText(x.statuses)]);
    }
    const o = f.latency_ms.overall;
    rows.push(['overall', String(o.count), (o.count / (f.duration_s || 1)).toFixed(1), ...LAT_COLS.map((k) => o[k].toFixed(2)), statusText(f.status_codes)]);
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
    lines.push('');
    for (const row of rows) lines.push(row.map((c, i) => (i === 0 || i === row.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd());
    const t = f.throughput_rps;
    lines.push('');
    lines.push(`throughput  mean ${t.mean} req/s · p50 ${t.p50} · p99 ${t.p99} · min ${t.min} · max ${t.max} (per-second samples over ${f.duration_s} s)`);
    lines.push(`errors      non-2xx ${f.errors.non_2xx} · time-outs ${f.errors.timeouts} · connection errors ${f.errors.connection_errors} · error rate ${fmtRate(f.errors.rate)}`);
    const codes = errorCodesText(r);
    if (codes) lines.push(`            ${codes}`);
  }
  lines.push('', 'checks');
  const idw = Math.max(...r.checks.map((c) => c.id.length), 10);
  for (const c of r.checks) {
    lines.push(`  ${c.status.toUpperCase().padEnd(4)}  ${c.id.padEnd(idw)}  ${c.detail}`);
    for (const e of c.examples ?? []) lines.push(`        ${' '.repeat(idw)}  - ${e}`);
  }
  if (r.thresholds.length) {
    lines.push('', 'thresholds (from flags)');
    for (const t of r.thresholds) lines.push(`  ${t.status === 'off' ? 'off ' : t.status.toUpperCase().padEnd(4)}  ${t.id.padEnd(idw)}  ${t.detail}`);
  }
  if (r.notes.length) {
    lines.push('', 'notes');
    for (const n of r.notes) lines.push(`  - ${n}`);
  }
  lines.push('', `verdict ${r.verdict.toUpperCase()} · exit ${r.exit_code}`);
  return lines.join('\n');
}

export function renderMarkdown(r: LoadReport): string {
  const out: string[] = [`# Load run ${r.run_id}: ${r.verdict.toUpperCase()}`, '', ...headline(r).map((l) => `${l}  `), ''];
  const f = r.figures;
  if (f) {
    out.push('| operation | responses | req/s | p50 ms | p90 ms | p97.5 ms | p99 ms | max ms | mean ms | statuses |', '|---|--:|--:|--:|--:|--:|--:|--:|--:|---|');
    for (const op of OPS) {
      const x = f.latency_ms.by_operation[op];
      if (x) out.push(`| ${op} | ${x.count} | ${x.rps.toFixed(1)} | ${LAT_COLS.map((k) => x[k].toFixed(2)).join(' | ')} | ${statusText(x.statuses)} |`);
    }
    const o = f.latency_ms.overall;
    out.push(`| **overall** | ${o.count} | ${(o.count / (f.duration_s || 1)).toFixed(1)} | ${LAT_COLS.map((k) => o[k].toFixed(2)).join(' | ')} | ${statusText(f.status_codes)} |`, '');
    const t = f.throughput_rps;
    out.push(`Throughput: mean ${t.mean} req/s, p50 ${t.p50}, p99 ${t.p99}, min ${t.min} (per-second samples).  `);
    const codes = errorCodesText(r);
    out.push(`Errors: non-2xx ${f.errors.non_2xx}, time-outs ${f.errors.timeouts}, connection errors ${f.errors.connection_errors}, error rate ${fmtRate(f.errors.rate)}${codes ? ` (${codes})` : ''}.`, '');
  }
  out.push('| check | status | detail |', '|---|---|---|');
  for (const c of r.checks) out.push(`| ${c.id} | ${c.status} | ${c.detail.replace(/\|/g, '\\|')}${(c.examples ?? []).map((e) => `<br>– ${e.replace(/\|/g, '\\|').replace(/</g, '&lt;')}`).join('')} |`);
  out.push('', '| threshold | status | detail |', '|---|---|---|');
  for (const t of r.thresholds) out.push(`| ${t.id} | ${t.status} | ${t.detail} |`);
  if (r.notes.length) out.push('', ...r.notes.map((n) => `- ${n}`));
  return out.join('\n') + '\n';
}

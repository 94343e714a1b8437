/**
 * The plain-text lines of a load report (load.json): the stdout table of `load` and `load merge`,
 * and the headline, latency rows, rate and error lines the Markdown and HTML renderings reuse.
 */
import { LOAD_OPS, PERCENTILE_KEYS, PERCENTILE_LABELS, type LoadReportModel, type Percentiles } from '../../catalogue/report/load-model.ts';

/** A rate or share as a percentage (4 decimals below 0.1%, else 2). */
export function fmtRate(r: number): string {
  return `${(r * 100).toFixed(r > 0 && r < 0.001 ? 4 : 2)}%`;
}

function mixText(r: LoadReportModel): string {
  return LOAD_OPS.filter((op) => r.options.mix[op] > 0)
    .map((op) => `${op} ${Math.round(r.options.mix[op] * 100)}%`)
    .join(' · ');
}

function statusText(s: Record<string, number>): string {
  return Object.entries(s).map(([k, v]) => `${k}: ${v}`).join(', ');
}

export function headline(r: LoadReportModel): string[] {
  const o = r.options;
  const model = o.model === 'open' ? `open model ${o.rate} req/s (${o.arrivals})` : 'closed model (as fast as answers come)';
  return [
    `hps-conformance load · ${r.target.embedded ? 'embedded reference server' : 'target'} ${r.target.base_url} · ` +
      `run ${r.run_id}${r.merged_from ? ` (merge of ${r.merged_from.length} shards)` : ''}`,
    `scenario ${o.scenario} (${mixText(r)}) · ${model} · ${o.warmup_s} s warm-up + ${o.duration_s} s · ${o.connections} connections ` +
      `· ${o.workers} worker(s)${o.shard ? ` · shard ${o.shard.index}/${o.shard.count}` : ''} · cap ${o.max_requests} requests · ` +
      `time-out ${o.timeout_s} s`,
  ];
}

/** Rows: operation, responses, req/s, the percentiles (ms), statuses. */
export function latencyRows(r: LoadReportModel): string[][] {
  const f = r.figures;
  if (!f) return [];
  const row = (
    name: string,
    p: Percentiles,
    rps: number,
    statuses: Record<string, number>,
  ): string[] => [name, String(p.count), rps.toFixed(1), ...PERCENTILE_KEYS.map((k) => p[k].toFixed(3)), statusText(statuses)];
  const rows: string[][] = [];
  for (const op of LOAD_OPS) {
    const x = f.latency_ms.by_operation[op];
    if (x) rows.push(row(op, x, x.rps, x.statuses));
  }
  const measured = f.measured_s ?? f.window_s;
  rows.push(row('overall', f.latency_ms.overall, measured > 0 ? f.latency_ms.overall.count / measured : 0, f.status_codes));
  return rows;
}

export const LATENCY_HEAD = ['operation', 'responses', 'req/s', ...PERCENTILE_LABELS.map((h) => `${h} ms`), 'statuses'];

export function rateLine(r: LoadReportModel): string {
  const f = r.figures!;
  const measured = f.measured_s ?? f.window_s;
  const over = `over ${measured} s measured${measured < f.window_s ? ` of the ${f.window_s} s window (stopped ` +
    `by ${f.stopped_by === 'max-requests' ? 'the request cap' : 'the run'})` : ''}`;
  const counts = `${f.sent} sent = ${f.responses} answered + ${f.failed ?? f.sent - f.responses} failed`;
  const limited = f.rate_limited?.count ? ` · ${f.rate_limited.count} answered 429, accepted ${f.accepted_rps} req/s` : '';
  return f.model === 'open'
    ? `rate        offered ${f.offered_rps} req/s · achieved ${f.achieved_rps} req/s ${over} · ${f.due} due = ${counts}, ` +
      `+ ${f.not_sent} never sent (short by ${fmtRate(f.shortfall)})${f.shortfall > 0.01 ? ' — RATE NOT ' +
        'REACHED' : ''}${limited}${f.rate_limited && f.rate_limited.share_of_responses > 0.01 ? ' — OFFERED RATE NOT ACCEPTED' : ''}`
    : `rate        closed model: ${f.achieved_rps} req/s achieved ${over} · ${counts}${limited}`;
}

/** The errors line and, when answers carried error codes, a second line of them (apart, so a renderer breaks only between them). */
export function errorsLines(r: LoadReportModel): string[] {
  const e = r.figures!.errors;
  const codes = Object.entries(e.by_code ?? {}).map(([k, n]) => `${k} × ${n}`).join(' · ');
  const l = r.figures!.rate_limited;
  const waits = l?.count ? ` (Retry-After ${l.retry_after_s ? `${l.retry_after_s.min}–${l.retry_after_s.max} s ` +
    `on ${l.with_retry_after}` : 'none usable'}${l.honoured ? `; waited ${l.waits}×, ${l.waited_s} s` : ''})` : '';
  const expected409 = e.expected_409_in_progress
    ? ` (of which ${e.expected_409_in_progress} expected 409 idempotency_in_progress, not errors)`
    : '';
  const line = `errors      time-outs ${e.by_kind.timeout} · connection ${e.by_kind.connection} · other ${e.by_kind.other} \
· 429 ${e.rate_limited_429}${waits} \
· other non-2xx ${statusText(e.by_status) || '0'}${expected409} · error rate ${fmtRate(e.rate)}`;
  return codes ? [line, codes] : [line];
}

export function errorsLine(r: LoadReportModel): string {
  return errorsLines(r).join('\n            ');
}

export function renderLoadText(r: LoadReportModel): string {
  const lines = headline(r);
  if (r.figures) {
    const rows = [LATENCY_HEAD, ...latencyRows(r)];
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
    lines.push('');
    for (const row of rows) lines.push(row.map((
      c,
      i,
    ) => (i === 0 || i === row.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd());
    lines.push('', rateLine(r), errorsLine(r));
  }
  lines.push('', 'checks');
  const idw = Math.max(...r.checks.map((c) => c.id.length), 14);
  for (const c of r.checks) {
    lines.push(`  ${c.status.toUpperCase().padEnd(4)}  ${c.id.padEnd(idw)}  ${c.detail}`);
    for (const e of c.examples ?? []) lines.push(`        ${' '.repeat(idw)}  - ${e}`);
  }
  if (r.thresholds.length) {
    lines.push('', 'thresholds (from flags; judged over the whole run)');
    for (const t of r.thresholds) lines.push(`  ${t.status === 'off' ? 'off ' : t.status.toUpperCase().padEnd(4)}  ${t.id.padEnd(idw)}  ${t.detail}`);
  }
  if (r.notes.length) {
    lines.push('', 'notes');
    for (const n of r.notes) lines.push(`  - ${n}`);
  }
  lines.push(
    '',
    r.partial ? `verdict PARTIAL (${r.partial_reason ?? 'interrupted'}): thresholds so ` +
      `far ${r.verdict.toUpperCase()}` : `verdict ${r.verdict.toUpperCase()} · exit ${r.exit_code}`,
  );
  return lines.join('\n');
}

/** The headline word: PARTIAL for an interrupted run, whatever its thresholds said so far. */
export function loadVerdictWord(r: LoadReportModel): string {
  return r.partial ? 'PARTIAL' : r.verdict.toUpperCase();
}

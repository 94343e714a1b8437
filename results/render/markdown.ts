/**
 * A Markdown summary for a CI page ($GITHUB_STEP_SUMMARY): verdict, certification, counts, a tally
 * per area, then failures first. Capped in size (GitHub refuses a step summary over 1 MiB): rows
 * that do not fit are counted and left to report.html.
 */
import { partlyChecked } from '../../catalogue/report/partly-checked.ts';
import { commandMarkdown, policyMarkdown, runsText } from './side-sections.ts';
import { certificationStatus } from './certificate.ts';
import { classesMarkdown } from './classes.ts';
import { obligationsMarkdown } from './obligations.ts';
import type { CertificateRead, Report, RuleReport, RuleStatus } from '../../catalogue/report/model.ts';
import { clip, md, mdCode, trustedMd, type Md } from './md.ts';
import { verdictHeadline } from '../../catalogue/report/headline.ts';

/** Default cap: well under GitHub's 1 MiB per step, leaving room for other steps' summaries. */
export const MARKDOWN_MAX_BYTES = 64 * 1024;
/** Which side was certified (Report.side): the service (`run`), a webhook receiver or an API client. */
const SIDE_TITLE = { service: '', receiver: ' (merchant webhook receiver)', client: ' (merchant API client)' } as const;

export interface MarkdownOptions {
  certificate?: CertificateRead;
  maxBytes?: number;
  /** Lines another run in the directory adds (render.ts CompanionSections), after the rules: whole if they fit, else its one-line fallback. */
  companion?: { lines: string[]; fallback: string };
}

/** A value in a table cell or a list item: inert, escaped (results/render/md.ts), cut to `max` characters. */
const cell = (s: string, max = 300): Md => md`${clip(s, max)}`;
const STATUSES: readonly RuleStatus[] = ['pass', 'fail', 'warn', 'info', 'skip', 'error', 'flaky'];
const ORDER: Record<string, number> = { fail: 0, error: 1, flaky: 2, warn: 3 };
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

function header(report: Report, cert: CertificateRead | undefined): string[] {
  const s = report.summary;
  const st = certificationStatus(report, cert);
  const side = report.side ?? 'service';
  const head = verdictHeadline(report);
  const word = head.word === 'PARTIAL' ? '⚠️ PARTIAL' : head.word === 'CONFORMANT' ? '✅ conformant' : head.word === 'INCOMPLETE' ? '⚠️ ' +
    'incomplete' : '❌ not conformant';
  return [
    md`# hps-conformance${trustedMd(SIDE_TITLE[side] ?? '')}: ${trustedMd(word)}`,
    '',
    ...(head.detail ? [md`**Partial run:** ${cell(head.detail)}. Not a verdict on the whole; not a certification.`, ''] : []),
    md`Side ${mdCode(side)} · target ${mdCode(report.target.base_url)}\
${report.target.embedded_reference ? ' (embedded reference server)' : ''} \
· run ${mdCode(report.run_id)} · seed ${mdCode(report.seed)} · ${trustedMd(runsText(report))}\
${(report.duration_ms / 1000).toFixed(1)} s · ${report.requests} requests`,
    '',
    st.certification ? md`**Certification** (report SHA-256 ${mdCode(`${String(cert!.report_sha256).slice(
      0,
      16,
    )}…`)})` : md`**Not a certification:** ${st.reason!.replace(/^not a certification: /, '')}`,
    '',
    `| ${STATUSES.join(' | ')} |`,
    `|${STATUSES.map(() => '---:').join('|')}|`,
    md`| ${STATUSES.map((k, i) => md`${i ? trustedMd(' | ') : ''}${s[k]}`)} |`,
    '',
    md`MUST rules: **${report.must.ran} of ${report.must.testable} testable ran** (${report.must.passed} passed, ${report.must.failed} failed, ${report.must.skipped} skipped; ${report.must.untestable} not exercisable through the API).`,
    ...classesMarkdown(report),
    ...policyMarkdown(report),
    ...commandMarkdown(report),
    '',
  ].map(String);
}

function tally(report: Report): string[] {
  const areas = [...new Set(report.rules.map((r) => r.area))];
  const lines = [`| area | ${STATUSES.join(' | ')} |`, `|---|${STATUSES.map(() => '---:').join('|')}|`];
  for (const a of areas) {
    const rules = report.rules.filter((r) => r.area === a);
    const counts = STATUSES.map((k) => {
      const n = rules.filter((r) => r.status === k).length;
      return n && ORDER[k] !== undefined && k !== 'warn' ? md` **${n}** |` : md` ${n} |`;
    });
    lines.push(md`| ${cell(a)} |${counts}`.text);
  }
  return ['<details><summary>Per area</summary>', '', ...lines, '', '</details>', ''];
}

function notableRow(r: RuleReport): string {
  const replay = r.evidence.find((e) => e.kind === 'replay');
  return md`| ${String(r.status).toUpperCase()} | ${mdCode(
    r.id,
    { cell: true },
  )} | ${r.level} | ${cell(r.reason ?? '')} | ${replay && replay.kind === 'replay' ? mdCode(
    clip(replay.command, 300),
    { cell: true },
  ) : ''} |`.text;
}

/** One line on what the run's own traffic cost as a model client, when it met any back-pressure or blip. */
function trafficSummary(report: Report): string | undefined {
  const c = report.traffic?.total;
  if (!c || c.throttled + c.transport_retries + c.status_retries + c.reruns === 0) return undefined;
  return md`As a model client (never judged): ${c.throttled} × 429 waited out (Retry-After ${(c.throttle_wait_ms / 1000).toFixed(1)} s), \
${c.transport_retries + c.status_retries} idempotent request(s) sent again, ${c.reruns} rule test(s) run again after a blip; \
per area in report.html.`.text;
}

export function renderMarkdown(report: Report, opts: MarkdownOptions = {}): string {
  const max = opts.maxBytes ?? MARKDOWN_MAX_BYTES;
  const notable = report.rules.filter((r) => ORDER[r.status] !== undefined).sort((a, b) => ORDER[a.status]! - ORDER[b.status]!);
  const skipped = report.rules.filter((r) => r.status === 'skip');
  const head = header(report, opts.certificate);
  const out = [...head];
  let size = bytes(out.join('\n'));
  const reserve = 400; // room for the "N more" line and the per-area table's closing
  const add = (line: string) => {
    if (size + bytes(line) + 1 > max - reserve) return false;
    out.push(line);
    size += bytes(line) + 1;
    return true;
  };
  let left = 0;
  if (notable.length) {
    add('## Failures first');
    add('');
    add('| status | rule | level | reason | replay |');
    add('|---|---|---|---|---|');
    for (const r of notable) if (!add(notableRow(r))) left++;
    add('');
  }
  if (report.setup_refusals?.length) {
    add('## Setup refused');
    add('');
    for (const c of report.setup_refusals) {
      const how = c.allowed === undefined ? 'a failure' : `allowed by the spec, not a failure: ${c.allowed}`;
      add(md`- ${mdCode(c.cause)} (${c.areas.join(', ')}; ${cell(
        how,
        300,
      )}): blocks ${c.rules.length} rule(s), each ERROR: ${cell(c.rules.join(', '), 600)}`.text);
    }
    add('');
  }
  const partly = partlyChecked(report);
  if (partly.length) {
    add('## Partly checked');
    add('');
    for (const p of partly) add(md`- ${mdCode(p.id)} (${p.status.toUpperCase()}): ${cell(p.text, 600)}`.text);
    add('');
  }
  for (const line of obligationsMarkdown(report)) if (!add(line)) break;
  for (const line of tally(report)) if (!add(line)) break;
  const cost = trafficSummary(report);
  if (cost) add(cost), add('');
  if (skipped.length && left === 0) {
    const lines = [`<details><summary>${skipped.length} rules skipped</summary>`, '', ...skipped.map((r) => md`- ${mdCode(r.id)}: ${cell(r.reason ?? '')}`.text), '', '</details>', ''];
    if (bytes(lines.join('\n')) + size < max - reserve) for (const l of lines) add(l);
    else add(`${skipped.length} rules skipped (list in report.html).`);
  }
  if (left) out.push(`… and ${left} more rule(s) that did not pass: this summary is capped at ${Math.round(max / 1024)} KiB; see report.html.`, '');
  if (opts.companion) {
    // Whole or not at all: a table cut in half reads wrong.
    if (bytes(opts.companion.lines.join('\n')) + size < max - reserve) out.push(...opts.companion.lines);
    else out.push(opts.companion.fallback, '');
  }
  return out.join('\n');
}

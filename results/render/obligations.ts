/**
 * The run's claim per obligation (report.json `obligations`, results/verdict/obligations.ts) for HTML and Markdown: the
 * totals, then the failed obligations and those not tried, with why (the ones a rule or the profile left untried before
 * those no request can show), then the passed ones counted per clause. From report.json alone; every value escaped.
 */
import type { ObligationResult, Report } from '../../catalogue/report/model.ts';
import { html, type Html } from './escape.ts';
import { clip, md, mdCode } from './md.ts';

const KIND_WORDS: Record<string, string> = {
  untestable: 'not reachable through the API',
  profile: 'the profile lacks what would try it',
  not_reached: 'not reached',
  not_proven: 'its rules were not proven',
  rule: 'a rule said it did not try it',
  no_rule: 'no rule of this side judges it',
};
const KIND_ORDER = ['rule', 'profile', 'not_reached', 'not_proven', 'no_rule', 'untestable'];
const MAX_LISTED = 400;

/** `345 obligations: 320 passed, 0 failed, 25 not tried (21 of them not reachable through the API)`. */
export function obligationTotalsLine(report: Pick<Report, 'obligations'>): string | undefined {
  const t = report.obligations?.totals;
  if (!t) return undefined;
  return `${t.obligations} obligations: ${t.passed} passed, ${t.failed} failed, ${t.not_tried} not tried` +
    (t.untestable ? ` (${t.untestable} of them not reachable through the API)` : '');
}

/** Failed first, then not tried (a rule's or the profile's doing before what no request can show), in catalogue order within. */
function notable(report: Report): ObligationResult[] {
  const entries = report.obligations?.entries ?? [];
  const rank = (e: ObligationResult) => e.status === 'failed' ? -1 : KIND_ORDER.indexOf(e.kind ?? 'no_rule');
  return entries.filter((e) => e.status !== 'passed').map((e, i) => ({ e, i })).sort((a, b) => rank(a.e) - rank(b.e) || a.i - b.i)
    .map(({ e }) => e);
}

/** What one failed or untried obligation's line says after its id. */
function whyText(e: ObligationResult): string {
  if (e.status === 'failed') return `failed${e.attributed === false ? ' (not told apart)' : ''}: ${e.why ?? e.rules.join(', ')}`;
  const needs = e.needs?.length ? ` (needs ${e.needs.join(', ')})` : '';
  return `not tried, ${KIND_WORDS[e.kind ?? ''] ?? String(e.kind)}${needs}: ${e.why ?? ''}`;
}

/** Passed obligations counted per clause: `clause (n)`. */
function passedByClause(report: Report): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const e of report.obligations?.entries ?? []) if (e.status === 'passed') counts.set(e.clause, (counts.get(e.clause) ?? 0) + 1);
  return [...counts];
}

/** Kinds counted in one line each rather than listed (the list is in report.html, folded, and in report.json). */
const GROUPED = new Set(['not_reached', 'untestable', 'no_rule']);
const grouped = (e: ObligationResult) => e.status === 'not_tried' && GROUPED.has(e.kind ?? '');

/** `258 not tried, not reached`, one per grouped kind present. */
function groupLines(listed: readonly ObligationResult[]): Array<{ kind: string; text: string; entries: ObligationResult[] }> {
  return [...GROUPED].map((kind) => {
    const entries = listed.filter((e) => grouped(e) && e.kind === kind);
    return { kind, text: `${entries.length} not tried, ${KIND_WORDS[kind]}`, entries };
  }).filter((g) => g.entries.length > 0);
}

export function obligationsHtml(report: Report): Html {
  const totals = obligationTotalsLine(report);
  if (!totals) return html``;
  const listed = notable(report);
  const own = listed.filter((e) => !grouped(e));
  const item = (e: ObligationResult) => html`<li class="ob-${e.status}"><code>${e.id}</code> ${clip(whyText(e), 900)}</li>`;
  const items = own.slice(0, MAX_LISTED).map(item);
  const more = own.length > MAX_LISTED ? html`<p>… and ${own.length - MAX_LISTED} more in report.json.</p>` : '';
  const groups = groupLines(listed)
    .map((g) => html`<details><summary>${g.text}</summary><ul>${g.entries.slice(0, MAX_LISTED).map(item)}</ul></details>`);
  const passed = passedByClause(report).map(([c, n]) => html`<code>${c}</code> (${n}) `);
  return html`<section id="obligations"><h2>Obligations of this run</h2><p id="obligation-totals">${totals}</p>\
<p class="meta">What this run showed about each obligation of the spec's clauses: a rule that passed tried every obligation \
of its clauses unless it said otherwise; an obligation not tried is no pass (docs/rulings.md).</p>\
${own.length ? html`<ul>${items}</ul>${more}` : ''}${groups}\
${passed.length ? html`<details><summary>passed, per clause</summary><p>${passed}</p></details>` : ''}</section>`;
}

/** The Markdown lines: the totals, each failed obligation and each a rule, the profile or an unproven rule left untried, then counts. */
export function obligationsMarkdown(report: Report): string[] {
  const totals = obligationTotalsLine(report);
  if (!totals) return [];
  const listed = notable(report);
  const lines = listed.filter((e) => !grouped(e)).map((e) => md`- ${mdCode(e.id)} ${clip(whyText(e), 600)}`.text);
  const groups = groupLines(listed).map((g) => md`- ${g.text} (listed in report.html)`.text);
  const body = [...lines, ...groups];
  return ['## Obligations of this run', '', md`${totals}.`.text, '', ...(body.length ? [...body, ''] : [])];
}

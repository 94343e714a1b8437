/**
 * Several implementations side by side in one self-contained page, Autobahn-style: one row per
 * rule, one column per report, cells coloured by status and linking to that report's details
 * (relative links to DIR/report.html#RULE-ID); OBSERVE rows show each implementation's observed
 * values next to each other. Rows where the implementations differ are marked and can be filtered.
 * Above the rules, one row per conformance class says what each report certifies (compare-scope.ts):
 * the header's verdict is the report's word, its scope line how many classes it certifies.
 */
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { certificationStatus } from './certificate.ts';
import { html, safeUrl, trustedHtml, type Html } from './escape.ts';
import { STATUSES, badge } from './html-sections.ts';
import { REPORT_CSS } from './html-style.ts';
import { observedPairs } from './observed.ts';
import type { CertificateRead, Report, RuleReport } from '../../catalogue/report/model.ts';
import { currentRuleId } from '../../catalogue/index.ts';
import { scopeLine, scopeRows, verdictBadge, type CompareScope } from './compare-scope.ts';

export interface CompareInput {
  /** The report's directory (holding report.json and report.html). */
  dir: string;
  report: Report;
  certificate?: CertificateRead;
  /** The column's heading (`report --compare DIR=LABEL`); default: the directory's name. */
  label?: string;
  /** Its classes and what it certifies, derived from its rules (absent: not shown). */
  scope?: CompareScope;
}

interface Column extends CompareInput {
  label: string;
  /** Relative URL of DIR/report.html from the page's own directory. */
  href: string;
  byId: Map<string, RuleReport>;
}

/** A rule's current id: a report from before a rename lists it under its former id (`formerly`), one row with the newer reports. */
function currentId(id: string): string {
  return currentRuleId(id) ?? id;
}

function columns(inputs: readonly CompareInput[], outFile: string): Column[] {
  const seen = new Map<string, number>();
  return inputs.map((x) => {
    const base = basename(resolve(x.dir)) || x.dir;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const rel = relative(dirname(resolve(outFile)), join(resolve(x.dir), 'report.html')).split(sep).map(encodeURIComponent).join('/');
    return {
      ...x,
      label: x.label ?? (n > 1 ? `${base} (${n})` : base),
      href: rel,
      byId: new Map(x.report.rules.map((r) => [currentId(r.id), r])),
    };
  });
}

/** Every rule of any report, in area order of first appearance. */
function ruleRows(cols: readonly Column[]): Array<{ id: string; area: string; level: string; title: string }> {
  const rows = new Map<string, { id: string; area: string; level: string; title: string }>();
  for (const c of cols) {
    for (const r of c.report.rules) {
      const id = currentId(r.id);
      if (!rows.has(id)) rows.set(id, { id, area: r.area, level: r.level, title: r.title });
    }
  }
  const areas = [...new Set([...rows.values()].map((r) => r.area))];
  return areas.flatMap((a) => [...rows.values()].filter((r) => r.area === a));
}

function headerCell(c: Column): Html {
  const r = c.report;
  const st = certificationStatus(r, c.certificate);
  const counts = STATUSES.filter((s) => r.summary[s]).map((s) => html`<span class="count">${badge(s)} ${r.summary[s]}</span> `);
  return html`<th class="impl"><a href="${safeUrl(c.href)}">${c.label}</a><div class="meta"><code>${r.target.base_url}</code>${r.target.embedded_reference ? ' (embedded reference)' : ''}</div>
${verdictBadge(r.verdict)}
<div class="meta">side ${r.side ?? 'service'} · seed ${r.seed} · ${r.runs} runs · MUST ${r.must.ran}/${r.must.testable}</div>
<div class="meta scope">${st.certification && c.scope ? scopeLine(c.scope) : st.certification ? 'certification' : st.reason!}</div><div class="cc">${counts}</div></th>`;
}

/** Observed keys whose values are not the same in every report that ran the rule. */
function differingKeys(cols: readonly Column[], id: string): Set<string> {
  const obs = cols.map((c) => c.byId.get(id)?.observed).filter((o): o is Record<string, unknown> => !!o);
  const keys = new Set(obs.flatMap((o) => Object.keys(o)));
  return new Set([...keys].filter((k) => new Set(obs.map((o) => JSON.stringify(o[k]))).size > 1));
}

function observedCell(observed: Record<string, unknown>, differing: ReadonlySet<string>): Html {
  const lines = observedPairs(observed, 70).map(([k, v], i) => {
    const line = html`${k}: ${v}`;
    return html`${i ? html`<br>` : ''}${differing.has(k) ? html`<mark class="d">${line}</mark>` : line}`;
  });
  return html`<div class="obsv">${lines}</div>`;
}

function cell(c: Column, id: string, differing: ReadonlySet<string>): Html {
  const r = c.byId.get(id);
  if (!r) return html`<td class="c-none" data-status="none">not run</td>`;
  const obs = r.level === 'OBSERVE' && r.observed ? observedCell(r.observed, differing) : '';
  const why = r.status !== 'pass' && r.status !== 'info' && r.reason ? html` title="${r.reason}"` : '';
  return html`<td class="c-${r.status}" data-status="${r.status}"${why}><a href="${safeUrl(`${c.href}#${encodeURIComponent(id)}`)}">${String(r.status).toUpperCase()}</a>${obs}</td>`;
}

/** Statuses differ, or OBSERVE values differ, between the reports that ran the rule. */
function differs(cols: readonly Column[], id: string): boolean {
  const ran = cols.map((c) => c.byId.get(id));
  const keys = ran.map((r) => (r ? `${r.status}|${r.level === 'OBSERVE' ? JSON.stringify(r.observed ?? null) : ''}` : 'none'));
  return new Set(keys).size > 1;
}

const CSS = `${REPORT_CSS}
table.matrix{border-collapse:collapse;font-size:12px}table.matrix td,table.matrix th{border:1px solid #e5e7eb;padding:3px ` +
  `6px;vertical-align:top;text-align:left}
table.matrix th.rule{position:sticky;left:0;background:#fff;min-width:12rem;max-width:22rem;font-weight:normal}
th.impl{min-width:11rem;max-width:20rem;font-weight:normal}.vsmall{font-weight:700;padding:1px 4px;border-radius:4px;display:inline-block}
tr.areah th{background:#f1f5f9;text-align:left;font-size:13px}tr.differs th.rule{border-left:4px solid #f59e0b}
td a{font-weight:700;text-decoration:none;color:inherit}.obsv{font-family:ui-monospace,monospace;font-size:11px;max-height:9rem;overflow:auto;word-break:break-all}
.c-pass{background:#dcfce7}.c-fail{background:#fca5a5}.c-warn{background:#fde68a}.c-info{background:#dbeafe}.c-skip{background:#f3f4f6;color:#555}.c-error{background:#c4b5fd}.c-flaky{background:#fdba74}.c-none{color:#999;background:repeating-linear-gradient(45deg,#fff,#fff 4px,#f3f4f6 4px,#f3f4f6 8px)}
.cc{margin-top:.2rem;line-height:1.9}.rt{font-size:11px;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden}.lg{display:inline-block;padding:1px 6px;border-radius:3px;font-size:12px;font-weight:700}`;

const SCRIPT = `(function(){var d=document.getElementById('only-diff'),t=document.getElementById('c-text');
function apply(){var od=d.checked,tx=t.value.toLowerCase();document.querySelectorAll('tr.rule-row').forEach(function(r){r.classList.toggle('hidden',(od&&!r.classList.contains('differs'))||(tx&&r.textContent.toLowerCase().indexOf(tx)<0))})}
d.addEventListener('input',apply);t.addEventListener('input',apply)})();`;

export function renderCompare(inputs: readonly CompareInput[], outFile: string): string {
  const cols = columns(inputs, outFile);
  const rows = ruleRows(cols);
  let area = '';
  let ndiff = 0;
  const body: Html[] = [];
  for (const r of rows) {
    if (r.area !== area) {
      area = r.area;
      body.push(html`<tr class="areah"><th colspan="${cols.length + 1}">${area}</th></tr>\n`);
    }
    const d = differs(cols, r.id);
    if (d) ndiff++;
    const keys = r.level === 'OBSERVE' ? differingKeys(cols, r.id) : new Set<string>();
    body.push(html`<tr class="rule-row${d ? ' differs' : ''}" id="${r.id}"><th class="rule"><code>${r.id}</code> <span class="lvl">${r.level}</span><div class="meta rt" title="${r.title}">${r.title}</div></th>${cols.map((c) => cell(c, r.id, keys))}</tr>\n`);
  }
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>hps-conformance: ${cols.length} implementations compared</title><style>${trustedHtml(CSS)}</style></head><body>
<h1>Hosted Payment Service API v1 — implementations compared</h1>
<p>${cols.length} reports, ${rows.length} rules; <b id="ndiff">${ndiff}</b> rule(s) where they differ (status, or the values an OBSERVE rule recorded). Each cell links to that report's details; OBSERVE rows show what each implementation does where the spec is silent.</p>
<p class="legend">${(['pass', 'fail', 'warn', 'info', 'skip', 'error', 'flaky'] as const).map((k) => html`<span class="lg c-${k}">${k.toUpperCase()}</span> `)}<span class="lg c-none">not run</span> · <mark class="d">marked</mark> observed values differ between implementations</p>
<div class="filters"><label><input type="checkbox" id="only-diff"> only rules that differ</label><input id="c-text" placeholder="filter by id or text" size="24"></div>
<div class="scroll"><table class="matrix"><thead><tr><th class="rule">rule</th>${cols.map(headerCell)}</tr></thead><tbody>
${scopeRows(cols.map((c) => c.scope))}${body}
</tbody></table></div>
<script>
${trustedHtml(SCRIPT)}
</script>
</body></html>
`.text;
}

/**
 * The self-contained HTML conformance report: no external assets, no script needed to read it (a
 * small inline script filters, opens a linked rule and copies curl lines). Rendered from
 * report.json (and certificate.json when present) alone; every value is escaped.
 */
import { partlyChecked } from '../../catalogue/report/partly-checked.ts';
import { html, trustedHtml, type Html } from './escape.ts';
import { evidenceHtml, type EvidenceContext } from './html-evidence.ts';
import { mutationHtml } from './html-mutation.ts';
import { casesHtml } from './html-cases.ts';
import { commandHtml, pageHeading, policyHtml, runsText } from './side-sections.ts';
import { classesHtml } from './classes.ts';
import { obligationsHtml } from './obligations.ts';
import {
  STATUSES,
  areaAnchor,
  badge,
  certificateHtml,
  failuresHtml,
  hasAmbient,
  observedSectionHtml,
  tallyHtml,
  trafficHtml,
} from './html-sections.ts';
import { REPORT_CSS } from './html-style.ts';
import { prettyJsonHtml } from './json-diff.ts';
import type { CertificateRead, Evidence, Report, RuleReport, RuleStatus } from '../../catalogue/report/model.ts';
import { verdictHeadline } from '../../catalogue/report/headline.ts';

export interface HtmlOptions {
  /** certificate.json from the report's directory, when there is one. */
  certificate?: CertificateRead;
  /** A section another run in the directory adds (render.ts CompanionSections), before the rules. */
  companionHtml?: string;
}

function testsTable(r: RuleReport): Html | '' {
  if (!r.tests.length) return '';
  const rows = r.tests.map((t) => {
    // The first failing test's error is the rule's reason: printed once, above.
    const err = t.error && !(r.reason ?? '').startsWith(t.error) ? html`<div class="err">${t.error}</div>` : '';
    return html`<tr><td>${t.title}${err}</td><td class="s-${t.state}">${t.state}</td><td>${t.duration_ms}</td><td>${t.requests}</td></tr>`;
  });
  return html`<div class="scroll"><table class="tests"><tr><th>test</th><th>state</th><th>ms</th><th>requests</th></tr>${rows}</table></div>`;
}

/** What explains a failure fastest comes first: timelines, the diff, the counterexample; exchanges and the replay line last. */
const EVIDENCE_ORDER: Record<Evidence['kind'], number> = { timeline: 0, mismatch: 1, property: 2, note: 3, exchange: 4, replay: 5 };
const rank = (e: Evidence) => (e.kind === 'exchange' && e.failing ? 2.5 : EVIDENCE_ORDER[e.kind] ?? 9);
const ordered = (es: readonly Evidence[]) => [...es].sort((a, b) => rank(a) - rank(b));

/** An OBSERVE rule's values are its result; on other rules they are background, folded. */
function observedBlock(r: RuleReport): Html {
  const pre = html`<pre class="json">${prettyJsonHtml(r.observed)}</pre>`;
  return r.level === 'OBSERVE' ? html`<div class="ev observed"><b>observed</b>${pre}</div>` : html`<details class="ev observed"><summary>observed values</summary>${pre}</details>`;
}

function ruleRow(r: RuleReport, baseUrl: string): Html {
  const open = ['fail', 'error', 'flaky'].includes(r.status) ? trustedHtml(' open') : '';
  const ctx: EvidenceContext = { ruleId: r.id, reason: r.reason, baseUrl };
  const ambient = hasAmbient(r) ? html` <a class="tag" href="#about-ambient" title="found by a check run on every response; see the note">ambient</a>` : '';
  return html`<details class="rule st-${r.status}" data-status="${r.status}" data-area="${r.area}" data-level="${r.level}" id="${r.id}"${open}>
<summary>${badge(r.status)} <code class="rid">${r.id}</code> <span class="lvl">${r.level}</span>${ambient} <span class="title">${r.title}</span></summary>
<div class="body"><p class="meta">Spec: ${r.spec}</p>
${r.reason ? html`<p class="reason">${r.reason}</p>` : ''}
${r.ruling ? html`<p class="ruling">Ruling on a spec gap: ${r.ruling}</p>` : ''}
${r.observed ? observedBlock(r) : ''}
${ordered(r.evidence).map((e) => html`${evidenceHtml(e, ctx)}\n`)}
${casesHtml(r)}
${testsTable(r)}</div></details>`;
}

const SCRIPT = `(function(){var q=function(id){return document.getElementById(id)};
function apply(){var st=q('f-status').value,ar=q('f-area').value,lv=q('f-level').value,tx=q('f-text').value.toLowerCase();
document.querySelectorAll('details.rule').forEach(function(d){var show=(!st||d.dataset.status===st)&&(!ar||d.dataset.area===ar)&&(!lv||d.dataset.level===lv)&&(!tx||d.textContent.toLowerCase().indexOf(tx)>=0);d.classList.toggle('hidden',!show)});
document.querySelectorAll('section.area').forEach(function(s){s.classList.toggle('hidden',!s.querySelector('details.rule:not(.hidden)'))})}
['f-status','f-area','f-level','f-text'].forEach(function(id){q(id).addEventListener('input',apply)});
function reveal(){var id=decodeURIComponent(location.hash.slice(1));var ` +
  `d=id&&document.getElementById(id);if(d&&d.tagName==='DETAILS'){d.classList.remove('hidden');var ` +
  `s=d.closest('section.area');if(s)s.classList.remove('hidden');d.open=true;d.scrollIntoView()}}
window.addEventListener('hashchange',reveal);reveal();
document.querySelectorAll('.copy-btn').forEach(function(b){b.addEventListener('click',function(){var t=b.parentNode.querySelector('pre.copy').textContent;if(navigator.clipboard)navigator.clipboard.writeText(t).then(function(){b.textContent='copied'},function(){b.textContent='select and copy'});})});})();`;

export function renderHtml(report: Report, opts: HtmlOptions = {}): string {
  const s = report.summary;
  const areas = [...new Set(report.rules.map((r) => r.area))];
  const head = verdictHeadline(report);
  const tone = head.word === 'CONFORMANT' ? 'v-ok' : head.word === 'NOT CONFORMANT' ? 'v-bad' : 'v-warn';
  const base = report.target.base_url;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>hps-conformance: ${head.word.toLowerCase()} — ${base}</title>
<style>${trustedHtml(REPORT_CSS)}</style></head><body>
<h1>${pageHeading(report)}</h1>
<p><span class="verdict ${tone}" id="verdict">${head.word}</span>${head.detail ? html` <span id="partial">partial run: ${head.detail}; not a verdict on the whole, not a certification</span>` : ''}</p>
<p>Side: <b id="side">${report.side ?? 'service'}</b> · target <code>${base}</code>\
${report.target.embedded_reference ? ' (embedded reference server)' : ''} \
· run <code>${report.run_id}</code> · seed <code>${report.seed}</code> · ${runsText(report)}${report.started_at} \
· ${(report.duration_ms / 1000).toFixed(1)} s · ${report.requests} requests · ${report.tool.name} ${report.tool.version}</p>
${certificateHtml(report, opts.certificate)}
${classesHtml(report)}
${policyHtml(report)}
<p class="counts" id="counts">${STATUSES.map((k) => html`<span class="count">${badge(k)} ${s[k]}</span>`)}</p>
<p><b>MUST rules: ${report.must.ran} of ${report.must.testable} testable ran</b> \
(${report.must.passed} passed, ${report.must.failed} failed, ${report.must.skipped} skipped; \
${report.must.untestable} not exercisable through the API). \
Only MUST rules decide the verdict; SHOULD violations warn; OBSERVE records what the spec leaves open.</p>
${failuresHtml(report)}
${setupRefusalsHtml(report)}
${partlyCheckedHtml(report)}
${obligationsHtml(report)}
${commandHtml(report)}
${tallyHtml(report)}
${trafficHtml(report)}
${observedSectionHtml(report)}
${report.mutation ? mutationHtml(report.mutation) : ''}
${trustedHtml(opts.companionHtml ?? '')}
<h2>All rules</h2>
<div class="filters">
<label>status <select id="f-status"><option value="">all</option>${[
  'fail',
  'error',
  'flaky',
  'warn',
  'info',
  'skip',
  'pass',
].map((k) => html`<option>${k}</option>`)}</select></label>
<label>area <select id="f-area"><option value="">all</option>${areas.map((a) => html`<option>${a}</option>`)}</select></label>
<label>level <select id="f-level"><option value="">all</option><option>MUST</option><option>SHOULD</option><option>OBSERVE</option></select></label>
<input id="f-text" placeholder="filter by id or text" size="24">
</div>
<main id="rules">
${areas.map((a) => html`<section class="area" data-area="${a}" id="${areaAnchor(a)}"><h2>${a}</h2>${report.rules.filter((r) => r.area === a).map((r) => html`${ruleRow(r, base)}\n`)}</section>\n`)}
</main>
<script>
${trustedHtml(SCRIPT)}
</script>
</body></html>
`.text;
}

/** Each request the rules' setup needed and the target refused, once, with the rules it blocked (ERROR, not FAIL). */
function setupRefusalsHtml(report: Report): Html | string {
  const refusals = report.setup_refusals ?? [];
  if (!refusals.length) return '';
  const items = refusals.map((c) => {
    const blocked = c.rules.map((id) => html`<a href="#${id}"><code>${id}</code></a> `);
    const allowed = c.allowed === undefined ? '' : html`, allowed by the spec, not a failure: ${c.allowed}`;
    return html`<li><code>${c.cause}</code> (${c.areas.join(', ')})${allowed}: blocks ${blocked}</li>`;
  });
  return html`<section id="setup-refusals"><h2>Setup refused</h2>\
<p>Each counts as a failure, unless the spec allows it (said beside it); \
the rules it blocked could not be checked (ERROR, blocked by it).</p><ul>${items}</ul></section>`;
}

/** Rules that ran but could not check all they state, and what would complete them (catalogue/report/partly-checked.ts). */
function partlyCheckedHtml(report: Report): Html | string {
  const partly = partlyChecked(report);
  if (!partly.length) return '';
  return html`<section id="partly-checked"><h2>Partly checked</h2><ul>${partly.map((p) => html`<li><a href="#${p.id}"><code>${p.id}</code></a> ${badge(p.status as RuleStatus)} ${p.text}</li>`)}</ul></section>`;
}

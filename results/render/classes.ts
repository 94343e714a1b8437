/** The conformance classes of a report (docs/classes.md) for HTML, Markdown and JUnit: every value escaped for its context. */
import type { ClassVerdict, Report } from '../../catalogue/report/model.ts';
import { html, type Html } from './escape.ts';
import { md, type Md } from './md.ts';

const LABEL: Record<ClassVerdict['status'], string> = {
  conformant: 'conformant',
  not_conformant: 'not conformant',
  not_tested: 'not tested',
};
const label = (c: ClassVerdict) => LABEL[c.status] ?? String(c.status);
const detail = (c: ClassVerdict) => `${c.ran} of ${c.testable} testable MUST rules ran, ${c.passed} passed${c.reason ? ` ` +
  `· ${c.reason}` : ''}`;

export function classesHtml(report: Report): Html {
  if (!report.classes?.length) return html``;
  return html`<section id="classes"><h2>Conformance classes</h2><table class="kv">${report.classes.map((c) => html`<tr><th><code>${c.id}</code></th><td class="${`cls ${c.status === 'conformant' ? 'ok' : 'not'}`}">${label(c)}</td><td>${detail(c)}</td></tr>`)}</table>
<p class="meta">A class is conformant only when every testable MUST rule of it ran and passed, and none said it left an obligation of its \
clauses untried (docs/classes.md).</p>${gateHtml(report)}</section>`;
}

/** The `--require` gate in one line: the classes required and whether each held. */
function gateLine(gate: NonNullable<Report['gate']>): string {
  const unmet = Array.isArray(gate.unmet) ? gate.unmet : [];
  return unmet.length
    ? `CI gate (--require ${gate.required.join(', ')}): unmet: ${unmet.map((u) => `${u.id} (${u.why})`).join('; ')}`
    : `CI gate (--require ${gate.required.join(', ')}): met`;
}

function gateHtml(report: Report): Html {
  if (!report.gate) return html``;
  return html`<p id="gate" class="${report.gate.unmet.length ? 'cls not' : 'cls ok'}">${gateLine(report.gate)}</p>`;
}

export function classesMarkdown(report: Report): Md[] {
  if (!report.classes?.length) return [];
  return [
    md``,
    md`| class | status | what ran |`,
    md`|---|---|---|`,
    ...report.classes.map((c) => md`| ${c.id} | ${label(c)} | ${detail(c)} |`),
    ...(report.gate ? [md``, md`${gateLine(report.gate)}`] : []),
  ];
}

/** JUnit properties `class.ID` = status (and why), for the first testsuite. */
export function classProperties(report: Report): Array<[string, string]> {
  const classes: Array<[string, string]> = (report.classes ?? []).map((c) => [`class.${c.id}`, `${label(c)}: ${detail(c)}`]);
  return report.gate ? [...classes, ['gate', gateLine(report.gate)]] : classes;
}

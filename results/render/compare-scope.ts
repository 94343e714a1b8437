/**
 * What each compared report certifies, class by class (`report --compare`): one row per
 * conformance class, one column per report, each cell the class's status and whether the report
 * certifies it, so a URL-only run that certified `core` alone never reads like a full
 * certification. The classes and the certified set are derived from each report's rules by the
 * caller (cli/report-command.ts), never taken from the file as written.
 */
import type { ClassVerdict, Verdict } from '../../catalogue/report/model.ts';
import { html, type Html } from './escape.ts';

export interface CompareScope {
  classes: ClassVerdict[];
  /** The classes this report certifies (conformant with their dependencies, in a run that can certify). */
  certified: string[];
}

const LABEL: Record<ClassVerdict['status'], string> = {
  conformant: 'conformant',
  not_conformant: 'not conformant',
  not_tested: 'not tested',
};
const TONE: Record<ClassVerdict['status'], string> = { conformant: 'c-pass', not_conformant: 'c-fail', not_tested: 'c-skip' };

/** The verdict word and its colour, as every rendering says it. */
export function verdictBadge(v: Verdict): Html {
  const word = v === 'conformant' ? 'conformant' : v === 'incomplete' ? 'incomplete' : 'not conformant';
  return html`<div class="${v === 'conformant' ? 'v-ok' : v === 'incomplete' ? 'v-warn' : 'v-bad'} vsmall">${word}</div>`;
}

/** The header's scope line: how many classes are certified, and which. */
export function scopeLine(s: CompareScope): string {
  if (!s.certified.length) return `certifies no class (of ${s.classes.length})`;
  return `certifies ${s.certified.length} of ${s.classes.length} classes: ${s.certified.join(', ')}`;
}

function scopeCell(s: CompareScope | undefined, id: string): Html {
  const c = s?.classes.find((x) => x.id === id);
  if (!c) return html`<td class="c-none" data-class-status="none">not reported</td>`;
  const certified = s!.certified.includes(id);
  const title = c.reason ? html` title="${c.reason}"` : '';
  const mark = certified ? html` · <span class="cert-mark">certified</span>` : '';
  const needs = c.missing.length ? ` · needs ${c.missing.join(', ')}` : '';
  return html`<td class="${TONE[c.status]}" data-class-status="${c.status}"${title}><b>${LABEL[c.status]}</b>${mark}\
<div class="meta">${c.ran}/${c.testable} MUST ran${needs}</div></td>`;
}

/** The class rows: every class any report has, in the first report's order, then the others'. */
export function scopeRows(scopes: ReadonlyArray<CompareScope | undefined>): Html {
  const ids = [...new Set(scopes.flatMap((s) => s?.classes.map((c) => c.id) ?? []))];
  if (!ids.length) return html``;
  return html`<tr class="areah"><th colspan="${scopes.length + 1}">conformance classes: the certification scope of each report</th></tr>
${ids.map((id) => html`<tr class="class-row" id="class-${id}"><th class="rule"><code>${id}</code></th>${scopes.map((s) => scopeCell(
  s,
  id,
))}</tr>\n`)}`;
}

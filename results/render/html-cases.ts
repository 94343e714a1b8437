/**
 * A rule's fixed cases in the HTML report: how many rows of its tables passed, and every row that
 * did not (number, title, reason), each with the command that replays it alone.
 */
import { html, type Html } from './escape.ts';
import type { RuleReport } from '../../catalogue/report/model.ts';

export function casesHtml(r: RuleReport): Html | '' {
  const cases = r.cases ?? [];
  if (cases.length === 0) return '';
  const bad = cases.filter((c) => c.status !== 'pass');
  const summary = html`<p class="meta">Fixed cases: ${cases.length - bad.length} of ${cases.length} passed${bad.length ? html`; ${bad.length} did not (replay one: <code>run --rule ${r.id} --case N</code>)` : ''}.</p>`;
  if (bad.length === 0) return summary;
  const rows = bad.map((c) => html`<tr><td>${c.n}</td><td>${c.title}${c.reason ? html`<div class="err">${c.reason}</div>` : ''}</td><td class="s-${c.status === 'fail' ? 'fail' : 'skip'}">${c.status}</td></tr>`);
  return html`${summary}<div class="scroll"><table class="tests cases"><tr><th>case</th><th>title</th><th>status</th></tr>${rows}</table></div>`;
}

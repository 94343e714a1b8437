/** The mutation score section of the HTML report: which planted faults the suite caught, by which rules. */
import type { MutationSummary } from '../../catalogue/report/mutation.ts';
import { html, type Html } from './escape.ts';

export function mutationHtml(v: MutationSummary): Html {
  const rows = v.results
    .map((r) => {
      const byChance = html`<b>BY CHANCE</b> ${r.seeds.filter((s) => s.caught).length}/${r.seeds.length}`;
      const missed = r.control ? html`<b>ALARMED</b>` : html`<b>MISSED</b>`;
      const result = r.caught ? (r.control ? 'held' : 'caught') : r.byChance ? byChance : missed;
      const codes = (xs: readonly string[]) => xs.map((x) => html`<code>${x}</code> `);
      const fault = html`<code>${r.fault}</code><div class="meta">${r.description}</div>`;
      return html`<tr class="${r.caught ? '' : 'missed'}"><td>${result}</td><td>${fault}</td>\
<td>${codes(r.expected)}</td><td>${codes(r.failed)}</td></tr>`;
    });
  const unexercised = v.unexercised?.length
    ? ` Rules no fault exercises: ${v.unexercised.join(', ')}.`
    : ' Every testable MUST and SHOULD rule is declared by at least one fault.';
  return html`<section id="mutation"><h2>Mutation score: ${v.caught}/${v.faults} planted faults caught (${(v.score * 100).toFixed(1)}%)</h2>
<p>Each fault is a realistic bug planted in the reference server; the suite ran against each, scoped to the areas of the rules it \
declares (seeds ${v.seeds.join(', ')}, ${(v.duration_ms / 1000).toFixed(0)} s).${unexercised}</p>
<details><summary>${v.results.length} faults</summary><div class="scroll"><table class="tests">\
<tr><th>result</th><th>fault</th><th>expected rules</th><th>rules that failed</th></tr>${rows}</table></div></details></section>`;
}

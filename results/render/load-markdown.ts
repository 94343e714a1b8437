/**
 * load.md, and the load section of the conformance summary.md, from a load report alone. Every
 * value of load.json goes through `md` (results/render/md.ts): a load.json read back is untrusted.
 */
import type { LoadReportModel } from '../../catalogue/report/load-model.ts';
import { errorsLines, headline, LATENCY_HEAD, latencyRows, loadVerdictWord, rateLine } from './load-text.ts';
import { md, trustedMd } from './md.ts';

/**
 * The load run's Markdown below its title: load.md's body, and the load section of the
 * conformance summary.md when load.json sits beside report.json (load/in-report.ts).
 */
export function loadSectionsMarkdown(r: LoadReportModel): string[] {
  const out: string[] = [...headline(r).map((l) => `${md`${l}`}  `), ''];
  if (r.figures) {
    out.push(`| ${LATENCY_HEAD.join(' | ')} |`, `|---|${LATENCY_HEAD.slice(1, -1).map(() => '--:').join('|')}|---|`);
    for (const row of latencyRows(r)) out.push(`| ${row.map((c) => md`${c}`).join(' | ')} |`);
    out.push('', `${md`${rateLine(r)}`}  `, errorsLines(r).map((l) => md`${l}`).join('  \n            '), '');
  }
  out.push('| check | status | detail |', '|---|---|---|');
  const examples = (e: readonly string[] | undefined) => (e ?? []).map((x) => md`${trustedMd('<br>')}– ${x}`);
  for (const c of r.checks) out.push(md`| ${c.id} | ${c.status} | ${c.detail}${examples(c.examples)} |`.text);
  out.push('', '| threshold | status | detail |', '|---|---|---|');
  for (const t of r.thresholds) out.push(md`| ${t.id} | ${t.status} | ${t.detail} |`.text);
  if (r.notes.length) out.push('', ...r.notes.map((n) => md`- ${n}`.text));
  return out;
}

export function renderLoadMarkdown(r: LoadReportModel): string {
  return [md`# Load run ${r.run_id}: ${loadVerdictWord(r)}`.text, '', ...loadSectionsMarkdown(r)].join('\n') + '\n';
}

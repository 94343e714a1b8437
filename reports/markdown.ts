/** A Markdown summary for a CI page: verdict, counts, then every rule that did not pass. */
import type { Report } from './report-types.ts';

/** Which side was certified (Report.side): the service (`run`), a webhook receiver or an API client. */
const SIDE_TITLE = { service: '', receiver: ' (merchant webhook receiver)', client: ' (merchant API client)' } as const;

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderMarkdown(report: Report): string {
  const s = report.summary;
  const lines = [
    `# hps-conformance${SIDE_TITLE[report.side ?? 'service']}: ${report.verdict === 'conformant' ? '✅ conformant' : '❌ not conformant'}`,
    '',
    `Target \`${report.target.base_url}\`${report.target.embedded_reference ? ' (embedded reference server)' : ''} · run \`${report.run_id}\` · seed \`${report.seed}\` · ${report.runs} runs per property · ${(report.duration_ms / 1000).toFixed(1)} s · ${report.requests} requests`,
    '',
    `| pass | fail | warn | info | skip | error | flaky |`,
    `|---:|---:|---:|---:|---:|---:|---:|`,
    `| ${s.pass} | ${s.fail} | ${s.warn} | ${s.info} | ${s.skip} | ${s.error} | ${s.flaky} |`,
    '',
    `MUST rules: **${report.must.ran} of ${report.must.testable} testable ran** (${report.must.passed} passed, ${report.must.failed} failed, ${report.must.skipped} skipped; ${report.must.untestable} not exercisable through the API).${report.must.ran < report.must.testable / 2 ? ' Most MUST rules did not run: this is not a certification.' : ''}`,
    '',
  ];
  const notable = report.rules.filter((r) => ['fail', 'error', 'flaky', 'warn'].includes(r.status));
  if (notable.length) {
    lines.push('| status | rule | level | reason | replay |', '|---|---|---|---|---|');
    for (const r of notable) {
      const replay = r.evidence.find((e) => e.kind === 'replay');
      lines.push(`| ${r.status.toUpperCase()} | \`${r.id}\` | ${r.level} | ${cell(r.reason ?? '')} | ${replay && replay.kind === 'replay' ? `\`${cell(replay.command)}\`` : ''} |`);
    }
    lines.push('');
  }
  const skipped = report.rules.filter((r) => r.status === 'skip');
  if (skipped.length) {
    lines.push(`<details><summary>${skipped.length} rules skipped</summary>`, '', ...skipped.map((r) => `- \`${r.id}\`: ${cell(r.reason ?? '')}`), '', '</details>', '');
  }
  return lines.join('\n');
}

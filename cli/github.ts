/**
 * GitHub Actions workflow commands: one `::error` annotation per FAIL rule.
 * Escaping follows the runner's rules: in the message %, CR and LF are
 * percent-encoded; in a property value also ':' and ','.
 */
import type { LoadReport } from '../load/report.ts';
import type { Report } from '../catalogue/report/model.ts';
import type { UnmetRequirement } from '../results/verdict/require.ts';
import { inertLine } from '../core/inert.ts';

export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export function githubAnnotations(report: Report): string[] {
  return report.rules
    .filter((r) => r.status === 'fail')
    .map((r) => {
      const replay = r.evidence.find((e) => e.kind === 'replay');
      // One line per value from outside (a reason cannot add lines or controls); the line break before replay is ours.
      const message = `${inertLine(r.reason ?? 'failed')}${replay && replay.kind === 'replay' ? `\nreplay: ${inertLine(replay.command)}` : ''}`;
      return `::error title=${escapeProperty(inertLine(r.id))}::${escapeData(message)}`;
    });
}

/** One `::error` annotation per failed threshold or check of a load run (title `load <id>`). */
export function loadAnnotations(report: LoadReport): string[] {
  return [...report.thresholds, ...report.checks]
    .filter((x) => x.status === 'fail')
    .map((x) => `::error title=${escapeProperty(inertLine(`load ${x.id}`))}::${escapeData(inertLine(x.detail))}`);
}

/** One `::error` annotation per required conformance class not conformant or not tested (title `require <class>`). */
export function requireAnnotations(unmet: readonly UnmetRequirement[]): string[] {
  return unmet.map((u) => `::error title=${escapeProperty(inertLine(`require ${u.id}`))}::${escapeData(inertLine(`conformance ` +
    `class ${u.id} is ${u.why} (--require ${u.id})`))}`);
}

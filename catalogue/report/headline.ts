/**
 * The verdict as a headline says it (console verdict line, report.html, summary.md). A partial
 * report (an interrupted run: the rules not reached are SKIP) is PARTIAL whatever its rules say,
 * never conformant-looking; it says whether a MUST rule failed before the interruption.
 */
import type { Report } from './model.ts';

export interface VerdictHeadline {
  /** CONFORMANT, NOT CONFORMANT, INCOMPLETE (nothing failed, a testable MUST rule not proven) or PARTIAL. */
  word: 'CONFORMANT' | 'NOT CONFORMANT' | 'INCOMPLETE' | 'PARTIAL';
  /** PARTIAL only: why, and what the results so far show. */
  detail?: string;
}

const WORD = { conformant: 'CONFORMANT', not_conformant: 'NOT CONFORMANT', incomplete: 'INCOMPLETE' } as const;

export function verdictHeadline(report: Pick<Report, 'verdict' | 'partial' | 'partial_reason'>): VerdictHeadline {
  if (report.partial) {
    const sofar = report.verdict === 'not_conformant' ? 'not conformant: a MUST rule failed before the stop' : 'not judged: the rules ' +
      'not reached are SKIP';
    return { word: 'PARTIAL', detail: `${report.partial_reason ?? 'interrupted'}; ${sofar}` };
  }
  // A report.json from elsewhere may carry any word: what is not one of the three is not conformant.
  return { word: Object.hasOwn(WORD, report.verdict) ? WORD[report.verdict] : 'NOT CONFORMANT' };
}

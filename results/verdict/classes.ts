/**
 * Conformance class verdicts (docs/classes.md) from a report's rule statuses alone, so
 * `verify-certificate` derives them again from report.json: a class is conformant when every
 * testable MUST rule of it ran and passed, not conformant when one failed (FAIL or FLAKY), and
 * not tested otherwise, with why (profile fields missing, filtered out, stopped early, ERROR,
 * how many ran, an obligation one of its rules said it did not try: results/verdict/obligations.ts).
 */
import { classesOfSide, getRule, type ConformanceClass } from '../../catalogue/index.ts';
import type { ClassVerdict, ObligationsReport, Report } from '../../catalogue/report/model.ts';
import { missingFields } from './missing-fields.ts';
import { declaredNotTried, obligationsOf } from './obligations.ts';

type SideOf = Report['side'];

function sideKey(side: SideOf): 'receiver' | 'client' | undefined {
  return side === 'receiver' || side === 'client' ? side : undefined;
}

export function classVerdict(c: ConformanceClass, report: Report, obligations: ObligationsReport = obligationsOf(report)): ClassVerdict {
  const byId = new Map(report.rules.map((r) => [r.id, r]));
  const testable = c.rules.filter((id) => !getRule(id).untestable);
  let ran = 0, passed = 0, failed = 0, errored = 0, filtered = 0, notReached = 0;
  const missing = new Set<string>();
  for (const id of testable) {
    const r = byId.get(id);
    if (!r) { filtered++; continue; }
    if (r.status === 'pass') { ran++; passed++; }
    else if (r.status === 'fail' || r.status === 'flaky') { ran++; failed++; }
    else if (r.status === 'error') errored++;
    else if (/^not (reached|run):/.test(r.reason ?? '')) notReached++;
    for (const f of missingFields(id, r)) missing.add(f);
  }
  // An obligation one of its rules said it did not try: the class is not tested, whatever its rules' statuses.
  const untried = declaredNotTried(obligations, new Set<string>(testable));
  for (const f of untried.flatMap((o) => o.needs ?? [])) missing.add(f);
  const notTried = untried.map((o) => ({ obligation: o.id, why: o.why ?? '' }));
  const counts = {
    testable: testable.length, ran, passed, failed, missing: [...missing], ...(notTried.length ? { not_tried: notTried } : {}),
  };
  if (failed) return { id: c.id, status: 'not_conformant', ...counts, reason: `${failed} MUST rule(s) failed` };
  if (passed === testable.length && !untried.length) return { id: c.id, status: 'conformant', ...counts };
  const why: string[] = [];
  if (missing.size) why.push(`needs ${[...missing].join(', ')}`);
  if (untried.length) why.push(`${untried.map((o) => o.id).join(', ')} not tried (${untried[0]!.why})`.slice(0, 600));
  if (filtered) why.push(`${filtered} filtered out`);
  if (notReached) why.push(`${notReached} not reached (the run stopped early)`);
  if (errored) why.push(`${errored} could not be checked (ERROR)`);
  why.push(`${ran} of ${testable.length} ran`);
  return { id: c.id, status: 'not_tested', ...counts, reason: why.join('; ') };
}

/** Every class of the report's side, in declaration order. */
export function classVerdicts(report: Report): ClassVerdict[] {
  const obligations = obligationsOf(report);
  return classesOfSide(sideKey(report.side)).map((c) => classVerdict(c, report, obligations));
}

/** Sets the report's per-obligation claim and its classes, both from its rules (the run, a side, `webhooks judge`). */
export function settleClasses(report: Report): ClassVerdict[] {
  report.obligations = obligationsOf(report);
  return (report.classes = classVerdicts(report));
}

/** What a not-tested or not-conformant class lacks, for the verdict line: the fields, or the reason. */
function short(v: ClassVerdict): string {
  if (v.status === 'not_conformant') return `${v.failed} failed`;
  const untried = v.not_tried?.length ? `${v.not_tried.map((o) => o.obligation).join(', ')} not tried` : '';
  if (v.missing.length) return [v.missing.join(', '), untried].filter(Boolean).join(': ');
  if (untried) return untried;
  return v.reason ?? `${v.ran} of ${v.testable} ran`;
}

/** `conformant: core, scopes · not conformant: webhooks (2 failed) · not tested: isolation-live (keys.live)` */
export function classesLine(classes: readonly ClassVerdict[]): string {
  const ok = classes.filter((c) => c.status === 'conformant').map((c) => c.id);
  const bad = classes.filter((c) => c.status === 'not_conformant').map((c) => `${c.id} (${short(c)})`);
  const untested = classes.filter((c) => c.status === 'not_tested').map((c) => `${c.id} (${short(c)})`);
  const parts = [`conformant: ${ok.length ? ok.join(', ') : 'none'}`];
  if (bad.length) parts.push(`not conformant: ${bad.join(', ')}`);
  if (untested.length) parts.push(`not tested: ${untested.join(', ')}`);
  return parts.join(' · ');
}

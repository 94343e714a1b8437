/**
 * Conformance class verdicts (docs/classes.md) from a report's rule statuses alone, so
 * `verify-certificate` derives them again from report.json: a class is conformant when every
 * testable MUST rule of it ran and passed, not conformant when one failed (FAIL or FLAKY), and
 * not tested otherwise, with why (profile fields missing, filtered out, stopped early, ERROR,
 * how many ran).
 */
import { classesOfSide, getRule, isRuleId, type ConformanceClass } from '../../catalogue/index.ts';
import type { ClassVerdict, Report, RuleReport } from '../../catalogue/report/model.ts';

type SideOf = Report['side'];

function sideKey(side: SideOf): 'receiver' | 'client' | undefined {
  return side === 'receiver' || side === 'client' ? side : undefined;
}

/** The profile fields a skipped rule's reason names as missing (`profile lacks keys.live`, `… lacks a and b: …`). */
export function missingFields(id: string, r: RuleReport): string[] {
  if (!isRuleId(id) || r.status !== 'skip') return [];
  const needs = ((getRule(id).needs ?? []) as readonly string[]).filter((n) => (r.reason ?? '').includes(n));
  const named = /profile lacks ([^:;(]+)/.exec(r.reason ?? '')?.[1] ?? '';
  const fields = named.split(/,| and | or /).map((f) => f.trim()).filter((f) => /^[a-z_]+(\.[a-z_]+)*$/.test(f));
  return [...new Set([...needs, ...fields])];
}

export function classVerdict(c: ConformanceClass, report: Report): ClassVerdict {
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
  const counts = { testable: testable.length, ran, passed, failed, missing: [...missing] };
  if (failed) return { id: c.id, status: 'not_conformant', ...counts, reason: `${failed} MUST rule(s) failed` };
  if (passed === testable.length) return { id: c.id, status: 'conformant', ...counts };
  const why: string[] = [];
  if (missing.size) why.push(`needs ${[...missing].join(', ')}`);
  if (filtered) why.push(`${filtered} filtered out`);
  if (notReached) why.push(`${notReached} not reached (the run stopped early)`);
  if (errored) why.push(`${errored} could not be checked (ERROR)`);
  why.push(`${ran} of ${testable.length} ran`);
  return { id: c.id, status: 'not_tested', ...counts, reason: why.join('; ') };
}

/** Every class of the report's side, in declaration order. */
export function classVerdicts(report: Report): ClassVerdict[] {
  return classesOfSide(sideKey(report.side)).map((c) => classVerdict(c, report));
}

/** What a not-tested or not-conformant class lacks, for the verdict line: the fields, or the reason. */
function short(v: ClassVerdict): string {
  if (v.status === 'not_conformant') return `${v.failed} failed`;
  if (v.missing.length) return v.missing.join(', ');
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

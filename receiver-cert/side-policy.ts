/**
 * No verdict without evidence, for the merchant side: a receiver or client run that sent or saw
 * nothing, or left a testable MUST rule SKIP, is not "conformant". The skipped-MUST gate is the
 * default (as `--min-must-coverage 100`); `--min-must-coverage PCT` lowers it knowingly, `--strict`
 * adds WARN as for `run` (verdict/policy.ts). The rules' own statuses never change: only the
 * verdict, with the reasons in `report.policy.failed_because`.
 */
import type { KeyObject } from 'node:crypto';
import type { Report } from '../report/model.ts';
import { applyVerdictPolicy, exitCodeUnderPolicy } from '../verdict/policy.ts';
import { exitCodeOf } from '../verdict/exit-code.ts';
import { classVerdicts } from '../verdict/classes.ts';

export interface SidePolicy {
  strict?: boolean;
  /** 0-100; absent: every testable MUST rule must have run. */
  minMustCoverage?: number;
  /** Signs certificate.json (verdict/signing.ts); absent: unsigned. */
  signKey?: KeyObject;
}

/** Applies the policy and the evidence gate; `nothingRan` says why there is no evidence at all (0 requests or deliveries). Returns the exit status. */
export function applySidePolicy(report: Report, p: SidePolicy, nothingRan?: string): number {
  applyVerdictPolicy(report, { strict: p.strict, minMustCoverage: p.minMustCoverage });
  const because = [...(report.policy?.failed_because ?? [])];
  const skipped = report.rules.filter((r) => r.level === 'MUST' && r.status === 'skip' && !r.untestable);
  if (p.minMustCoverage === undefined && !p.strict && skipped.length && !nothingRan) {
    because.push(`no verdict without evidence: ${skipped.length} of ${report.must.testable} testable MUST rule(s) skipped (${skipped.map((r) => `${r.id}: ${r.reason ?? 'not run'}`).join('; ')}); --min-must-coverage PCT accepts fewer`);
  }
  if (nothingRan) because.unshift(`no verdict without evidence: ${nothingRan}`);
  if (because.length) {
    report.policy = { strict: p.strict === true, ...(p.minMustCoverage !== undefined ? { min_must_coverage: p.minMustCoverage } : {}), failed_because: because };
    report.verdict = 'not_conformant';
  }
  report.classes = classVerdicts(report);
  return exitCodeUnderPolicy(report, exitCodeOf(report));
}

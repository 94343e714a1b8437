/**
 * No verdict without evidence, for the merchant side: a receiver or client run that sent or saw
 * nothing, or left a testable MUST rule SKIP, is not "conformant": it is `incomplete` (exit 6),
 * nothing having failed (results/verdict/incomplete.ts). `--min-must-coverage PCT` accepts fewer knowingly
 * (below it the verdict is not conformant, as for `run`), `--strict` makes a skip or a WARN fail
 * (results/verdict/policy.ts). The rules' own statuses never change: only the verdict, with the reasons in
 * `report.incomplete_because` or `report.policy.failed_because`.
 */
import type { KeyObject } from 'node:crypto';
import type { Report } from '../../catalogue/report/model.ts';
import { applyVerdictPolicy } from './policy.ts';
import { exitCodeOf } from './exit-code.ts';
import { settleClasses } from './classes.ts';
import { settleVerdict } from './incomplete.ts';

export interface SidePolicy {
  strict?: boolean;
  /** 0-100; absent: every testable MUST rule must have run, else the verdict is incomplete. */
  minMustCoverage?: number;
  /** Signs certificate.json (results/verdict/signing.ts); absent: unsigned. */
  signKey?: KeyObject;
}

/**
 * Applies the policy and the evidence gate; `nothingRan` says why there is no evidence at all (0
 * requests or deliveries). Returns the exit status.
 */
export function applySidePolicy(report: Report, p: SidePolicy, nothingRan?: string): number {
  applyVerdictPolicy(report, { strict: p.strict, minMustCoverage: p.minMustCoverage });
  if (nothingRan && report.verdict === 'incomplete') settleVerdict(report, nothingRan);
  settleClasses(report);
  return exitCodeOf(report);
}

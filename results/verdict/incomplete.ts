/**
 * The third verdict (docs/rulings.md "Three verdicts"): `incomplete` when nothing failed but a MUST
 * rule that was testable with this run's profile — for the merchant side, with this program — did
 * not run, ended ERROR, or was not proven (SKIP), or said it did not try an obligation of its own accord (not for the
 * profile's sake: results/verdict/obligations.ts). A rule left SKIP because the profile lacks what it
 * needs (keys.live, a Live endpoint, a time scale…) is not testable with this profile: its class
 * says "not tested (keys.live)" and the verdict of what was tested stays `conformant`. Derived from
 * report.json alone, so `verify-certificate` derives it again.
 */
import type { ObligationResult, Report, RuleReport, Verdict } from '../../catalogue/report/model.ts';
import { missingFields } from './missing-fields.ts';
import { obligationsOf } from './obligations.ts';

/** A skip the profile's scope explains: a field it lacks, or a declaration it does not make. */
function scopedByProfile(r: RuleReport): boolean {
  return missingFields(r.id, r).length > 0 || /\bprofile (lacks|declares no)\b/.test(r.reason ?? '');
}

/** The MUST rules that withhold a verdict of what was tested: ERROR, or SKIP not explained by the profile (the merchant side has none). */
export function unprovenMust(report: Pick<Report, 'rules' | 'side'>): RuleReport[] {
  const merchant = report.side === 'receiver' || report.side === 'client';
  return report.rules.filter((r) => {
    if (r.level !== 'MUST' || r.untestable) return false;
    if (r.status === 'error') return true;
    return r.status === 'skip' && (merchant || !scopedByProfile(r));
  });
}

/**
 * The obligations a MUST rule said it did not try for a reason of its own, not the profile's (a refusal that may come
 * first, say): not proven either, so the verdict of what was tested is `incomplete` (results/verdict/obligations.ts).
 */
export function untriedMustObligations(report: Pick<Report, 'rules' | 'side'>): ObligationResult[] {
  const must = new Set(report.rules.filter((r) => r.level === 'MUST' && !r.untestable).map((r) => r.id));
  return obligationsOf(report).entries.filter((e) => e.kind === 'rule' && !e.needs?.length && e.rules.some((id) => must.has(id)));
}

/** One line per rule not proven, for `incomplete_because` and the console. */
export function unprovenLines(rules: readonly RuleReport[]): string[] {
  return rules.map((r) => `${r.id} ${r.status === 'error' ? 'could not be checked (ERROR)' : 'not proven (SKIP)'}: ${r.reason ?? (r.status === 'error' ? 'transport trouble' : 'not run')}`.slice(0, 600));
}

/**
 * The verdict a report's rules and recorded policy give: `not_conformant` when a MUST rule failed
 * (FAIL/FLAKY), a setup request was refused, or the policy failed; `incomplete` when a MUST rule is not proven, unless the user
 * knowingly accepted fewer (`--min-must-coverage`, met, one MUST rule passed at least) and none
 * ended ERROR; else `conformant`.
 */
export function verdictOfReport(report: Pick<Report, 'rules' | 'side' | 'policy' | 'setup_refusals'>): Verdict {
  if (report.rules.some((r) => r.level === 'MUST' && (r.status === 'fail' || r.status === 'flaky'))) return 'not_conformant';
  // A setup request the target refused is a failure too: the rules it blocked are ERROR (not proven), the run is not conformant,
  // unless the spec allows the refusal (a Live-only 409 while the profile promised a ready Live business): then not proven only.
  if (failingRefusals(report).length > 0) return 'not_conformant';
  if ((report.policy?.failed_because.length ?? 0) > 0) return 'not_conformant';
  const unproven = unprovenMust(report);
  // Fewer accepted knowingly, but never none: a run where no MUST rule passed proves nothing.
  const accepted = report.policy?.min_must_coverage !== undefined && report.rules.some((r) => r.level === 'MUST' && r.status === 'pass');
  if (unproven.some((r) => r.status === 'error') || (!accepted && (unproven.length || untriedMustObligations(report).length))) {
    return 'incomplete';
  }
  return 'conformant';
}

/** The setup refusals that are failures: those the spec does not allow. */
export function failingRefusals(report: Pick<Report, 'setup_refusals'>): NonNullable<Report['setup_refusals']> {
  return (report.setup_refusals ?? []).filter((c) => c.allowed === undefined);
}

/** Sets the verdict from the rules and the policy, and says why when it is `incomplete`; `nothingRan` explains an empty run. */
export function settleVerdict(report: Report, nothingRan?: string): void {
  report.verdict = verdictOfReport(report);
  delete report.incomplete_because;
  if (report.verdict !== 'incomplete') return;
  const allowed = (report.setup_refusals ?? []).filter((c) => c.allowed !== undefined)
    .map((c) => `setup refused as the spec allows: ${c.cause} (${c.allowed}); ` +
      `${c.rules.length} rule(s) not proven: make it hold and run again`);
  const untried = untriedMustObligations(report).map((o) => `${o.id} not tried: ${o.why ?? ''}`.slice(0, 600));
  const lines = [...allowed, ...unprovenLines(unprovenMust(report)), ...untried];
  report.incomplete_because = nothingRan ? [`no evidence: ${nothingRan}`, ...lines] : lines;
}

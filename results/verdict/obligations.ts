/**
 * The run's claim per obligation (docs/rulings.md, "The run's claim is per obligation"): what this run showed about each
 * obligation of the spec (catalogue/obligations.ts) of the clauses its side's rules cite, from report.json's rules and the
 * catalogue alone, so `verify-certificate` and the classes derive it again.
 *
 * - `failed`: a rule citing its clause failed (FAIL, FLAKY, or WARN for a SHOULD) and did not say it left the obligation
 *   untried; `attributed` only when that rule's clauses hold no other obligation it tried (else "not told apart").
 * - `not_tried`: the catalogue says no request or delivery can show it; or a rule said it did not try it (`t.notTried`:
 *   it owns the obligation, whatever the other rules citing the clause did); or no rule citing it passed (filtered out,
 *   not reached, SKIP for the profile's sake or another, ERROR), each with why.
 * - `passed`: a rule citing its clause passed and said nothing of it: a rule that passed tried every obligation of its
 *   clauses unless it said otherwise (in this run, `t.notTried`, or in the catalogue, `notTrying`: another side's duty).
 */
import { RULES, sideOf, type Rule } from '../../catalogue/index.ts';
import { OBLIGATIONS, obligationsOfClauses, type ObligationDef } from '../../catalogue/obligations.ts';
import type { NotTriedKind, ObligationResult, ObligationsReport, Report, RuleReport } from '../../catalogue/report/model.ts';
import { missingFields } from './missing-fields.ts';

type ReportRules = Pick<Report, 'rules' | 'side'>;

/** A rule that can run and can fail: neither untestable nor OBSERVE. */
function judges(rule: Rule): boolean {
  return !rule.untestable && rule.level !== 'OBSERVE';
}

const FAILED = new Set(['fail', 'flaky', 'warn']);

function declared(r: RuleReport | undefined, obligation: string) {
  return r?.not_tried?.find((n) => n.obligation === obligation);
}

const neverTries = (r: Rule, obligation: string) => (r.notTrying ?? []).includes(obligation);

/**
 * The obligations of this side's rules' clauses (the service side: also those no rule cites), each with the rules of the
 * side that cite its clause and may try it; one that only another side's rules try (a rule `notTrying` it) is that side's.
 */
function universe(side: Report['side']): Array<{ o: ObligationDef; citing: Rule[] }> {
  const mine = (r: Rule) => (sideOf(r) ?? 'service') === (side ?? 'service');
  const byClause = new Map<string, Rule[]>();
  for (const r of RULES as readonly Rule[]) for (const c of r.clauses) (byClause.get(c) ?? byClause.set(c, []).get(c)!).push(r);
  return OBLIGATIONS.flatMap((o) => {
    const all = byClause.get(o.clause);
    if (all === undefined) return (side ?? 'service') === 'service' ? [{ o, citing: [] }] : [];
    const citing = all.filter((r) => mine(r) && !neverTries(r, o.id));
    const others = all.some((r) => !mine(r) && !neverTries(r, o.id));
    return citing.length || (all.some(mine) && !others) ? [{ o, citing }] : [];
  });
}

/** Each obligation of the report's side, passed, failed or not tried, in catalogue order, with the totals. */
export function obligationsOf(report: ReportRules): ObligationsReport {
  const byId = new Map(report.rules.map((r) => [r.id, r]));
  const entries = universe(report.side).map(({ o, citing }) => resultOf(o, citing, byId));
  const count = (s: ObligationResult['status']) => entries.filter((e) => e.status === s).length;
  return {
    totals: {
      obligations: entries.length,
      passed: count('passed'),
      failed: count('failed'),
      not_tried: count('not_tried'),
      untestable: entries.filter((e) => e.kind === 'untestable').length,
    },
    entries,
  };
}

function notTried(o: ObligationDef, rules: readonly string[], kind: NotTriedKind, why: string, needs: string[] = []): ObligationResult {
  return { id: o.id, clause: o.clause, status: 'not_tried', rules: [...rules], kind, why, ...(needs.length ? { needs } : {}) };
}

function resultOf(o: ObligationDef, citing: readonly Rule[], byId: ReadonlyMap<string, RuleReport>): ObligationResult {
  const ids = citing.map((r) => r.id);
  if (o.untestable) return notTried(o, ids, 'untestable', o.untestable);
  const judging = citing.filter(judges);
  if (!judging.length) {
    const u = citing.find((r) => r.untestable)?.untestable;
    if (u) return notTried(o, ids, 'untestable', u);
    const why = ids.length ? 'cited only by OBSERVE rules, which record and never judge' : 'no rule cites its clause';
    return notTried(o, ids, 'no_rule', why);
  }
  const reports = judging.map((r) => byId.get(r.id));
  const failed = reports.filter((r): r is RuleReport => r !== undefined && FAILED.has(r.status) && !declared(r, o.id));
  if (failed.length) return failedResult(o, failed);
  const saidSo = reports.filter((r): r is RuleReport => declared(r, o.id) !== undefined);
  if (saidSo.length) {
    const said = saidSo.map((r) => ({ rule: r.id, ...declared(r, o.id)! }));
    const needs = [...new Set(said.flatMap((s) => s.needs ?? []))];
    return notTried(o, said.map((s) => s.rule), 'rule', said.map((s) => `${s.rule}: ${s.why}`).join('; '), needs);
  }
  const passed = reports.filter((r) => r?.status === 'pass').map((r) => r!.id);
  if (passed.length) return { id: o.id, clause: o.clause, status: 'passed', rules: passed };
  return unreached(o, judging, byId);
}

/** Failed by these rules: attributed to the obligation only when a failing rule's clauses hold no other obligation it tried. */
function failedResult(o: ObligationDef, failed: readonly RuleReport[]): ObligationResult {
  const alone = failed.filter((r) => triedBy(r).length === 1);
  const apart = '; the obligations of its clauses are not told apart';
  const why = failed.map((r) => `${r.id} failed${alone.includes(r) ? '' : apart}`);
  const rules = failed.map((r) => r.id);
  return { id: o.id, clause: o.clause, status: 'failed', rules, attributed: alone.length > 0, why: why.join('; ') };
}

/** The testable obligations of a rule's clauses it may try and did not say it left untried. */
function triedBy(r: RuleReport): string[] {
  const rule = (RULES as readonly Rule[]).find((x) => x.id === r.id);
  if (!rule) return [];
  const untestable = new Set(OBLIGATIONS.filter((o) => o.untestable).map((o) => o.id));
  return obligationsOfClauses(rule.clauses).filter((id) => !untestable.has(id) && !neverTries(rule, id) && !declared(r, id));
}

/** No rule citing it passed or failed: why each did not, an unproven rule first, then the profile's part, then the filtered. */
function unreached(o: ObligationDef, judging: readonly Rule[], byId: ReadonlyMap<string, RuleReport>): ObligationResult {
  const why: Array<{ kind: NotTriedKind; text: string; needs: string[] }> = judging.map((rule) => {
    const r = byId.get(rule.id);
    if (r === undefined) return { kind: 'not_reached', text: `${rule.id} filtered out`, needs: [] };
    const needs = missingFields(r.id, r);
    if (needs.length) return { kind: 'profile', text: `${r.id}: ${r.reason ?? 'skipped'}`, needs };
    if (r.status === 'skip' && /^not (reached|run)\b/.test(r.reason ?? '')) {
      return { kind: 'not_reached', text: `${r.id}: ${r.reason}`, needs };
    }
    const state = r.status === 'error' ? 'could not be checked (ERROR)' : `not proven (${r.status.toUpperCase()})`;
    return { kind: 'not_proven', text: `${r.id} ${state}${r.reason ? `: ${r.reason}` : ''}`, needs };
  });
  const order: NotTriedKind[] = ['not_proven', 'profile', 'not_reached'];
  why.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
  const text = why.slice(0, 3).map((w) => w.text.slice(0, 300)).join('; ') + (why.length > 3 ? `; … (${why.length} rules)` : '');
  const needs = [...new Set(why.flatMap((w) => w.needs))];
  return notTried(o, judging.map((r) => r.id), why[0]!.kind, text, needs);
}

/**
 * The obligations one of these rules said it did not try (`needs`: for the profile's sake): the rule that says so owns the
 * obligation, so its class is the one that follows (docs/classes.md).
 */
export function declaredNotTried(obligations: ObligationsReport, rules: ReadonlySet<string>): ObligationResult[] {
  return obligations.entries.filter((e) => e.status === 'not_tried' && e.kind === 'rule' && e.rules.some((id) => rules.has(id)));
}

/**
 * The trace from the spec to the planted faults: each clause (catalogue/clauses.ts), the rules
 * citing it (each rule's `clauses` in catalogue/rules.ts) and, for each rule, the planted faults declaring they
 * break it: the reference server's (mutation/faults.ts), the reference receiver's
 * (receiver-cert/faults.ts) and the example client's (client-cert/faults.ts).
 * `run --dry-run --clauses` prints it; test/catalogue/clauses.test.ts holds it complete.
 */
import { CLAUSES, type ClauseDef, type ClauseId } from '../catalogue/clauses.ts';
import { getRule, RULES, type Rule, type RuleId } from '../catalogue/index.ts';
import { CLIENT_FAULTS } from '../client-cert/faults.ts';
import { FAULTS } from '../mutation/faults.ts';
import { RECEIVER_FAULTS } from '../receiver-cert/faults.ts';

/** How a clause stands: checked by a rule that runs, normative but untestable (reasoned), or informative. */
export type ClauseStanding = 'checked' | 'untestable' | 'informative' | 'unchecked';

export interface ClauseRow {
  readonly clause: ClauseDef & { readonly id: ClauseId };
  readonly rules: ReadonlyArray<{ readonly rule: Rule; readonly faults: readonly string[] }>;
  readonly standing: ClauseStanding;
  /** Why the clause is untestable or informative (its own reason, or its untestable rules'). */
  readonly reason?: string;
}

/** Rule id → the planted faults (server, receiver, client) that declare they break it. */
export function faultsByRule(): ReadonlyMap<RuleId, readonly string[]> {
  const out = new Map<RuleId, string[]>();
  const add = (fault: string, breaks: readonly RuleId[]) => {
    for (const id of breaks) out.set(id, [...(out.get(id) ?? []), fault]);
  };
  for (const [name, def] of Object.entries(FAULTS)) add(name, def.breaks);
  for (const [name, def] of Object.entries(RECEIVER_FAULTS)) add(`receiver:${name}`, def.breaks);
  for (const [name, def] of Object.entries(CLIENT_FAULTS)) add(`client:${name}`, def.breaks);
  return out;
}

/** Clause id → the rules citing it, in catalogue order. */
export function rulesByClause(): ReadonlyMap<ClauseId, readonly RuleId[]> {
  const out = new Map<ClauseId, RuleId[]>();
  for (const r of RULES) for (const c of r.clauses) out.set(c, [...(out.get(c) ?? []), r.id]);
  return out;
}

/** A rule that can run and can fail: neither untestable nor OBSERVE. */
export function judges(rule: Rule): boolean {
  return !rule.untestable && rule.level !== 'OBSERVE';
}

export function clauseMatrix(): ClauseRow[] {
  const faults = faultsByRule();
  const cited = rulesByClause();
  return (CLAUSES as ReadonlyArray<ClauseDef & { id: ClauseId }>).map((clause) => {
    const rules = (cited.get(clause.id) ?? []).map((id) => ({ rule: getRule(id), faults: faults.get(id) ?? [] }));
    if (clause.informative) return { clause, rules, standing: 'informative', reason: clause.informative };
    if (rules.some((r) => judges(r.rule))) return { clause, rules, standing: 'checked' };
    const reason = clause.untestable ?? rules.map((r) => r.rule.untestable).find((u) => u);
    return reason ? { clause, rules, standing: 'untestable', reason } : { clause, rules, standing: 'unchecked' };
  });
}

export interface ClauseFigures {
  readonly clauses: number;
  readonly normative: number;
  readonly checked: number;
  readonly untestable: number;
  readonly informative: number;
  readonly unchecked: number;
  /** Rules that can fail (testable MUST and SHOULD), and how many of them some planted fault breaks. */
  readonly judgingRules: number;
  readonly judgingRulesWithFaults: number;
}

export function clauseFigures(rows: readonly ClauseRow[]): ClauseFigures {
  const count = (s: ClauseStanding) => rows.filter((r) => r.standing === s).length;
  const faults = faultsByRule();
  const judging = (RULES as readonly Rule[]).filter(judges);
  return {
    clauses: rows.length,
    normative: rows.length - count('informative'),
    checked: count('checked'),
    untestable: count('untestable'),
    informative: count('informative'),
    unchecked: count('unchecked'),
    judgingRules: judging.length,
    judgingRulesWithFaults: judging.filter((r) => (faults.get(r.id) ?? []).length > 0).length,
  };
}

/** The matrix as console lines: a clause, then one line per rule with its faults. */
export function formatClauseMatrix(rows: readonly ClauseRow[]): string[] {
  const lines: string[] = [];
  let section = '';
  for (const row of rows) {
    if (row.clause.section !== section) {
      section = row.clause.section;
      lines.push('', section);
    }
    const tag = row.standing === 'checked' ? '' : ` [${row.standing}${row.reason ? `: ${row.reason}` : ''}]`;
    lines.push(`  ${row.clause.id}${tag}`, `      "${row.clause.quote}"`);
    for (const { rule, faults } of row.rules) {
      const f = faults.length > 0 ? faults.join(', ') : rule.untestable ? '(not exercisable through the API)' : rule.level === 'OBSERVE' ? '(OBSERVE: records, cannot fail)' : '(no planted fault)';
      lines.push(`      → ${rule.id.padEnd(36)} ${rule.level.padEnd(7)} ${f}`);
    }
  }
  const n = clauseFigures(rows);
  lines.push(
    '',
    `${n.clauses} clauses: ${n.normative} normative (${n.checked} checked by a rule, ${n.untestable} reasoned untestable, ${n.unchecked} unchecked), ${n.informative} informative`,
    `${n.judgingRulesWithFaults} of ${n.judgingRules} rules that can fail (testable MUST and SHOULD) have a planted fault`,
  );
  return lines;
}

/**
 * The trace from the spec to the planted faults: each clause (catalogue/clauses.ts), the rules
 * citing it (each rule's `clauses` in catalogue/rules.ts) and, for each rule, the planted faults declaring they
 * break it: the reference server's (service/mutation/faults.ts), the reference receiver's
 * (merchant/receiver/faults.ts) and the example client's (merchant/client/faults.ts).
 * `run --dry-run --clauses` prints it; test/catalogue/clauses.test.ts holds it complete.
 */
import { CLAUSES, type ClauseDef, type ClauseId } from '../catalogue/clauses.ts';
import { getRule, RULES, type Rule, type RuleId } from '../catalogue/index.ts';
import { OBLIGATIONS, type ObligationDef } from '../catalogue/obligations.ts';
import { CLIENT_FAULTS } from '../merchant/client/faults.ts';
import { FAULTS } from '../service/mutation/faults.ts';
import { RECEIVER_FAULTS } from '../merchant/receiver/faults.ts';

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

/** A planted fault as the matrix reads it: its name (side-prefixed off the server), the rules it breaks, the obligations it violates. */
interface MatrixFault {
  readonly name: string;
  readonly breaks: readonly RuleId[];
  readonly violates: readonly string[];
}

/** Every planted fault of the three references, as the matrix reads it. */
export function allFaults(): MatrixFault[] {
  const of = (prefix: string, faults: Readonly<Record<string, { breaks: readonly RuleId[]; violates: readonly string[] }>>) =>
    Object.entries(faults).map(([name, d]) => ({ name: `${prefix}${name}`, breaks: d.breaks, violates: d.violates }));
  return [...of('', FAULTS), ...of('receiver:', RECEIVER_FAULTS), ...of('client:', CLIENT_FAULTS)];
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
      const f = faults.length > 0 ? faults.join(', ') : rule.untestable ? '(not exercisable through the ' +
        'API)' : rule.level === 'OBSERVE' ? '(OBSERVE: records, cannot fail)' : '(no planted fault)';
      lines.push(`      → ${rule.id.padEnd(36)} ${rule.level.padEnd(7)} ${f}`);
    }
  }
  const n = clauseFigures(rows);
  lines.push(
    '',
    `${n.clauses} clauses: ${n.normative} normative (${n.checked} checked by a rule, ${n.untestable} reasoned ` +
      `untestable, ${n.unchecked} unchecked), ${n.informative} informative`,
    `${n.judgingRulesWithFaults} of ${n.judgingRules} rules that can fail (testable MUST and SHOULD) have a planted fault`,
  );
  return lines;
}

/** How an obligation stands: proved by a fault of its own, reasoned untestable, or only named by a rule. */
export type ObligationStatus = 'proved' | 'untestable' | 'named-only';

export interface ObligationRow {
  readonly obligation: ObligationDef;
  readonly status: ObligationStatus;
  /** The rules citing its clause that can fail. */
  readonly rules: readonly RuleId[];
  /** Each planted fault that violates it alone, with each such rule that fault must fail. */
  readonly provedBy: ReadonlyArray<{ readonly fault: string; readonly rule: RuleId }>;
  readonly reason?: string;
}

/**
 * Every obligation with its standing: `proved` when a planted fault that `violates` it (and no
 * other requirement) declares it breaks a rule that cites the obligation's clause and can fail;
 * the mutation score shows that fault caught by that rule.
 */
export function obligationMatrix(): ObligationRow[] {
  const clauses = new Map(clauseMatrix().map((row) => [row.clause.id as string, row]));
  const faults = allFaults();
  return OBLIGATIONS.map((obligation) => {
    const row = clauses.get(obligation.clause)!;
    const rules = row.rules.filter((r) => judges(r.rule)).map((r) => r.rule.id);
    const provedBy = faults
      .filter((f) => f.violates.includes(obligation.id))
      .flatMap((f) => f.breaks.filter((rule) => rules.includes(rule)).map((rule) => ({ fault: f.name, rule })));
    const untestable = obligation.untestable ?? (row.standing === 'untestable' ? row.reason : undefined);
    if (untestable !== undefined) return { obligation, status: 'untestable', rules, provedBy, reason: untestable };
    return { obligation, status: provedBy.length > 0 ? 'proved' : 'named-only', rules, provedBy };
  });
}

/** A fault's declared obligation that none of the rules it breaks cites: a declaration that proves nothing. */
export function unlinkedViolations(): string[] {
  const rows = new Map(obligationMatrix().map((r) => [r.obligation.id, r]));
  return allFaults().flatMap((f) =>
    f.violates.filter((id) => !rows.get(id)!.provedBy.some((p) => p.fault === f.name)).map((id) => `${f.name} violates ${id}, which ` +
      `none of ${f.breaks.join(', ')} cites`),
  );
}

export interface ObligationFigures {
  readonly obligations: number;
  readonly proved: number;
  readonly untestable: number;
  readonly namedOnly: number;
  readonly informativeClauses: number;
  readonly faultsDeclaringObligations: number;
  readonly faults: number;
}

export function obligationFigures(rows: readonly ObligationRow[]): ObligationFigures {
  const count = (s: ObligationStatus) => rows.filter((r) => r.status === s).length;
  const faults = allFaults();
  return {
    obligations: rows.length,
    proved: count('proved'),
    untestable: count('untestable'),
    namedOnly: count('named-only'),
    informativeClauses: clauseMatrix().filter((r) => r.standing === 'informative').length,
    faultsDeclaringObligations: faults.filter((f) => f.violates.length > 0).length,
    faults: faults.filter((f) => f.breaks.length > 0).length,
  };
}

/** One obligation as a console line: its name under the clause, then how it stands. */
function obligationLine(row: ObligationRow): string {
  const name = row.obligation.id.includes('#') ? `#${row.obligation.id.split('#')[1]}` : '(the clause)';
  const standing =
    row.status === 'proved' ? `proved by ${row.provedBy.map((p) => `${p.fault} (${p.rule})`).join(', ')}`
    : row.status === 'untestable' ? `untestable: ${row.reason}`
    : `named only${row.rules.length ? ` by ${row.rules.join(', ')}` : ''}: no planted fault violates it alone`;
  if (!row.obligation.id.includes('#')) return `      → ${standing}`;
  return `      ${name.padEnd(28)} ${row.obligation.says}\n          ${standing}`;
}

/** The obligation matrix as console lines: per clause its quote, then each obligation and how it stands. */
export function formatObligationMatrix(clauses: readonly ClauseRow[], rows: readonly ObligationRow[]): string[] {
  const lines: string[] = [];
  let section = '';
  for (const clause of clauses) {
    if (clause.clause.section !== section) {
      section = clause.clause.section;
      lines.push('', section);
    }
    lines.push(`  ${clause.clause.id}`, `      "${clause.clause.quote}"`);
    if (clause.standing === 'informative') {
      lines.push(`      informative: ${clause.reason}`);
      continue;
    }
    for (const row of rows.filter((r) => r.obligation.clause === clause.clause.id)) lines.push(...obligationLine(row).split('\n'));
  }
  const n = obligationFigures(rows);
  lines.push(
    '',
    `${n.obligations} obligations of ${clauses.filter((c) => c.standing !== 'informative').length} normative clauses: ${n.proved} ` +
      `proved by a planted fault of their own, ${n.untestable} reasoned untestable, ${n.namedOnly} named only; ${n.informativeClauses} ` +
      `clauses informative`,
    `${n.faultsDeclaringObligations} of ${n.faults} planted faults declare the obligation they violate`,
  );
  return lines;
}

/** The matrix as one JSON document (`run --dry-run --clauses --json`): every obligation, and each informative clause, with its standing. */
export function obligationMatrixJson(clauses: readonly ClauseRow[], rows: readonly ObligationRow[]): object {
  const entries = clauses.flatMap((clause): object[] => {
    if (clause.standing === 'informative') {
      return [{
        id: clause.clause.id,
        clause: clause.clause.id,
        section: clause.clause.section,
        normative: false,
        status: 'informative',
        says: clause.clause.quote,
        rules: clause.rules.map((r) => r.rule.id),
        proved_by: [],
        reason: clause.reason,
      }];
    }
    return rows.filter((r) => r.obligation.clause === clause.clause.id).map((r) => ({
      id: r.obligation.id,
      clause: clause.clause.id,
      section: clause.clause.section,
      normative: true,
      status: r.status,
      says: r.obligation.says,
      rules: r.rules,
      proved_by: r.provedBy,
      ...(r.reason ? { reason: r.reason } : {}),
    }));
  });
  const n = obligationFigures(rows);
  return {
    clauses: entries,
    totals: {
      obligations: n.obligations,
      proved: n.proved,
      untestable: n.untestable,
      named_only: n.namedOnly,
      informative_clauses: n.informativeClauses,
      faults: n.faults,
      faults_declaring_obligations: n.faultsDeclaringObligations,
    },
  };
}

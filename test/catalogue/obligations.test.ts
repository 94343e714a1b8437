/**
 * The spec's obligations (catalogue/obligations.ts) and their proof: a planted fault that violates
 * one obligation alone and fails a rule citing its clause (cli/clause-matrix.ts). The mutation score
 * (test/mutation.test.ts, `npm run mutation`) shows each such fault caught by the rules it names.
 */
import { describe, expect, it } from 'vitest';
import { CLAUSES } from '../../catalogue/clauses.ts';
import { OBLIGATION_SPLITS, OBLIGATIONS } from '../../catalogue/obligations.ts';
import {
  allFaults,
  clauseMatrix,
  obligationFigures,
  obligationMatrix,
  obligationMatrixJson,
  unlinkedViolations,
} from '../../cli/clause-matrix.ts';

describe('obligations', () => {
  it('have unique ids under their clause, and split only normative clauses', () => {
    const ids = OBLIGATIONS.map((o) => o.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    for (const o of OBLIGATIONS) expect(o.id === o.clause || o.id.startsWith(`${o.clause}#`), o.id).toBe(true);
    for (const o of OBLIGATIONS) expect(o.id, o.id).toMatch(/^[a-z-]+(\.[a-zA-Z0-9_.-]+)+(#[a-z0-9-]+)?$/);
    const informative = new Set(CLAUSES.filter((c) => 'informative' in c && c.informative).map((c) => c.id as string));
    expect(Object.keys(OBLIGATION_SPLITS).filter((id) => informative.has(id))).toEqual([]);
    expect(Object.keys(OBLIGATION_SPLITS).filter((id) => !CLAUSES.some((c) => c.id === id))).toEqual([]);
  });

  it('cover every normative clause', () => {
    const normative = CLAUSES.filter((c) => !('informative' in c && c.informative)).map((c) => c.id as string);
    expect(normative.filter((id) => !OBLIGATIONS.some((o) => o.clause === id))).toEqual([]);
  });

  it('a fault names only obligations that a rule it breaks cites (else its declaration proves nothing)', () => {
    expect(unlinkedViolations()).toEqual([]);
  });

  it('every normative obligation is proved by a fault of its own or reasoned untestable: none is named only', () => {
    const rows = obligationMatrix();
    const namedOnly = rows.filter((r) => r.status === 'named-only').map((r) => r.obligation.id);
    expect(namedOnly, 'named only: plant a fault that violates it alone (or reason why nothing can show it)').toEqual([]);
    const n = obligationFigures(rows);
    console.log(`${n.obligations} obligations: ${n.proved} proved, ${n.untestable} untestable, ${n.namedOnly} named only; ${n.faultsDeclaringObligations} of ${n.faults} faults declare theirs`);
  });

  it('a proof names a fault that violates the obligation and a rule citing its clause that the fault breaks', () => {
    const faults = new Map(allFaults().map((f) => [f.name, f]));
    const cited = new Map(clauseMatrix().map((c) => [c.clause.id as string, c.rules.map((r) => r.rule.id as string)]));
    for (const row of obligationMatrix()) {
      for (const { fault, rule } of row.provedBy) {
        expect(faults.get(fault)?.violates).toContain(row.obligation.id);
        expect(faults.get(fault)?.breaks).toContain(rule);
        expect(cited.get(row.obligation.clause)).toContain(rule);
      }
      if (row.status === 'proved') expect(row.provedBy.length).toBeGreaterThan(0);
    }
  });

  it('--json: one entry per obligation and per informative clause, statuses from the closed set, totals that add up', () => {
    const clauses = clauseMatrix();
    const rows = obligationMatrix();
    const doc = obligationMatrixJson(
      clauses,
      rows,
    ) as { clauses: Array<{ status: string; normative: boolean }>; totals: Record<string, number> };
    expect(doc.clauses.map((c) => c.status).filter((s) => !['proved', 'untestable', 'named-only', 'informative'].includes(s))).toEqual([]);
    expect(new Set(doc.clauses.map((c) => c.status))).toEqual(new Set(['proved', 'untestable', 'informative']));
    expect(doc.clauses.filter((c) => c.normative).length).toBe(doc.totals.obligations);
    expect(doc.totals.proved! + doc.totals.untestable! + doc.totals.named_only!).toBe(doc.totals.obligations);
    expect(doc.clauses.filter((c) => !c.normative).length).toBe(doc.totals.informative_clauses);
  });
});

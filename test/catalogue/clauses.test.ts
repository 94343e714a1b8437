/**
 * The trace from the spec to the rules and planted faults (catalogue/clauses.ts,
 * each rule's `clauses` in catalogue/rules.ts, cli/clause-matrix.ts), and the clauses held to the spec's text:
 * this tool's copy, docs/spec/hosted-payment-service-v1.md (the repository never reads a path
 * outside itself). Edit the spec copy and a quote no longer found, or a sentence no clause
 * quotes, fails here.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLAUSES } from '../../catalogue/clauses.ts';
import { RULES } from '../../catalogue/index.ts';
import { clauseFigures, clauseMatrix, faultsByRule, formatClauseMatrix, judges } from '../../cli/clause-matrix.ts';
import { specUnits } from './spec-units.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const SPEC = readFileSync(join(ROOT, 'docs', 'spec', 'hosted-payment-service-v1.md'), 'utf8');
const CONNECTIVES = new Set(['and', 'or', 'then', 'the']);

/** What of a statement no clause quotes: the words left when every quote found in it is taken out. */
export function uncoveredWords(unit: string, quotes: readonly string[]): string[] {
  if (quotes.some((q) => q.includes(unit))) return [];
  let rest = unit;
  for (const q of quotes) if (unit.includes(q)) rest = rest.split(q).join(' ');
  return rest.split(/[\s|.,;:()`]+/).filter((w) => w !== '' && !CONNECTIVES.has(w.toLowerCase()));
}

describe('the spec copy', () => {
  it('is the file the README names, by its SHA-256', () => {
    const sha = createHash('sha256').update(SPEC).digest('hex');
    expect(readFileSync(join(ROOT, 'docs', 'spec', 'README.md'), 'utf8')).toContain(sha);
  });
});

describe('clauses', () => {
  const quotes = CLAUSES.map((c) => c.quote);

  it('have unique ids of the form part.meaning, and quote the spec verbatim', () => {
    const ids = CLAUSES.map((c) => c.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    for (const c of CLAUSES) expect(c.id, c.id).toMatch(/^[a-z-]+(\.[a-zA-Z0-9_.-]+)+$/);
    expect(CLAUSES.filter((c) => !SPEC.includes(c.quote)).map((c) => c.id)).toEqual([]);
  });

  it('cover every sentence and table row of the spec', () => {
    const units = specUnits(SPEC);
    expect(units.length).toBeGreaterThan(200);
    const holes = units.flatMap((u) => {
      const left = uncoveredWords(u.text, quotes);
      return left.length > 0 ? [`line ${u.line}: ${u.text} (unquoted: ${left.join(' ')})`] : [];
    });
    expect(holes).toEqual([]);
  });

  it('a sentence added to the spec, or a row changed, is noticed', () => {
    const edited = SPEC.replace('| currency | string | yes | always `BDT` |', '| currency | string | yes | always `BDT` or `USD` |')
      .replace('It is the only document.', 'It is the only document. Refunds are answered 202.');
    const missing = specUnits(edited).filter((u) => uncoveredWords(u.text, quotes).length > 0).map((u) => u.text);
    expect(missing).toEqual(['Refunds are answered 202.', '| currency | string | yes | always `BDT` or `USD` |']);
    expect(CLAUSES.filter((c) => !edited.includes(c.quote)).map((c) => c.id)).toEqual(['payment.field.currency']);
  });

  it('each normative clause is checked by a rule that can fail, or says why nothing on the wire shows it', () => {
    const rows = clauseMatrix();
    expect(rows.filter((r) => r.standing === 'unchecked').map((r) => r.clause.id)).toEqual([]);
    for (const r of rows.filter((x) => x.standing !== 'checked')) expect(r.reason?.length ?? 0, r.clause.id).toBeGreaterThan(10);
    const n = clauseFigures(rows);
    console.log(formatClauseMatrix(rows).slice(-2).join('\n'));
    expect(n.checked + n.untestable + n.informative).toBe(n.clauses);
  });

  it('the constant-time comparison is a clause of its own, reasoned untestable (issue 25)', () => {
    const row = clauseMatrix().find((r) => r.clause.id === 'signature.constant-time')!;
    expect(row.standing).toBe('untestable');
    expect(row.rules.map((r) => r.rule.id)).toEqual(['RECV-CONSTANT-TIME-COMPARE']);
  });
});

describe('rules → clauses', () => {
  it('every rule cites at least one clause, each cited clause exists', () => {
    const ids = new Set<string>(CLAUSES.map((c) => c.id));
    expect(RULES.filter((r) => (r.clauses as readonly string[]).length === 0).map((r) => r.id)).toEqual([]);
    expect(RULES.flatMap((r) => r.clauses.filter((c) => !ids.has(c)).map((c) => `${r.id} → ${c}`))).toEqual([]);
  });

  it('every rule that can fail has a planted fault (server, receiver or client) that breaks it', () => {
    const faults = faultsByRule();
    expect(RULES.filter((r) => judges(r) && (faults.get(r.id) ?? []).length === 0).map((r) => r.id)).toEqual([]);
  });
});

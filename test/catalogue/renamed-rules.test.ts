/**
 * A renamed rule keeps answering to its former ids (`formerly`): `--rule OLD` selects it under its
 * current id and says so, and `report --compare` puts a report from before the rename on the same
 * row as one after it. An id that never existed is still exit 2.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { currentRuleId, isRuleId, RULES } from '../../catalogue/index.ts';
import { validateSelection } from '../../service/harness/main/selection.ts';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'hps-conformance.mjs');

function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((res) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { timeout: 60_000 },
      (e, out, err) => res({ code: e ? ((e as { code?: number }).code ?? 1) : 0, out, err }),
    );
  });
}

const renamed = RULES.flatMap((r) => ('formerly' in r && r.formerly ? r.formerly.map((old) => [old, r.id] as const) : []));

describe('former rule ids', () => {
  it('name no current rule and map to exactly one', () => {
    expect(renamed.length).toBeGreaterThan(0);
    const olds = renamed.map(([old]) => old);
    expect(new Set(olds).size).toBe(olds.length);
    for (const [old, id] of renamed) {
      expect(isRuleId(old), old).toBe(false);
      expect(currentRuleId(old)).toBe(id);
    }
    expect(currentRuleId('NO-SUCH-RULE')).toBeUndefined();
  });

  it('select the renamed rule and say so; an unknown id is a usage error', () => {
    const [old, id] = renamed[0]!;
    expect(validateSelection(
      [],
      [old, id],
    )).toEqual({ rules: [id], renamed: [`--rule ${old}: renamed ${id}, selected under its current id`] });
    expect(() => validateSelection([], ['NO-SUCH-RULE'])).toThrow(/unknown rule id/);
  });

  it('work on the command line', async () => {
    const [old, id] = renamed[0]!;
    const r = await cli(['run', '--dry-run', '--rule', old]);
    expect(r.code).toBe(0);
    expect(r.err).toContain(`renamed ${id}`);
    expect(r.out).toContain(id);
    const bad = await cli(['run', '--dry-run', '--rule', 'NO-SUCH-RULE']);
    expect(bad.code).toBe(2);
  }, 120_000);
});

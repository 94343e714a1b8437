/**
 * The ambient checks are a registry keyed by rule id and typed from the catalogue
 * (core/ambient-checks.ts): a rule declared `ambient: 'exchange'` without a check, a check for a
 * rule not declared so, and a check registered twice do not compile (the `@ts-expect-error` lines
 * below fail `tsc --noEmit` if they ever do compile); and at run time the registry holds exactly the
 * declared rules.
 */
import { describe, expect, it } from 'vitest';
import { RULES } from '../../catalogue/index.ts';
import { AMBIENT_CHECKS, type AmbientCheck } from '../../core/ambient-checks.ts';

const { 'RESP-NO-5XX': dropped, ...withoutOne } = AMBIENT_CHECKS;

// @ts-expect-error a rule declared ambient without a check does not compile
const missingOne: typeof AMBIENT_CHECKS = withoutOne;

const extra: AmbientCheck = { on: 'any', check: () => false };
// @ts-expect-error a check for a rule that is not declared ambient does not compile
const undeclared: typeof AMBIENT_CHECKS = { ...AMBIENT_CHECKS, 'AUTH-MISSING-KEY': extra };

// @ts-expect-error a check registered twice does not compile
const twice: typeof AMBIENT_CHECKS = { ...withoutOne, 'RESP-NO-5XX': dropped, 'RESP-NO-5XX': dropped };

describe('ambient checks registry', () => {
  it('holds one check for each rule the catalogue declares ambient per exchange, and no other', () => {
    const declared = RULES.filter((r) => 'ambient' in r && r.ambient === 'exchange').map((r) => r.id).sort();
    expect(Object.keys(AMBIENT_CHECKS).sort()).toEqual(declared);
    expect(declared.length).toBeGreaterThanOrEqual(10);
    expect([missingOne, undeclared, twice].every((t) => typeof t === 'object')).toBe(true);
  });
});

/** The public surface of the rule catalogue. */
import { RULES, type RuleId } from './rules.ts';
import type { Area, Level, RuleDef, Side } from './types.ts';

export { RULES, type RuleId } from './rules.ts';
export { AREAS, SIDE_COMMAND, type Area, type Level, type RuleDef, type ProfileNeed, type Side } from './types.ts';
export { CLASSES, CLASS_IDS, classesOfSide, classNeeds, getClass, type ConformanceClass } from './classes.ts';
export { ERROR_TABLE, ERROR_CODES, LIVE_ONLY_CODES, type ErrorCode } from './error-codes.ts';

export type Rule = RuleDef & { readonly id: RuleId };

const byId = new Map<string, Rule>(RULES.map((r) => [r.id, r as Rule]));

export function getRule(id: RuleId): Rule {
  return byId.get(id)!;
}

export function isRuleId(id: string): id is RuleId {
  return byId.has(id);
}

/** Former ids (`formerly`, kept after a rename) → the rule's current id. */
const byFormerId = new Map<string, RuleId>(
  (RULES as readonly RuleDef[]).flatMap((r) => (r.formerly ?? []).map((old) => [old, r.id as RuleId] as const)),
);

/** The current id of a rule named by its id or by an id it had before a rename; undefined when neither. */
export function currentRuleId(id: string): RuleId | undefined {
  return isRuleId(id) ? id : byFormerId.get(id);
}

/**
 * Service-side rules selected by --area / --rule (both empty: all). Merchant-side rules
 * (`side` set) belong to their own commands and are never selected here.
 */
export function selectRules(filter: { areas?: readonly string[]; rules?: readonly string[] }): Rule[] {
  const areas = new Set(filter.areas ?? []);
  const ids = new Set(filter.rules ?? []);
  return RULES.filter((r) => !sideOf(r) && (areas.size === 0 || areas.has(r.area)) && (ids.size === 0 || ids.has(r.id))) as Rule[];
}

export function sideOf(rule: RuleDef): Side | undefined {
  return 'side' in rule ? rule.side : undefined;
}

/** The rules a merchant-side command certifies, in catalogue order. */
export function rulesOfSide(side: Side): Rule[] {
  return RULES.filter((r) => sideOf(r) === side) as Rule[];
}

export function countByLevel(rules: readonly Rule[]): Record<Level, number> {
  const out: Record<Level, number> = { MUST: 0, SHOULD: 0, OBSERVE: 0 };
  for (const r of rules) out[r.level]++;
  return out;
}

export function rulesOfArea(area: Area): Rule[] {
  return RULES.filter((r) => r.area === area) as Rule[];
}

/**
 * The fault catalogue the mutation score runs: each planted fault of the reference server as the
 * reference declares it beside its override (references/service/fault-registry.ts): what is wrong, and
 * the catalogue rules that must catch it (or, for a negative control, the rules whose probes meet
 * it). Here the rule ids are checked against the catalogue: a declaration naming an unknown rule,
 * or a fault that names none and is no control, is an error at the first import.
 */
import { checkedObligationIds, checkedRuleIds } from '../../catalogue/fault-rules.ts';
import { AREAS, getRule, type RuleId } from '../../catalogue/index.ts';
import { FAULT_NAMES, REFERENCE_FAULTS, type FaultDeclaration } from '../../references/service/fault-registry.ts';
import type { FaultName } from '../../references/service/faults.ts';

export { FAULT_NAMES, isFaultName } from '../../references/service/fault-registry.ts';
export type { FaultName } from '../../references/service/faults.ts';

export interface FaultDefinition {
  /** What is wrong, in one sentence (the reference's own words). */
  readonly description: string;
  /** Catalogue rule ids the fault is expected to break (none for a control). */
  readonly breaks: readonly RuleId[];
  /** The spec obligations the fault violates, and no other (catalogue/obligations.ts). */
  readonly violates: readonly string[];
  /**
   * A negative control: not a bug of the service but what stock infrastructure in front of it
   * does to probes outside ordinary HTTP. The suite must raise nothing; `observes` names the
   * rules whose probes meet it.
   */
  readonly control?: { readonly observes: readonly RuleId[] };
  /** The area it is listed under: that of the first rule it breaks; `infrastructure` for a control. */
  readonly area: string;
}

function definition(name: FaultName, declared: FaultDeclaration): FaultDefinition {
  const breaks = checkedRuleIds(name, declared.breaks);
  const observes = declared.control ? checkedRuleIds(name, declared.control.observes) : undefined;
  if (observes === undefined && breaks.length === 0) throw new Error(`planted fault ${name} names no rule that must catch it`);
  return {
    description: declared.does,
    breaks,
    violates: checkedObligationIds(name, declared.violates),
    ...(observes ? { control: { observes } } : {}),
    area: observes ? 'infrastructure' : getRule(breaks[0]!).area,
  };
}

/** Every fault by name, in the reference's order (a plain record: Object.entries and friends work). */
export const FAULTS: Readonly<Record<FaultName, FaultDefinition>> = Object.freeze(
  Object.fromEntries(Object.entries(REFERENCE_FAULTS).map(([name, declared]) => [name, definition(name, declared)])),
);

/** The fault's definition; throws on a name that is none (check with isFaultName first). */
export function faultOf(name: FaultName): FaultDefinition {
  const def = Object.hasOwn(FAULTS, name) ? FAULTS[name] : undefined;
  if (def === undefined) throw new Error(`unknown fault: ${name}`);
  return def;
}

/** The faults grouped by area, in the catalogue's area order, the negative controls last. */
export function faultsByArea(): Array<[string, FaultName[]]> {
  const order = [...AREAS, 'infrastructure'];
  const groups = new Map<string, FaultName[]>(order.map((a) => [a, []]));
  for (const name of FAULT_NAMES) groups.get(faultOf(name).area)?.push(name);
  return [...groups].filter(([, names]) => names.length > 0);
}

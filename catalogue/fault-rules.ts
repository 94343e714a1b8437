/**
 * The rule ids a planted fault declares beside its override (references/seams/steps.ts), checked against the
 * catalogue. The references that plant faults import nothing of the suite, so their declarations
 * name rules as plain strings; the suite reads them through here, where an unknown id, or a fault
 * that names no rule to catch it, is an error at the first import.
 */
import { isRuleId } from './index.ts';
import { isObligationId } from './obligations.ts';
import type { RuleId } from './rules.ts';

/** What a reference declares of one fault (a subset of references/seams/steps.ts FaultDeclaration). */
export interface DeclaredFault {
  readonly does: string;
  readonly breaks: readonly string[];
  readonly violates?: readonly string[];
}

/** A planted fault as the suite reads it: what is wrong and the catalogue rules it must break. */
export interface CheckedFault {
  /** What is wrong, in one sentence (the reference's own words). */
  readonly description: string;
  /** Catalogue rules the fault must break (fail, or warn for a SHOULD rule). */
  readonly breaks: readonly RuleId[];
  /** The spec obligations it violates, and no other (catalogue/obligations.ts). */
  readonly violates: readonly string[];
}

/** `ids` as rule ids; an unknown one is an error naming the fault. */
export function checkedRuleIds(fault: string, ids: readonly string[]): RuleId[] {
  const unknown = ids.filter((id) => !isRuleId(id));
  if (unknown.length > 0) throw new Error(`planted fault ${fault} names unknown rules: ${unknown.join(', ')}`);
  return ids as RuleId[];
}

/** `ids` as obligation ids; an unknown one is an error naming the fault. */
export function checkedObligationIds(fault: string, ids: readonly string[] | undefined): string[] {
  const unknown = (ids ?? []).filter((id) => !isObligationId(id));
  if (unknown.length > 0) throw new Error(`planted fault ${fault} names unknown obligations: ${unknown.join(', ')}`);
  return [...(ids ?? [])];
}

/** Every declared fault with its rule ids checked; a fault naming no rule to catch it is an error. */
export function checkedFaults(side: string, declared: Readonly<Record<string, DeclaredFault>>): Readonly<Record<string, CheckedFault>> {
  return Object.freeze(Object.fromEntries(Object.entries(declared).map(([name, d]) => {
    const breaks = checkedRuleIds(`${side}:${name}`, d.breaks);
    if (breaks.length === 0) throw new Error(`planted fault ${side}:${name} names no rule that must catch it`);
    return [name, { description: d.does, breaks, violates: checkedObligationIds(`${side}:${name}`, d.violates) }];
  })));
}

/** One fault of `faults`; an unknown name is an error naming the side. */
export function checkedFaultOf(side: string, faults: Readonly<Record<string, CheckedFault>>, name: string): CheckedFault {
  const def = Object.hasOwn(faults, name) ? faults[name] : undefined;
  if (def === undefined) throw new Error(`unknown ${side} fault: ${name}`);
  return def;
}

/**
 * Fault registries, one per spec area. A registry maps a fault name (kebab-case,
 * named after the defect) to what is wrong and the rule ids it must make fail;
 * the branch itself is an `if (ctx.faults.has('name'))` in the one function of
 * the reference server implementing the rule, with a comment saying what is wrong.
 */
import type { FaultDefinition } from '../faults.ts';

export const FAULT_REGISTRIES: ReadonlyArray<Readonly<Record<string, FaultDefinition>>> = [];

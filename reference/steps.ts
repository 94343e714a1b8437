/**
 * Seams for planted faults. Where one file carries many faults, its work is a table of small named
 * steps; a planted fault is an override named after the defect, declared in its step's `faulty`
 * table beside the check it breaks. An override gets the step's input and the check it replaces
 * (`next`) and returns or throws what the buggy code would: it may call `next` with an altered
 * input, alter what `next` answers, or not call it at all (a check written wrongly).
 */
import type { FaultName, FaultSet } from './faults.ts';

/** A planted fault's version of a step: `next` is the check it replaces. */
export type Override<In, Out> = (input: In, next: (input: In) => Out) => Out;

export interface Step<In, Out> {
  /** What the step checks. */
  readonly name: string;
  readonly check: (input: In) => Out;
  /** The planted faults of this step, by fault name. */
  readonly faulty?: { readonly [F in FaultName]?: Override<In, Out> };
}

/** The step's check with the faults of `faults` switched on (several of one step wrap each other in table order). */
export function checkOf<In, Out>(step: Step<In, Out>, faults: FaultSet): (input: In) => Out {
  let check = step.check;
  if (faults.size === 0 || step.faulty === undefined) return check;
  for (const [fault, override] of Object.entries(step.faulty) as Array<[FaultName, Override<In, Out>]>) {
    if (!faults.has(fault)) continue;
    const next = check;
    check = (input) => override(input, next);
  }
  return check;
}

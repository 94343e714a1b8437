/**
 * Seams for the example client's planted faults, the same mechanism as the reference server's
 * (reference/steps.ts, which examples/ may not import): the client's decisions are small named
 * steps, and a planted fault is an override named after the defect in its step's `faulty` table.
 * An override gets the step's input and the decision it replaces (`next`) and returns what the
 * buggy client would. A client you write needs none of this: read each step's `check`.
 */
import type { ClientFaultName } from './faults.ts';

/** A planted fault's version of a step: `next` is the decision it replaces. */
export type Override<In, Out> = (input: In, next: (input: In) => Out) => Out;

export interface Step<In, Out> {
  /** What the step decides. */
  readonly name: string;
  readonly check: (input: In) => Out;
  /** The planted faults of this step, by fault name. */
  readonly faulty?: { readonly [F in ClientFaultName]?: Override<In, Out> };
}

/** The step's decision with the faults of `faults` switched on (several of one step wrap each other in table order: the last listed is outermost). */
export function checkOf<In, Out>(step: Step<In, Out>, faults: ReadonlySet<ClientFaultName>): (input: In) => Out {
  let check = step.check;
  if (faults.size === 0 || step.faulty === undefined) return check;
  for (const [fault, override] of Object.entries(step.faulty) as Array<[ClientFaultName, Override<In, Out>]>) {
    if (!faults.has(fault)) continue;
    const next = check;
    check = (input) => override(input, next);
  }
  return check;
}

/**
 * Seams for planted faults, shared by every reference that plants them (the reference server, the
 * reference receiver, the example client; each types it by its own fault names in its steps.ts).
 * A reference's work is a table of small named steps; a planted fault is an override named after
 * the defect, declared in its step's `faulty` table beside the check it breaks. An override gets
 * the step's input and the check it replaces (`next`) and returns or throws what the buggy code
 * would: it may call `next` with an altered input, alter what `next` answers, or not call it at all.
 * This folder imports nothing, so the references stay free of the suite side.
 */

/** A planted fault's version of a step: `next` is the check it replaces. */
export type Override<In, Out> = (input: In, next: (input: In) => Out) => Out;

export interface Step<In, Out, F extends string> {
  /** What the step checks (or decides). */
  readonly name: string;
  readonly check: (input: In) => Out;
  /** The planted faults of this step, by fault name. */
  readonly faulty?: { readonly [K in F]?: Override<In, Out> };
}

/**
 * The step's check with the faults of `faults` switched on. Several faults of one step wrap each
 * other in table order: the last listed is outermost.
 */
export function checkOf<In, Out, F extends string>(step: Step<In, Out, F>, faults: ReadonlySet<F>): (input: In) => Out {
  let check = step.check;
  if (faults.size === 0 || step.faulty === undefined) return check;
  for (const [fault, override] of Object.entries(step.faulty) as Array<[F, Override<In, Out>]>) {
    if (!faults.has(fault)) continue;
    const next = check;
    check = (input) => override(input, next);
  }
  return check;
}

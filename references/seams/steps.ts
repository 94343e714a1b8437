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

/** What a planted fault is, declared once, beside one of its overrides (the fault's registry reads it there). */
export interface FaultDeclaration {
  /** What is wrong, in one sentence. */
  readonly does: string;
  /** The catalogue rules the suite must fail (or warn, for a SHOULD rule) while the fault is planted. */
  readonly breaks: readonly string[];
  /**
   * The spec's obligations (catalogue/obligations.ts ids) the fault violates, and no other: one
   * requirement, named once for each place the spec states it. The proof that each is checked:
   * the clause matrix counts an obligation proved when such a fault fails a rule citing its clause.
   */
  readonly violates?: readonly string[];
  /**
   * A negative control: not a bug but what stock infrastructure in front of a conformant
   * service does; the suite must raise nothing, and `observes` names the rules whose probes meet it.
   */
  readonly control?: { readonly observes: readonly string[] };
}

/** A fault's declaration with its override (`plant`); the fault's other overrides, if any, are bare. */
export interface Planted<In, Out> extends FaultDeclaration {
  readonly plant: Override<In, Out>;
}

export interface Step<In, Out, F extends string> {
  /** What the step checks (or decides). */
  readonly name: string;
  readonly check: (input: In) => Out;
  /** The planted faults of this step, by fault name: each declared (Planted) at one of its overrides. */
  readonly faulty?: { readonly [K in F]?: Override<In, Out> | Planted<In, Out> };
}

/** A step as the fault registry reads it: only its name and its override table. */
export interface PlantingStep {
  readonly name: string;
  readonly faulty?: { readonly [fault: string]: unknown };
}

/**
 * The step's check with the faults of `faults` switched on. Several faults of one step wrap each
 * other in table order: the last listed is outermost.
 */
export function checkOf<In, Out, F extends string>(step: Step<In, Out, F>, faults: ReadonlySet<F>): (input: In) => Out {
  let check = step.check;
  if (faults.size === 0 || step.faulty === undefined) return check;
  for (const [fault, entry] of Object.entries(step.faulty) as Array<[F, Override<In, Out> | Planted<In, Out>]>) {
    if (!faults.has(fault)) continue;
    const override = typeof entry === 'function' ? entry : entry.plant;
    const next = check;
    check = (input) => override(input, next);
  }
  return check;
}

/**
 * The faults planted in `steps`, each with its declaration, in table order: a frozen plain record
 * (Object.hasOwn, Object.keys and friends read it; a Map would read as empty to them). Throws when
 * an override's fault is declared nowhere or twice: a programming error, found at the first import.
 */
export function declaredFaults(steps: readonly PlantingStep[]): Readonly<Record<string, FaultDeclaration>> {
  const declared = new Map<string, FaultDeclaration>();
  const planted = new Set<string>();
  for (const step of steps) {
    for (const [fault, entry] of Object.entries(step.faulty ?? {})) {
      planted.add(fault);
      if (typeof entry === 'function') continue;
      if (declared.has(fault)) throw new Error(`planted fault ${fault} is declared twice (step: ${step.name})`);
      const { does, breaks, violates, control } = entry as Planted<unknown, unknown>;
      declared.set(fault, { does, breaks, ...(violates ? { violates } : {}), ...(control ? { control } : {}) });
    }
  }
  const undeclared = [...planted].filter((f) => !declared.has(f));
  if (undeclared.length > 0) throw new Error(`planted faults without a declaration: ${undeclared.join(', ')}`);
  return Object.freeze(Object.fromEntries(declared));
}

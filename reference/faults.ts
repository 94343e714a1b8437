/**
 * Planted faults: realistic bugs switched on by name (`hps-conformance serve --fault NAME`).
 * The set travels in the app context (`ctx.faults`); a fault is planted as an
 * `if (ctx.faults.has('name'))` branch inside the one small function implementing the rule
 * it breaks, and registered in FAULTS with the rule ids it breaks.
 */

import { FAULT_REGISTRIES } from './faults/index.ts';

export type FaultSet = ReadonlySet<string>;

export interface FaultDefinition {
  /** What is wrong, in one sentence. */
  description: string;
  /** Catalogue rule ids the fault is expected to break (none for a control). */
  breaks: readonly string[];
  /**
   * A negative control: not a bug of the service but what stock infrastructure in
   * front of it does to probes outside ordinary HTTP. The suite must raise nothing;
   * `observes` names the rules whose probes meet it.
   */
  control?: { observes: readonly string[] };
}

/**
 * The catalogue of faults, by name: one registry file per spec area under
 * reference/faults/ (each entry says what is wrong and which rules must fail).
 */
export const FAULTS: Readonly<Record<string, FaultDefinition>> = Object.assign({}, ...FAULT_REGISTRIES);

export const NO_FAULTS: FaultSet = new Set<string>();

/** The FaultSet for `names`; an unknown name is an error naming it. */
export function toFaultSet(names: Iterable<string> | undefined): FaultSet {
  const set = new Set<string>();
  for (const name of names ?? []) {
    if (!Object.hasOwn(FAULTS, name)) {
      const known = Object.keys(FAULTS);
      throw new Error(
        `unknown fault: ${name} (known: ${known.length > 0 ? known.join(', ') : 'none'})`,
      );
    }
    set.add(name);
  }
  return set;
}

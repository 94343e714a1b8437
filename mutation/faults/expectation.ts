/**
 * The shape of a fault's expectation, shared by mutation/faults.ts and each area's table in
 * mutation/faults/ (a leaf, so the tables and the catalogue that gathers them form no circle).
 */
import type { RuleId } from '../../catalogue/index.ts';

/** What must catch one fault. */
export interface FaultExpectation {
  /** Catalogue rule ids the fault is expected to break (none for a control). */
  readonly breaks: readonly RuleId[];
  /**
   * A negative control: not a bug of the service but what stock infrastructure in
   * front of it does to probes outside ordinary HTTP. The suite must raise nothing;
   * `observes` names the rules whose probes meet it.
   */
  readonly control?: { readonly observes: readonly RuleId[] };
}

/** The expectations of one area's registry: exactly its fault names, each with a FaultExpectation. */
export type ExpectationsOf<Registry> = { readonly [K in keyof Registry]: FaultExpectation };

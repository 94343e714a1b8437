/**
 * Planted faults: realistic bugs of the reference server, switched on by name
 * (`hps-conformance serve --fault NAME`). A fault is an override named after the defect in the
 * `faulty` table of the step it breaks, declared there (what is wrong, which rules must catch it;
 * references/seams/steps.ts); references/service/fault-registry.ts gathers the declarations. This module is the leaf
 * every planting file may import: the set's type and the empty set.
 *
 * The set travels in the app context (`ctx.faults`); test/architecture/fault-seams.test.ts refuses
 * an inline branch on it.
 */

/** A planted fault's name (kebab-case, after the defect): one of fault-registry.ts's FAULT_NAMES. */
export type FaultName = string;

export type FaultSet = ReadonlySet<FaultName>;

export const NO_FAULTS: FaultSet = new Set<FaultName>();

/**
 * The seams of the reference server's planted faults (references/seams/steps.ts says how they work): an
 * override named after the defect, in the `faulty` table of the step it breaks, and the fault's
 * declaration (what is wrong, the rules that must catch it) beside one of its overrides.
 */
import type { Step as Seam } from '../seams/steps.ts';
import type { FaultName } from './faults.ts';

export { checkOf, type PlantingStep } from '../seams/steps.ts';

export type Step<In, Out> = Seam<In, Out, FaultName>;

/**
 * The seams of the reference server's planted faults (seams/steps.ts says how they work), typed by
 * its fault names: an override named after the defect, in the `faulty` table of the step it breaks.
 */
import type { Step as Seam } from '../seams/steps.ts';
import type { FaultName } from './faults.ts';

export { checkOf } from '../seams/steps.ts';

export type Step<In, Out> = Seam<In, Out, FaultName>;

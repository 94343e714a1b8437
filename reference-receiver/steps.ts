/**
 * The seams of the reference receiver's planted faults (seams/steps.ts says how they work), typed
 * by its fault names.
 */
import type { Step as Seam } from '../seams/steps.ts';
import type { ReceiverFaultName } from './faults.ts';

export { checkOf } from '../seams/steps.ts';

export type Step<In, Out> = Seam<In, Out, ReceiverFaultName>;

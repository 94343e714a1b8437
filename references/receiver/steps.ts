/**
 * The seams of the reference receiver's planted faults (references/seams/steps.ts says how they work), typed
 * by its fault names.
 */
import type { Step as Seam } from '../seams/steps.ts';

export { checkOf, type PlantingStep } from '../seams/steps.ts';

/** A planted fault's name: one of faults.ts's RECEIVER_FAULT_NAMES. */
export type ReceiverFaultName = string;

export type Step<In, Out> = Seam<In, Out, ReceiverFaultName>;

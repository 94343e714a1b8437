/**
 * The seams of the example client's planted faults (references/seams/steps.ts says how they work), typed by
 * its fault names: each retry decision is a step.
 */
import type { Step as Seam } from '../seams/steps.ts';

export { checkOf, type PlantingStep } from '../seams/steps.ts';

/** A planted fault's name: one of faults.ts's CLIENT_FAULT_NAMES. */
export type ClientFaultName = string;

export type Step<In, Out> = Seam<In, Out, ClientFaultName>;

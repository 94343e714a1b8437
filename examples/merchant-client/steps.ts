/**
 * The seams of the example client's planted faults (seams/steps.ts says how they work), typed by
 * its fault names: each retry decision is a step.
 */
import type { Step as Seam } from '../../seams/steps.ts';
import type { ClientFaultName } from './faults.ts';

export { checkOf } from '../../seams/steps.ts';

export type Step<In, Out> = Seam<In, Out, ClientFaultName>;

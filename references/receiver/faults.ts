/**
 * Planted faults of the reference receiver: realistic bugs of merchant webhook code, switched on
 * by name (`hps-conformance serve-receiver --fault NAME`). Each is an override named after the
 * defect in the `faulty` table of the step it breaks, declared there (what is wrong, the rules that
 * must catch it: references/seams/steps.ts); this registry gathers the declarations from the files that plant
 * them (merchant/receiver/faults.ts checks the rule ids).
 */
import { declaredFaults, type FaultDeclaration } from '../seams/steps.ts';
import { FAULTY_STEPS as HANDLING } from './handling-steps.ts';
import { FAULTY_STEPS as RECORDS } from './records.ts';
import { FAULTY_STEPS as VERIFY } from './verify.ts';

import type { ReceiverFaultName } from './steps.ts';

export type { ReceiverFaultName } from './steps.ts';

/** Every planted fault of the reference receiver: name → its declaration. */
export const RECEIVER_FAULTS: Readonly<Record<ReceiverFaultName, FaultDeclaration>> = declaredFaults([...VERIFY, ...RECORDS, ...HANDLING]);

export const RECEIVER_FAULT_NAMES: readonly ReceiverFaultName[] = Object.keys(RECEIVER_FAULTS);

/** The fault set for `names`; an unknown name is an error naming the known ones. */
export function toReceiverFaultSet(names: Iterable<string> | undefined): ReadonlySet<ReceiverFaultName> {
  const set = new Set<ReceiverFaultName>();
  for (const name of names ?? []) {
    if (!Object.hasOwn(RECEIVER_FAULTS, name)) throw new Error(`unknown receiver fault: ${name} (known: ${RECEIVER_FAULT_NAMES.join(', ')})`);
    set.add(name);
  }
  return set;
}

/**
 * What must catch each planted fault of the reference receiver: the catalogue rules that must fail (or warn, for a
 * SHOULD rule), as each fault declares them beside its override (references/receiver/faults.ts gathers them), checked
 * against the catalogue (catalogue/fault-rules.ts).
 */
import { checkedFaultOf, checkedFaults, type CheckedFault } from '../../catalogue/fault-rules.ts';
import { RECEIVER_FAULTS as DECLARED, RECEIVER_FAULT_NAMES, type ReceiverFaultName } from '../../references/receiver/faults.ts';

export { RECEIVER_FAULT_NAMES, type ReceiverFaultName };

export type ReceiverFaultDefinition = CheckedFault;

export const RECEIVER_FAULTS: Readonly<Record<ReceiverFaultName, ReceiverFaultDefinition>> = checkedFaults('receiver', DECLARED);

/** The fault's definition; throws on a name that is none. */
export const receiverFaultOf = (name: ReceiverFaultName): ReceiverFaultDefinition => checkedFaultOf('receiver', RECEIVER_FAULTS, name);

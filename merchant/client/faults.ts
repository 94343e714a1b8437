/**
 * What must catch each planted fault of the example client: the catalogue rules that must fail (or warn, for a
 * SHOULD rule), as each fault declares them beside its override (references/client/faults.ts gathers them), checked
 * against the catalogue (catalogue/fault-rules.ts).
 */
import { checkedFaultOf, checkedFaults, type CheckedFault } from '../../catalogue/fault-rules.ts';
import { CLIENT_FAULTS as DECLARED, CLIENT_FAULT_NAMES, type ClientFaultName } from '../../references/client/faults.ts';

export { CLIENT_FAULT_NAMES, type ClientFaultName };

export type ClientFaultDefinition = CheckedFault;

export const CLIENT_FAULTS: Readonly<Record<ClientFaultName, ClientFaultDefinition>> = checkedFaults('client', DECLARED);

/** The fault's definition; throws on a name that is none. */
export const clientFaultOf = (name: ClientFaultName): ClientFaultDefinition => checkedFaultOf('client', CLIENT_FAULTS, name);

/**
 * Planted faults of the example client, selected by HPS_CLIENT_FAULT=name (comma-separated). Each
 * is an override named after the defect beside the decision it breaks (client.ts), declared there
 * (what is wrong, the rules `hps-conformance client` must make fail: references/seams/steps.ts); this registry
 * gathers the declarations (merchant/client/faults.ts checks the rule ids).
 */
import { declaredFaults, type FaultDeclaration } from '../seams/steps.ts';
import { FAULTY_STEPS } from './client.ts';

import type { ClientFaultName } from './steps.ts';

export type { ClientFaultName } from './steps.ts';

/** Every planted fault of the example client: name → its declaration. */
export const CLIENT_FAULTS: Readonly<Record<ClientFaultName, FaultDeclaration>> = declaredFaults(FAULTY_STEPS);

export const CLIENT_FAULT_NAMES: readonly ClientFaultName[] = Object.keys(CLIENT_FAULTS);

export function clientFaultsFrom(value: string | undefined): ReadonlySet<ClientFaultName> {
  const names = (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const n of names) if (!Object.hasOwn(CLIENT_FAULTS, n)) throw new Error(`unknown client fault ${n} (known: ${CLIENT_FAULT_NAMES.join(', ')})`);
  return new Set(names);
}

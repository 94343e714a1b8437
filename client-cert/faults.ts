/**
 * What must catch each planted fault of the example client (examples/merchant-client/faults.ts declares
 * them): the catalogue rules `hps-conformance client` must make fail (or warn, for a SHOULD rule).
 * Keyed by the client's own fault names, so a fault missing on either side fails `tsc`.
 */
import type { RuleId } from '../catalogue/index.ts';
import { CLIENT_FAULTS as DECLARED, CLIENT_FAULT_NAMES, type ClientFaultName } from '../examples/merchant-client/faults.ts';

export { CLIENT_FAULT_NAMES, type ClientFaultName };

export interface ClientFaultDefinition {
  /** What is wrong, in one sentence (the example client's own words). */
  readonly description: string;
  /** Catalogue rules the fault must break. */
  readonly breaks: readonly RuleId[];
}

const EXPECTED: { readonly [K in ClientFaultName]: { readonly breaks: readonly RuleId[] } } = {
  // A re-send under another key is another create (the spec's identity): the first create was never retried.
  'new-key-per-retry': { breaks: ['CLIENT-RETRY-TRANSIENT'] },
  'no-idempotency-key': { breaks: ['CLIENT-CREATE-HAS-KEY'] },
  'ignores-retry-after': { breaks: ['CLIENT-HONOUR-RETRY-AFTER'] },
  'backs-off-1s-ignoring-retry-after': { breaks: ['CLIENT-HONOUR-RETRY-AFTER'] },
  'changes-body-on-retry': { breaks: ['CLIENT-SAME-IDEMPOTENCY-KEY'] },
  'retries-cancel-on-500': { breaks: ['CLIENT-CANCEL-RETRY-ONLY-429'] },
  'retries-cancel-on-503': { breaks: ['CLIENT-CANCEL-RETRY-ONLY-429'] },
  'retries-400': { breaks: ['CLIENT-NO-RETRY-4XX'] },
  'gives-up-after-first-502': { breaks: ['CLIENT-RETRY-TRANSIENT'] },
};

export const CLIENT_FAULTS = Object.fromEntries(
  CLIENT_FAULT_NAMES.map((name) => [name, { description: DECLARED[name], breaks: EXPECTED[name].breaks }]),
) as { readonly [K in ClientFaultName]: ClientFaultDefinition };

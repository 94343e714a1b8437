/**
 * What must catch each planted fault of the reference receiver (reference-receiver/faults.ts
 * declares them): the catalogue rules that must fail (or warn, for a SHOULD rule). Keyed by the
 * receiver's own fault names, so a fault missing on either side fails `tsc`.
 */
import type { RuleId } from '../catalogue/index.ts';
import { RECEIVER_FAULTS as DECLARED, RECEIVER_FAULT_NAMES, type ReceiverFaultName } from '../reference-receiver/faults.ts';

export { RECEIVER_FAULT_NAMES, type ReceiverFaultName };

export interface ReceiverFaultDefinition {
  /** What is wrong, in one sentence (the receiver's own words). */
  readonly description: string;
  /** Catalogue rules the fault must break. */
  readonly breaks: readonly RuleId[];
}

const EXPECTED: { readonly [K in ReceiverFaultName]: { readonly breaks: readonly RuleId[] } } = {
  'skips-verification': { breaks: ['RECV-VERIFY-SIGNATURE', 'RECV-TIMESTAMP-TOLERANCE', 'RECV-FULFIL-ON-PAID', 'RECV-REJECTED-NOT-PROCESSED'] },
  'stores-status-before-verifying': { breaks: ['RECV-REJECTED-NOT-PROCESSED'] },
  'answers-200-to-bad-signatures': { breaks: ['RECV-VERIFY-SIGNATURE'] },
  'processes-before-verifying': { breaks: ['RECV-FULFIL-ON-PAID', 'RECV-REJECTED-NOT-PROCESSED'] },
  'accepts-stale-timestamps': { breaks: ['RECV-TIMESTAMP-TOLERANCE', 'RECV-FULFIL-ON-PAID', 'RECV-REJECTED-NOT-PROCESSED'] },
  'tolerance-four-minutes': { breaks: ['RECV-TIMESTAMP-EDGE'] },
  'verifies-reserialised-json': { breaks: ['RECV-RAW-BODY'] },
  'several-v1-skip-check': { breaks: ['RECV-VERIFY-SIGNATURE'] },
  'accepts-uppercase-hex': { breaks: ['RECV-SIGNATURE-STRICT'] },
  'answers-500-to-unknown-types': { breaks: ['RECV-IGNORE-UNKNOWN-TYPES'] },
  'processes-duplicates-twice': { breaks: ['RECV-DEDUPLICATE'] },
  'fulfils-on-payment-created': { breaks: ['RECV-FULFIL-ON-PAID'] },
  'last-event-wins': { breaks: ['RECV-ARRIVAL-ORDER'] },
  'slow-acknowledgement': { breaks: ['RECV-ACK-EVERY-TYPE', 'RECV-RESPONSE-TIME'] },
};

export const RECEIVER_FAULTS = Object.fromEntries(
  RECEIVER_FAULT_NAMES.map((name) => [name, { description: DECLARED[name], breaks: EXPECTED[name].breaks }]),
) as { readonly [K in ReceiverFaultName]: ReceiverFaultDefinition };

/**
 * Planted faults of the reference receiver: realistic bugs of merchant webhook code, switched on
 * by name (`hps-conformance serve-receiver --fault NAME`), each registered with the rule ids it
 * must make fail (or warn, for a SHOULD rule). The branch is an `if (faults.has('name'))` in the one
 * function of reference-receiver/ doing that job.
 */
import type { RuleId } from '../catalogue/index.ts';

export interface ReceiverFaultDefinition {
  /** What is wrong, in one sentence. */
  description: string;
  /** Catalogue rules the fault must break. */
  breaks: readonly RuleId[];
}

export const RECEIVER_FAULTS = {
  'skips-verification': {
    description: 'The signature is never checked: every delivery is processed and acknowledged.',
    breaks: ['RECV-VERIFY-SIGNATURE', 'RECV-TIMESTAMP-TOLERANCE', 'RECV-FULFIL-ON-PAID'],
  },
  'answers-200-to-bad-signatures': {
    description: 'A delivery failing the signature check is not processed but is answered 200 (to stop the retries).',
    breaks: ['RECV-VERIFY-SIGNATURE'],
  },
  'processes-before-verifying': {
    description: 'payment.paid is fulfilled as soon as it is parsed; the signature is checked afterwards and answered 400.',
    breaks: ['RECV-FULFIL-ON-PAID'],
  },
  'accepts-stale-timestamps': {
    description: 'The timestamp window is not checked: a correctly signed replay of any age is accepted.',
    breaks: ['RECV-TIMESTAMP-TOLERANCE', 'RECV-FULFIL-ON-PAID'],
  },
  'tolerance-four-minutes': {
    description: 'The timestamp tolerance is 4 minutes instead of 5: deliveries inside the window are rejected.',
    breaks: ['RECV-TIMESTAMP-EDGE'],
  },
  'verifies-reserialised-json': {
    description: 'The signature is checked over JSON.stringify(JSON.parse(body)), not over the raw bytes received.',
    breaks: ['RECV-RAW-BODY'],
  },
  'several-v1-skip-check': {
    description: 'A header with more than one v1 entry (secret rotation) is accepted without comparing any of them.',
    breaks: ['RECV-VERIFY-SIGNATURE'],
  },
  'accepts-uppercase-hex': {
    description: 'v1 is lower-cased before the comparison, so an upper-case hex signature is accepted.',
    breaks: ['RECV-SIGNATURE-STRICT'],
  },
  'answers-500-to-unknown-types': {
    description: 'An event type the receiver does not know throws, answered 500.',
    breaks: ['RECV-IGNORE-UNKNOWN-TYPES'],
  },
  'processes-duplicates-twice': {
    description: 'No deduplication on event.id: a retried event is processed again.',
    breaks: ['RECV-DEDUPLICATE'],
  },
  'fulfils-on-payment-created': {
    description: 'The order is fulfilled on payment.created (as soon as a Payment exists), not on payment.paid.',
    breaks: ['RECV-FULFIL-ON-PAID'],
  },
  'last-event-wins': {
    description: 'The stored status is whatever the latest-arriving event says, so a late payment.created sets a PAID Payment back to PENDING.',
    breaks: ['RECV-ARRIVAL-ORDER'],
  },
  'slow-acknowledgement': {
    description: 'payment.reversed is handled synchronously (a refund call) and answered after 10.5 s, past the time-out.',
    breaks: ['RECV-ACK-EVERY-TYPE', 'RECV-RESPONSE-TIME'],
  },
} as const satisfies Record<string, ReceiverFaultDefinition>;

export type ReceiverFaultName = keyof typeof RECEIVER_FAULTS;
export const RECEIVER_FAULT_NAMES = Object.keys(RECEIVER_FAULTS) as ReceiverFaultName[];

/** The fault set for `names`; an unknown name is an error naming the known ones. */
export function toReceiverFaultSet(names: Iterable<string> | undefined): ReadonlySet<ReceiverFaultName> {
  const set = new Set<ReceiverFaultName>();
  for (const name of names ?? []) {
    if (!Object.hasOwn(RECEIVER_FAULTS, name)) throw new Error(`unknown receiver fault: ${name} (known: ${RECEIVER_FAULT_NAMES.join(', ')})`);
    set.add(name as ReceiverFaultName);
  }
  return set;
}

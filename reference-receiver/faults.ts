/**
 * Planted faults of the reference receiver: realistic bugs of merchant webhook code, switched on
 * by name (`hps-conformance serve-receiver --fault NAME`). The receiver declares its defects here
 * (name → what is wrong, in one sentence); which rules must catch each is the suite's business
 * (receiver-cert/faults.ts). A fault is planted as an override named after the defect, in the `faulty`
 * table of the step it breaks (reference-receiver/steps.ts).
 */

export const RECEIVER_FAULTS = {
  'skips-verification':
    'The signature is never checked: every delivery is processed and acknowledged.',
  'answers-200-to-bad-signatures':
    'A delivery failing the signature check is not processed but is answered 200 (to stop the retries).',
  'processes-before-verifying':
    'payment.paid is fulfilled as soon as it is parsed; the signature is checked afterwards and answered 400.',
  'stores-status-before-verifying':
    'The Payment status an event carries is stored as soon as the body is parsed; the signature is checked afterwards and answered 400 (nothing is fulfilled).',
  'accepts-stale-timestamps':
    'The timestamp window is not checked: a correctly signed replay of any age is accepted.',
  'tolerance-four-minutes':
    'The timestamp tolerance is 4 minutes instead of 5: deliveries inside the window are rejected.',
  'verifies-reserialised-json':
    'The signature is checked over JSON.stringify(JSON.parse(body)), not over the raw bytes received.',
  'several-v1-skip-check':
    'A header with more than one v1 entry (secret rotation) is accepted without comparing any of them.',
  'accepts-uppercase-hex':
    'v1 is lower-cased before the comparison, so an upper-case hex signature is accepted.',
  'answers-500-to-unknown-types':
    'An event type the receiver does not know throws, answered 500.',
  'processes-duplicates-twice':
    'No deduplication on event.id: a retried event is processed again.',
  'fulfils-on-payment-created':
    'The order is fulfilled on payment.created (as soon as a Payment exists), not on payment.paid.',
  'last-event-wins':
    'The stored status is whatever the latest-arriving event says, so a late payment.created sets a PAID Payment back to PENDING.',
  'slow-acknowledgement':
    'payment.reversed is handled synchronously (a refund call) and answered after 10.5 s, past the time-out.',
} as const satisfies Readonly<Record<string, string>>;

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

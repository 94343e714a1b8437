/**
 * The steps of handling one delivery that carry the reference receiver's planted faults (each an
 * override named after the defect in the `faulty` table of the step it breaks, declared there:
 * steps.ts): what is done before the signature is checked, the answer to a bad signature,
 * deduplication, unknown event types, and the acknowledgement. server.ts runs them.
 */
import { PAYMENT_EVENTS, type ReceiverRecords } from './records.ts';
import { sleep } from './sleep.ts';
import type { PlantingStep, Step } from './steps.ts';

/** A delivery's body, as far as handling reads it. */
export type ParsedEvent = { id: string; type: string; data?: { object?: { id?: unknown; status?: unknown } } };

/** Before its signature is checked, an event changes nothing (faults outermost last: the last listed acts first). */
export const UNVERIFIED: Step<{ readonly records: ReceiverRecords; readonly event: ParsedEvent | null }, void> = {
  name: 'nothing is acted on before the signature is checked',
  check: () => undefined,
  faulty: {
    'stores-status-before-verifying': {
      does: 'The Payment status an event carries is stored as soon as the body is parsed; the signature is checked afterwards and answered 400 (nothing is fulfilled).',
      breaks: ['RECV-REJECTED-NOT-PROCESSED'],
      violates: ['signature.failure-400-not-processed#not-processed'],
      plant: (input, next) => {
        next(input);
        if (input.event && PAYMENT_EVENTS.has(input.event.type)) input.records.storeClaimedStatus(input.event);
      },
    },
    'processes-before-verifying': {
      does: 'payment.paid is fulfilled as soon as it is parsed; the signature is checked afterwards and answered 400.',
      breaks: ['RECV-FULFIL-ON-PAID', 'RECV-REJECTED-NOT-PROCESSED'],
      violates: ['signature.failure-400-not-processed#not-processed'],
      plant: (input, next) => {
        const id = input.event?.type === 'payment.paid' ? input.event.data?.object?.id : undefined;
        if (typeof id === 'string') input.records.fulfil(id);
        next(input);
      },
    },
  },
};

/** The status a delivery failing the signature check is answered with. */
export const BAD_SIGNATURE: Step<void, number> = {
  name: 'a delivery failing the signature check is answered 400',
  check: () => 400,
  faulty: {
    'answers-200-to-bad-signatures': {
      does: 'A delivery failing the signature check is not processed but is answered 200 (to stop the retries).',
      breaks: ['RECV-VERIFY-SIGNATURE'],
      violates: ['signature.failure-400-not-processed#answers-400'],
      plant: () => 200,
    },
  },
};

/** Whether the event was processed before (deduplication on event.id, for as long as the service may retry it). */
export const DUPLICATE: Step<{ readonly records: ReceiverRecords; readonly event: ParsedEvent; readonly now: number; readonly forgetMs: number }, boolean> = {
  name: 'an event seen before is acknowledged, not processed again',
  check: ({ records, event }) => records.seen(event.id),
  faulty: {
    'dedups-for-a-minute-only': {
      does: 'Deduplicates on event.id in a cache that forgets an id 60 s after it was first processed (the window a parameter of the reference receiver, dedupForgetMs): the service\'s 2-minute retry is processed again.',
      breaks: ['RECV-DEDUPLICATE'],
      plant: (input, next) => next(input) && input.now - (input.records.firstSeenAt(input.event.id) ?? input.now) < input.forgetMs,
    },
    'processes-duplicates-twice': {
      does: 'No deduplication on event.id: a retried event is processed again.',
      breaks: ['RECV-DEDUPLICATE'],
      violates: ['delivery-rules.receivers-deduplicate'],
      plant: () => false,
    },
    'guard-per-payment': {
      does: 'Guards on the Payment instead of the event: once any event of a Payment is handled, every later event of that Payment ' +
        'is skipped and acknowledged 200, so payment.created then payment.paid leaves the order unpaid and unshipped (paid then ' +
        'created, the one order the arrival-order probe sends, does no harm).',
      breaks: ['RECV-EVENT-STORIES'],
      violates: ['delivery-rules.receivers-fetch-current'],
      plant: (input, next) => next(input) || input.records.holdsPayment(input.event.data?.object?.id),
    },
  },
};

/** What an event of a type the receiver does not handle answers: null for the ordinary acknowledgement. */
export const UNHANDLED: Step<ParsedEvent, { status: number; body: unknown } | null> = {
  name: 'an unknown event type is acknowledged and ignored',
  check: () => null,
  faulty: {
    'answers-500-to-unknown-types': {
      does: 'An event type the receiver does not know throws, answered 500.',
      breaks: ['RECV-IGNORE-UNKNOWN-TYPES'],
      violates: ['events.unknown-types-ignored'],
      plant: (event, next) => (event.type !== 'endpoint.test' ? { status: 500, body: { error: `no handler for ${event.type}` } } : next(event)),
    },
  },
};

/** What is done before the acknowledgement is sent: nothing that takes time. */
export const ACKNOWLEDGEMENT: Step<{ readonly event: ParsedEvent; readonly timers: Set<NodeJS.Timeout> }, Promise<void>> = {
  name: 'the acknowledgement is not held back by the processing',
  check: async () => undefined,
  faulty: {
    'slow-acknowledgement': {
      does: 'payment.reversed is handled synchronously (a refund call) and answered after 10.5 s, past the time-out.',
      breaks: ['RECV-ACK-EVERY-TYPE', 'RECV-RESPONSE-TIME'],
      violates: ['limits.webhook-timeout'],
      plant: (input, next) => (input.event.type === 'payment.reversed' ? sleep(10_500, input.timers) : next(input)),
    },
  },
};

/** The steps of this file that plant faults (references/receiver/faults.ts reads their declarations). */
export const FAULTY_STEPS: readonly PlantingStep[] = [UNVERIFIED, BAD_SIGNATURE, DUPLICATE, UNHANDLED, ACKNOWLEDGEMENT];

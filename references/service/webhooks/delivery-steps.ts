/**
 * The steps of a webhook delivery (spec, "Events" > "Delivery request", "Delivery rules",
 * "Signature"; "Limits"), each a small named check: what goes out on an attempt (timestamp, body,
 * signature, headers, the POST and its time-out), how its answer is read (acknowledgement), and
 * what follows a failure (attempt limit, gap). The dispatcher (dispatcher.ts) runs them.
 *
 * The planted faults of delivery are overrides named after the defect, in the `faulty` table of
 * the step they break (references/service/steps.ts says how an override replaces a check).
 */
import type { FaultSet } from '../faults.ts';
import { newEventId, newObjectId } from '../ids.ts';
import { checkOf, type PlantingStep, type Step } from '../steps.ts';
import type { StoredEvent, WebhookEndpoint } from '../types.ts';
import { signatureHeader } from './sign.ts';

/** Gap before attempt n+2, after attempt n+1 failed. */
export const RETRY_GAPS_MS: readonly number[] = [
  0,
  30_000,
  2 * 60_000,
  10 * 60_000,
  30 * 60_000,
  2 * 60 * 60_000,
  6 * 60 * 60_000,
];
export const MAX_ATTEMPTS = RETRY_GAPS_MS.length + 1;
export const USER_AGENT = 'Service-Webhooks/1.0';

export interface AttemptResult {
  status: number | null;
  error: string | null;
  /** The response's Location header, when it had one. */
  location?: string;
}

/** Sends one POST and resolves with its result (the dispatcher's transport). */
/** One attempt on the wire: POST unless a planted fault sends another method. */
export type Send = (url: string, body: Buffer, headers: Record<string, string>, method?: string) => Promise<AttemptResult>;

/** Starting delivery of an event: one delivery per endpoint. */
export interface Enqueue {
  readonly endpoints: readonly WebhookEndpoint[];
  readonly start: (endpoint: WebhookEndpoint) => void;
}

const ENQUEUE: Step<Enqueue, void> = {
  name: 'one delivery per endpoint, its first attempt at once',
  check: ({ endpoints, start }) => {
    for (const endpoint of endpoints) start(endpoint);
  },
  faulty: {
    'webhooks-never-sent': {
      does: 'Events are written to the outbox but no worker ever drains it: no webhook is ever delivered.',
      breaks: ['HOOK-EVENT-CREATED', 'HOOK-EVENT-PAID', 'HOOK-AT-LEAST-ONCE'],
      violates: ['delivery-rules.at-least-once'],
      plant: () => {},
    },
  },
};

/** When an attempt starts (ms), and when the first attempt of its delivery started. */
interface TimestampInput {
  readonly startedAtMs: number;
  readonly firstStartedAtMs: number;
}

/** The signature's `t`, in Unix seconds, from the attempt's start (ms): every attempt signed for itself. */
const TIMESTAMP: Step<TimestampInput, number> = {
  name: 'the signature timestamp is the time of sending',
  check: ({ startedAtMs }) => Math.floor(startedAtMs / 1000),
  faulty: {
    'signature-clock-behind': {
      does: 'The signature timestamp t comes from a worker clock that runs 10 minutes behind (not NTP-synced).',
      breaks: ['HOOK-TIMESTAMP-FRESH'],
      violates: ['delivery.header.signature#t-now'],
      plant: (input, next) => next(input) - 600,
    },
    'signature-clock-301s-behind': {
      does: 'The signature timestamp t comes from a clock 301 s behind: one second past the 5-minute tolerance, so receivers reject ' +
        'every delivery.',
      breaks: ['HOOK-TIMESTAMP-FRESH'],
      violates: ['delivery.header.signature#t-now'],
      plant: (input, next) => next(input) - 301,
    },
    'retry-resends-first-signature': {
      does: 'The signed headers are stored with the outbox message when the event is first sent: every retry re-sends the first ' +
        'attempt\'s Service-Signature unchanged, so at the 10 min, 2 h and 6 h steps its t is that old and a receiver applying the ' +
        '5-minute tolerance refuses every retry.',
      breaks: ['HOOK-SIGNED-PER-ATTEMPT'],
      violates: ['delivery.header.signature#t-now'],
      plant: (input, next) => next({ ...input, startedAtMs: input.firstStartedAtMs }),
    },
  },
};

interface BodyInput {
  readonly event: StoredEvent;
  /** Whether an earlier attempt of this delivery went out. */
  readonly retry: boolean;
}

interface Outgoing {
  readonly body: Buffer;
  readonly eventId: string;
}

const BODY: Step<BodyInput, Outgoing> = {
  name: "every attempt carries the event's stored bytes and its id",
  check: ({ event }) => ({ body: event.body, eventId: event.id }),
  faulty: {
    'retry-gets-new-event-id': {
      does: 'A retry is enqueued as a new event: a fresh evt_ id in the body and Service-Event-ID on every attempt.',
      breaks: ['HOOK-RETRY-SAME-BODY'],
      violates: ['event.field.id#reused-on-retry', 'delivery-rules.retry-same-id-body#same-id'],
      plant: (input, next) => {
        if (!input.retry) return next(input);
        const eventId = newEventId();
        const body = Buffer.from(JSON.stringify({ ...JSON.parse(input.event.body.toString('utf8')), id: eventId }), 'utf8');
        return { body, eventId };
      },
    },
  },
};

interface SignatureInput {
  readonly secret: string;
  readonly timestamp: number;
  /** The bytes sent. */
  readonly body: Buffer;
}

const SIGNATURE: Step<SignatureInput, string> = {
  name: 'the HMAC covers t and the exact bytes sent',
  check: ({ secret, timestamp, body }) => signatureHeader(secret, timestamp, body),
  faulty: {
    'signature-over-reserialised-json': {
      does: 'The signature is computed over a re-serialisation of the event with non-ASCII characters escaped (\\uXXXX, as Python\'s ' +
        'json.dumps does), not over the bytes sent.',
      breaks: ['HOOK-SIGNATURE-VALID'],
      violates: ['signature.hmac-over-raw-body#service-signs'],
      plant: (input, next) => next({ ...input, body: reserialisedAscii(input.body) }),
    },
  },
};

function reserialisedAscii(body: Buffer): Buffer {
  const text = JSON.stringify(JSON.parse(body.toString('utf8')));
  return Buffer.from(text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`), 'utf8');
}

interface HeadersInput extends Outgoing {
  readonly signature: string;
}

const HEADERS: Step<HeadersInput, Record<string, string>> = {
  name: 'the delivery headers',
  check: ({ body, eventId, signature }) => ({
    'Content-Type': 'application/json',
    'Content-Length': String(body.length),
    'Service-Event-ID': eventId,
    'Service-Signature': signature,
    'User-Agent': USER_AGENT,
  }),
  faulty: {
    'user-agent-missing': {
      does: 'Deliveries carry no User-Agent header (the HTTP client\'s default is kept).',
      breaks: ['HOOK-HEADERS'],
      violates: ['delivery.header.user-agent'],
      plant: (input, next) => {
        const { 'User-Agent': _dropped, ...headers } = next(input);
        return headers;
      },
    },
    'event-id-header-is-attempt-id': {
      does: 'Service-Event-ID carries the id of the delivery attempt (whatt_…) instead of the event id.',
      breaks: ['HOOK-HEADERS'],
      violates: ['delivery.header.event-id'],
      plant: (input, next) => ({ ...next(input), 'Service-Event-ID': newObjectId('whatt') }),
    },
    'deliveries-unsigned': {
      does: 'Deliveries go out without Service-Signature (signing was switched off for a migration and never back on).',
      breaks: ['HOOK-SIGNATURE-VALID'],
      violates: ['auth.webhook-signing-secret#signed'],
      plant: (input, next) => {
        const { 'Service-Signature': _dropped, ...headers } = next(input);
        return headers;
      },
    },
    'signature-scheme-named-sha256': {
      does: 'Service-Signature names its scheme sha256= instead of v1= (t=<unix_time>,sha256=<hex>), the HMAC itself right.',
      breaks: ['HOOK-SIGNATURE-VALID'],
      violates: ['delivery.header.signature#form'],
      plant: (input, next) => {
        const headers = next(input);
        return { ...headers, 'Service-Signature': String(headers['Service-Signature']).replace(',v1=', ',sha256=') };
      },
    },
    'deliveries-form-content-type': {
      does: 'Deliveries declare Content-Type application/x-www-form-urlencoded (the HTTP client\'s default for a POST body).',
      breaks: ['HOOK-JSON-CONTENT-TYPE'],
      violates: ['delivery.method-and-body'],
      plant: (input, next) => ({ ...next(input), 'Content-Type': 'application/x-www-form-urlencoded' }),
    },
  },
};

interface PostInput {
  readonly url: string;
  readonly body: Buffer;
  readonly headers: Record<string, string>;
  readonly send: Send;
}

const POST: Step<PostInput, Promise<AttemptResult>> = {
  name: 'one POST per attempt; a redirect is an answer, never followed',
  check: ({ url, body, headers, send }) => send(url, body, headers),
  faulty: {
    'deliveries-sent-as-put': {
      does: 'Deliveries are sent with PUT (the endpoint URL treated as a resource to store the event at), headers and JSON body as ' +
        'they should be.',
      breaks: ['HOOK-HEADERS', 'HOOK-ENVELOPE'],
      violates: ['receiver-op.post-to-subscribed-endpoints#post-json', 'delivery.method-and-body'],
      plant: ({ url, body, headers, send }) => send(url, body, headers, 'PUT'),
    },
    'redirects-followed': {
      does: 'The HTTP client follows redirects (as fetch does by default) and takes the redirect target\'s answer as the attempt\'s.',
      breaks: ['HOOK-REDIRECT-NOT-FOLLOWED', 'HOOK-RETRY-ON-FAILURE'],
      violates: ['delivery-rules.redirects-not-followed'],
      plant: async (input, next) => {
        const result = await next(input);
        const redirect = result.status !== null && result.status >= 300 && result.status < 400 && result.location;
        return redirect ? next({ ...input, url: new URL(result.location!, input.url).toString() }) : result;
      },
    },
  },
};

/** The attempt's time-out (ms), from the configured one. */
const TIMEOUT: Step<number, number> = {
  name: 'an attempt waits 10 s for a complete response',
  check: (timeoutMs) => timeoutMs,
  faulty: {
    'webhook-timeout-5s': {
      does: 'Deliveries time out after 5 s instead of the spec\'s 10 s, so a 2xx sent after 8 s is never seen and the event is retried.',
      breaks: ['HOOK-NO-RETRY-AFTER-ACK'],
      violates: ['limits.webhook-timeout', 'delivery-rules.failures#time-out'],
      plant: () => 5_000,
    },
  },
};

/** "Any 2xx response acknowledges." */
const ACKNOWLEDGEMENT: Step<number | null, boolean> = {
  name: 'any 2xx acknowledges',
  check: (status) => status !== null && status >= 200 && status <= 299,
  faulty: {
    'only-200-acknowledges': {
      does: 'Only 200 counts as an acknowledgement: a 201, 202, 204 … answer is treated as a failure and retried.',
      breaks: ['HOOK-NO-RETRY-AFTER-ACK'],
      violates: ['delivery-rules.any-2xx', 'receiver-op.any-2xx-acknowledges'],
      plant: (status) => status === 200,
    },
    'empty-204-counted-as-failure': {
      does: 'The receiver\'s answer body is parsed as JSON; an empty 204 fails the parse and the attempt counts as a failure, so it ' +
        'is retried on the schedule.',
      breaks: ['HOOK-NO-RETRY-AFTER-ACK'],
      violates: ['delivery-rules.any-2xx', 'receiver-op.any-2xx-acknowledges'],
      plant: (status, next) => (status === 204 ? false : next(status)),
    },
    'client-errors-treated-as-ack': {
      does: 'A 4xx answer is taken as a final answer ("the receiver rejected it") and never retried.',
      breaks: ['HOOK-RETRY-ON-FAILURE'],
      violates: ['delivery-rules.failures#3xx-4xx-5xx'],
      plant: (status, next) => (status !== null && status >= 400 && status <= 499 ? true : next(status)),
    },
  },
};

/** One delivery (an event at one endpoint) and every delivery the dispatcher holds. */
export interface DeliveryStateInput {
  readonly delivery: { readonly eventId: string; readonly attempts: readonly { readonly ok: boolean }[] };
  readonly all: readonly { readonly eventId: string; readonly attempts: readonly { readonly ok: boolean }[] }[];
}

/** Whether a delivery is done: its own endpoint acknowledged it. */
const DELIVERED: Step<DeliveryStateInput, boolean> = {
  name: 'a delivery is done when its own endpoint acknowledged it, whatever the other endpoints answered',
  check: ({ delivery }) => delivery.attempts.at(-1)?.ok === true,
  faulty: {
    'retry-state-per-event': {
      does: 'Retry state is kept per event, not per endpoint: once one endpoint acknowledges an event, the retries still due to ' +
        'another endpoint that failed it are dropped.',
      breaks: ['HOOK-RETRY-PER-ENDPOINT'],
      violates: ['delivery-rules.retry-schedule#per-endpoint'],
      plant: ({ delivery, all }) => all.some((d) => d.eventId === delivery.eventId && d.attempts.some((a) => a.ok)),
    },
  },
};

/** The most attempts a delivery gets, from MAX_ATTEMPTS. */
const ATTEMPT_LIMIT: Step<number, number> = {
  name: 'at most 8 attempts in all',
  check: (max) => max,
  faulty: {
    'nine-attempts': {
      does: 'Off by one in the attempt limit: a failing event is attempted 9 times.',
      breaks: ['HOOK-MAX-ATTEMPTS'],
      violates: ['delivery-rules.retry-schedule#count'],
      plant: (max, next) => next(max) + 1,
    },
    'seven-attempts': {
      does: 'Off by one the other way in the attempt limit: a failing event is attempted 7 times, the 6 h retry never goes out.',
      breaks: ['HOOK-RETRY-SCHEDULE'],
      violates: ['delivery-rules.retry-schedule#gaps', 'limits.webhook-retry-schedule'],
      plant: (max, next) => next(max) - 1,
    },
  },
};

/** The unscaled gap (ms) before the attempt following `failedAttempts` failures. */
const GAP: Step<number, number> = {
  name: 'the retry schedule: immediately, 30 s, 2 min, 10 min, 30 min, 2 h, 6 h',
  check: (failedAttempts) => RETRY_GAPS_MS[failedAttempts - 1] ?? 0,
  faulty: {
    'retry-gaps-shifted': {
      does: 'The retry schedule is read one step behind: two immediate retries, then 30 s where 2 min is due, and so on.',
      breaks: ['HOOK-RETRY-SCHEDULE'],
      violates: ['delivery-rules.retry-schedule#gaps', 'limits.webhook-retry-schedule'],
      plant: (failedAttempts, next) => next(failedAttempts - 1),
    },
    'retry-backoff-doubled': {
      does: 'A generic exponential backoff multiplier is applied on top of the schedule: every gap is doubled.',
      breaks: ['HOOK-RETRY-PUNCTUAL'],
      violates: ['delivery-rules.retry-schedule#gaps', 'limits.webhook-retry-schedule'],
      plant: (failedAttempts, next) => 2 * next(failedAttempts),
    },
  },
};

/** The steps of delivery with the planted faults of `faults` switched on. */
export function deliverySteps(faults: FaultSet) {
  return {
    enqueue: checkOf(ENQUEUE, faults),
    timestamp: checkOf(TIMESTAMP, faults),
    body: checkOf(BODY, faults),
    signature: checkOf(SIGNATURE, faults),
    headers: checkOf(HEADERS, faults),
    post: checkOf(POST, faults),
    timeout: checkOf(TIMEOUT, faults),
    acknowledged: checkOf(ACKNOWLEDGEMENT, faults),
    delivered: checkOf(DELIVERED, faults),
    attemptLimit: checkOf(ATTEMPT_LIMIT, faults),
    gap: checkOf(GAP, faults),
  };
}

export type DeliverySteps = ReturnType<typeof deliverySteps>;

/** The steps of this file that plant faults (references/service/fault-registry.ts reads their declarations). */
export const FAULTY_STEPS: readonly PlantingStep[] = [ENQUEUE, TIMESTAMP, BODY, SIGNATURE, HEADERS, POST, TIMEOUT, ACKNOWLEDGEMENT, DELIVERED, ATTEMPT_LIMIT, GAP];

/**
 * The steps of a webhook delivery (spec, "Events" > "Delivery request", "Delivery rules",
 * "Signature"; "Limits"), each a small named check: what goes out on an attempt (timestamp, body,
 * signature, headers, the POST and its time-out), how its answer is read (acknowledgement), and
 * what follows a failure (attempt limit, gap). The dispatcher (dispatcher.ts) runs them.
 *
 * The planted faults of delivery are overrides named after the defect, in the `faulty` table of
 * the step they break (reference/steps.ts says how an override replaces a check).
 */
import type { FaultSet } from '../faults.ts';
import { newEventId, newObjectId } from '../ids.ts';
import { checkOf, type Step } from '../steps.ts';
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
export type Send = (url: string, body: Buffer, headers: Record<string, string>) => Promise<AttemptResult>;

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
    /* the outbox is written but no worker ever drains it: nothing is delivered */
    'webhooks-never-sent': () => {},
  },
};

/** The signature's `t`, in Unix seconds, from the attempt's start (ms). */
const TIMESTAMP: Step<number, number> = {
  name: 'the signature timestamp is the time of sending',
  check: (startedAtMs) => Math.floor(startedAtMs / 1000),
  faulty: {
    /* t comes from a worker clock 10 minutes behind (not NTP-synced) */
    'signature-clock-behind': (ms, next) => next(ms) - 600,
    /* t comes from a clock 301 s behind, one second past the 5-minute tolerance */
    'signature-clock-301s-behind': (ms, next) => next(ms) - 301,
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
    /* a retry is enqueued as a new event, with a fresh id in the body and the header */
    'retry-gets-new-event-id': (input, next) => {
      if (!input.retry) return next(input);
      const eventId = newEventId();
      const body = Buffer.from(JSON.stringify({ ...JSON.parse(input.event.body.toString('utf8')), id: eventId }), 'utf8');
      return { body, eventId };
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
    /* the HMAC covers a re-serialisation with non-ASCII escaped as \uXXXX, not the bytes sent */
    'signature-over-reserialised-json': (input, next) => next({ ...input, body: reserialisedAscii(input.body) }),
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
    /* no User-Agent is set, so the HTTP client sends none */
    'user-agent-missing': (input, next) => {
      const { 'User-Agent': _dropped, ...headers } = next(input);
      return headers;
    },
    /* Service-Event-ID carries the delivery attempt's id, not the event's */
    'event-id-header-is-attempt-id': (input, next) => ({ ...next(input), 'Service-Event-ID': newObjectId('whatt') }),
    /* the HTTP client's default content type for a POST body is kept */
    'deliveries-form-content-type': (input, next) => ({ ...next(input), 'Content-Type': 'application/x-www-form-urlencoded' }),
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
    /* the redirect is followed (the same POST to Location) and its answer taken as the attempt's */
    'redirects-followed': async (input, next) => {
      const result = await next(input);
      const redirect = result.status !== null && result.status >= 300 && result.status < 400 && result.location;
      return redirect ? next({ ...input, url: new URL(result.location!, input.url).toString() }) : result;
    },
  },
};

/** The attempt's time-out (ms), from the configured one. */
const TIMEOUT: Step<number, number> = {
  name: 'an attempt waits 10 s for a complete response',
  check: (timeoutMs) => timeoutMs,
  faulty: {
    /* the HTTP client's default time-out of 5 s was never raised to the spec's 10 s */
    'webhook-timeout-5s': () => 5_000,
  },
};

/** "Any 2xx response acknowledges." */
const ACKNOWLEDGEMENT: Step<number | null, boolean> = {
  name: 'any 2xx acknowledges',
  check: (status) => status !== null && status >= 200 && status <= 299,
  faulty: {
    /* only 200 counts as an acknowledgement; 201, 202, 204 … are retried */
    'only-200-acknowledges': (status) => status === 200,
    /* the answer body is parsed as JSON to read a status field; an empty 204 fails the parse and counts as a failure */
    'empty-204-counted-as-failure': (status, next) => (status === 204 ? false : next(status)),
    /* a 4xx is taken as the receiver's final answer and never retried */
    'client-errors-treated-as-ack': (status, next) => (status !== null && status >= 400 && status <= 499 ? true : next(status)),
  },
};

/** The most attempts a delivery gets, from MAX_ATTEMPTS. */
const ATTEMPT_LIMIT: Step<number, number> = {
  name: 'at most 8 attempts in all',
  check: (max) => max,
  faulty: {
    /* off by one in the attempt limit, a failing event is attempted 9 times */
    'nine-attempts': (max, next) => next(max) + 1,
    /* off by one the other way, the attempt counter starts at 1 after the first attempt: the 6 h retry never goes out */
    'seven-attempts': (max, next) => next(max) - 1,
  },
};

/** The unscaled gap (ms) before the attempt following `failedAttempts` failures. */
const GAP: Step<number, number> = {
  name: 'the retry schedule: immediately, 30 s, 2 min, 10 min, 30 min, 2 h, 6 h',
  check: (failedAttempts) => RETRY_GAPS_MS[failedAttempts - 1] ?? 0,
  faulty: {
    /* the schedule is read one step behind: two immediate retries, then 30 s where 2 min is due, and so on */
    'retry-gaps-shifted': (failedAttempts, next) => next(failedAttempts - 1),
    /* a generic exponential backoff multiplier is applied on top of the schedule, doubling every gap */
    'retry-backoff-doubled': (failedAttempts, next) => 2 * next(failedAttempts),
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
    attemptLimit: checkOf(ATTEMPT_LIMIT, faults),
    gap: checkOf(GAP, faults),
  };
}

export type DeliverySteps = ReturnType<typeof deliverySteps>;

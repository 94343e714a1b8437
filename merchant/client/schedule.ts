/**
 * The seeded failure schedule of the chaos server. Each operation kind has a list of failures,
 * shuffled by the seed; the n-th fresh operation of a kind (not a retry of one already seen) gets
 * the n-th failure, until the list is used up; retries and later operations pass through. Each
 * injected 429 announces its own seeded Retry-After of 2-5 s (never 1 s: the first back-off of
 * common retry libraries, which would pass a client that never reads the header).
 */
import { seededRandom, shuffled } from '../../core/seeded-random.ts';

export type Injection =
  | 'reset-after-create' // forwarded, the Payment created, then the connection dropped without an answer
  | 'reset-before' //       the connection dropped before anything was forwarded
  | 'timeout' //            forwarded (a create's Payment is created), then no answer at all until the client gives up or the hold ends
  | '429' | '500' | '502' | '503' | '504'
  | '409-in-progress'
  | '400';

export type OperationKind = 'create' | 'read' | 'cancel' | 'other';

/** Shuffled by the seed, after the fixed head of FIRST. */
export const FAILURE_LISTS: Record<Exclude<OperationKind, 'other'>, readonly Injection[]> = {
  create: ['429', '500', '502', '503', '504', '409-in-progress', '400', 'reset-before', 'timeout'],
  read: ['reset-before', 'timeout', '429', '500', '502', '503', '504'],
  cancel: ['429', '500', '503', 'reset-before', 'timeout'],
};

/**
 * The first create always meets the reset after creation, on every seed: it is the one failure
 * whose harm (a duplicate Payment) only a same-key retry avoids, and a merchant's first create is
 * the one most likely to be a plain order without an external_id.
 */
const FIRST: Partial<Record<OperationKind, readonly Injection[]>> = { create: ['reset-after-create'] };

/** The range of the seeded Retry-After of an injected 429, in whole seconds. */
export const RETRY_AFTER_RANGE_S = [2, 5] as const;

/** How long an injected time-out holds the request without answering before the connection is dropped. */
export const TIMEOUT_HOLD_MS = 5_000;

export interface PlannedFailure {
  kind: Exclude<OperationKind, 'other'>;
  injection: Injection;
  /** For a 429: the Retry-After it announces, seconds. */
  retryAfterS?: number;
}

export class FailureSchedule {
  private readonly queues: Record<string, PlannedFailure[]>;
  /** Every failure planned, in order per kind (what the report lists as met or not). */
  readonly planned: readonly PlannedFailure[];

  constructor(seed: number) {
    const random = seededRandom(seed);
    const [lo, hi] = RETRY_AFTER_RANGE_S;
    this.queues = Object.fromEntries(Object.entries(FAILURE_LISTS).map(([k, list]) => {
      const kind = k as PlannedFailure['kind'];
      const order = [...(FIRST[kind] ?? []), ...shuffled(list, random)];
      return [
        k,
        order.map((injection): PlannedFailure => (injection === '429' ? {
          kind,
          injection,
          retryAfterS: lo + Math.floor(random() * (hi - lo + 1)),
        } : { kind, injection })),
      ];
    }));
    this.planned = Object.values(this.queues).flat();
  }

  /** The failure for the next fresh operation of `kind`, if any is left. */
  next(kind: OperationKind): PlannedFailure | undefined {
    return kind === 'other' ? undefined : this.queues[kind]!.shift();
  }

  /** Failures planned but never used (the command made too few operations of that kind). */
  unused(): Record<string, Injection[]> {
    return Object.fromEntries(Object.entries(this.queues).filter(([, q]) => q.length > 0).map(([k, q]) => [k, q.map((f) => f.injection)]));
  }
}

export function describeInjection(i: Injection, retryAfterS?: number): string {
  switch (i) {
    case 'reset-after-create': return 'connection reset after the Payment was created (injected)';
    case 'reset-before': return 'connection reset before the request reached the service (injected)';
    case 'timeout': return `no answer (time-out; the request was forwarded, the connection dropped after ${TIMEOUT_HOLD_MS / 1000} s if ` +
      `the client still waited) (injected)`;
    case '409-in-progress': return '409 idempotency_in_progress (injected)';
    case '429': return `429 rate_limit_exceeded, Retry-After: ${retryAfterS ?? '?'} (injected)`;
    case '500': return '500 internal_error (injected)';
    default: return `${i} (injected)`;
  }
}

/** Failures the guidance says a create or read is retried after: a network failure (reset, time-out), 429, 502, 503, 504. */
export const RETRIED_BY_GUIDANCE: readonly Injection[] = ['reset-after-create', 'reset-before', 'timeout', '429', '502', '503', '504'];

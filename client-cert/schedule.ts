/**
 * The seeded failure schedule of the chaos server. Each operation kind has a list of failures,
 * shuffled by the seed; the n-th fresh operation of a kind (not a retry of one already seen) gets
 * the n-th failure, until the list is used up; retries and later operations pass through.
 */
import { seededRandom, shuffled } from '../receiver/seeded.ts';

export type Injection =
  | 'reset-after-create' // forwarded, the Payment created, then the connection dropped without an answer
  | 'reset-before' //       the connection dropped before anything was forwarded
  | '429' | '502' | '503' | '504'
  | '409-in-progress'
  | '400';

export type OperationKind = 'create' | 'read' | 'cancel' | 'other';

/** Shuffled by the seed, after the fixed head of FIRST. */
const LISTS: Record<Exclude<OperationKind, 'other'>, readonly Injection[]> = {
  create: ['429', '502', '503', '504', '409-in-progress', '400'],
  read: ['reset-before', '429', '502', '503'],
  cancel: ['503', 'reset-before', '429'],
};

/**
 * The first create always meets the reset after creation, on every seed: it is the one failure
 * whose harm (a duplicate Payment) only a same-key retry avoids, and a merchant's first create is
 * the one most likely to be a plain order without an external_id.
 */
const FIRST: Partial<Record<OperationKind, readonly Injection[]>> = { create: ['reset-after-create'] };

/** Seconds announced in the injected 429's Retry-After. */
export const INJECTED_RETRY_AFTER_S = 1;

export class FailureSchedule {
  private readonly queues: Record<string, Injection[]>;

  constructor(seed: number) {
    const random = seededRandom(seed);
    this.queues = Object.fromEntries(Object.entries(LISTS).map(([k, list]) => [k, [...(FIRST[k as OperationKind] ?? []), ...shuffled(list, random)]]));
  }

  /** The failure for the next fresh operation of `kind`, if any is left. */
  next(kind: OperationKind): Injection | undefined {
    return kind === 'other' ? undefined : this.queues[kind]!.shift();
  }

  /** Failures planned but never used (the command made too few operations of that kind). */
  unused(): Record<string, Injection[]> {
    return Object.fromEntries(Object.entries(this.queues).filter(([, q]) => q.length > 0));
  }
}

export function describeInjection(i: Injection): string {
  switch (i) {
    case 'reset-after-create': return 'connection reset after the Payment was created (injected)';
    case 'reset-before': return 'connection reset before the request reached the service (injected)';
    case '409-in-progress': return '409 idempotency_in_progress (injected)';
    case '429': return `429 rate_limit_exceeded, Retry-After: ${INJECTED_RETRY_AFTER_S} (injected)`;
    default: return `${i} (injected)`;
  }
}

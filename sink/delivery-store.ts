/**
 * The sink's memory: deliveries in arrival order, attempt counts per (endpoint path, event id),
 * redirect tokens, and in-process waiters. Rebuilt from the log on start.
 *
 * Junk cannot crowd out deliveries: a rejected request (unknown path, not POST, bad signature,
 * oversize, aborted) is kept apart in a ring of the last `rejectedRing` (headers and verdicts; its
 * body only when it is a small event body sent to a known endpoint, i.e. the target's own
 * mis-signed delivery, evidence for the signing rules), counted, and never counts toward the cap.
 */
import { matchesFilter, type DeliveryFilter } from './delivery-filter.ts';
import type { LoadedLog } from './delivery-log.ts';
import type { Delivery, DeliveryProblem, HoldSettlement, RedirectHit } from './types.ts';

/** Problems that make a request junk (kept in the ring, not stored nor counted). */
export const REJECTED_PROBLEMS: ReadonlySet<DeliveryProblem> = new Set(['unknown_path', 'method_not_post', 'body_too_large', 'request_aborted', 'bad_signature']);
/** Rejected requests remembered (most recent). */
export const DEFAULT_REJECTED_RING = 1_000;
/** Largest body a rejected request keeps (an event body to a known endpoint only). */
export const REJECTED_BODY_BYTES = 8 * 1024;

export function isRejected(d: Delivery): boolean {
  return d.problem !== null && REJECTED_PROBLEMS.has(d.problem);
}

/** A rejected request as the ring keeps it: no body unless it is a small event body to a known endpoint. */
export function slimRejected(d: Delivery): Delivery {
  const keepBody = d.endpoint !== null && d.event !== null && d.bodySize <= REJECTED_BODY_BYTES;
  return keepBody || d.body === '' ? d : { ...d, body: '', bodyTruncated: true };
}

export interface WaitForOptions {
  /** How many matching deliveries to wait for (at least 1). */
  count: number;
  timeoutMs: number;
}

/** Thrown (rejected) by waitFor when the count was not reached in time; carries what was seen. */
export class SinkWaitTimeoutError extends Error {
  readonly code = 'SINK_WAIT_TIMEOUT';
  constructor(
    readonly filter: DeliveryFilter,
    readonly expectedCount: number,
    readonly deliveries: Delivery[],
    timeoutMs: number,
  ) {
    super(
      `waited ${timeoutMs} ms for ${expectedCount} deliveries matching ${JSON.stringify(filter)}; ` +
        `received ${deliveries.length}`,
    );
    this.name = 'SinkWaitTimeoutError';
  }
}

export class SinkClosedError extends Error {
  readonly code = 'SINK_CLOSED';
  constructor() {
    super('the sink was closed while waiting for deliveries');
    this.name = 'SinkClosedError';
  }
}

interface Waiter {
  filter: DeliveryFilter;
  count: number;
  resolve(deliveries: Delivery[]): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export class DeliveryStore {
  private readonly list: Delivery[] = [];
  private readonly ring: Delivery[] = [];
  private lastSeq = 0;
  /** Rejected requests seen (the ring keeps the last `ringSize`). */
  rejectedCount = 0;
  private readonly bySeq = new Map<number, Delivery>();
  private readonly attempts = new Map<string, number>();
  private readonly tokens = new Map<string, number>();
  private readonly hits: RedirectHit[] = [];
  private readonly waiters = new Set<Waiter>();

  constructor(loaded?: LoadedLog, private readonly ringSize = DEFAULT_REJECTED_RING) {
    for (const delivery of loaded?.deliveries ?? []) this.add(delivery);
    this.rejectedCount += loaded?.rejectedNotKept ?? 0;
    for (const hit of loaded?.redirectHits ?? []) this.hits.push(hit);
  }

  /** Deliveries stored (rejected requests excluded): what the cap counts. */
  get size(): number {
    return this.list.length;
  }

  nextSeq(): number {
    return this.lastSeq + 1;
  }

  /** The ring of rejected requests, oldest first. */
  rejected(): Delivery[] {
    return [...this.ring];
  }

  nextHitNumber(): number {
    return (this.hits.at(-1)?.n ?? 0) + 1;
  }

  /** The attempt number the next request with this event id at this path would be. */
  nextAttempt(path: string, eventId: string): number {
    return (this.attempts.get(attemptKey(path, eventId)) ?? 0) + 1;
  }

  add(delivery: Delivery): void {
    this.lastSeq = Math.max(this.lastSeq, delivery.seq);
    if (isRejected(delivery)) this.addRejected(slimRejected(delivery));
    else {
      this.list.push(delivery);
      this.bySeq.set(delivery.seq, delivery);
    }
    if (delivery.event && delivery.attempt !== null) {
      this.attempts.set(attemptKey(delivery.path, delivery.event.id), delivery.attempt);
    }
    const answer = delivery.answer;
    if ((answer.kind === 'redirect' || answer.kind === 'status') && answer.redirectToken) {
      this.tokens.set(answer.redirectToken, delivery.seq);
    }
    this.wakeWaiters();
  }

  private addRejected(delivery: Delivery): void {
    this.rejectedCount++;
    this.ring.push(delivery);
    if (this.ring.length > this.ringSize) this.ring.shift();
  }

  settle(seq: number, settled: HoldSettlement): void {
    const delivery = this.bySeq.get(seq);
    if (delivery) delivery.settled = settled;
  }

  seqOfToken(token: string): number | null {
    return this.tokens.get(token) ?? null;
  }

  addRedirectHit(hit: RedirectHit): void {
    this.hits.push(hit);
  }

  redirectHits(): RedirectHit[] {
    return [...this.hits];
  }

  /** Stored deliveries and the ring's rejected requests, in seq order. */
  deliveries(filter: DeliveryFilter = {}): Delivery[] {
    const stored = this.list.filter((delivery) => matchesFilter(delivery, filter));
    const rejected = this.ring.filter((delivery) => matchesFilter(delivery, filter));
    if (rejected.length === 0) return stored;
    return [...stored, ...rejected].sort((a, b) => a.seq - b.seq);
  }

  waitFor(filter: DeliveryFilter, options: WaitForOptions): Promise<Delivery[]> {
    const count = Math.max(1, options.count);
    const found = this.deliveries(filter);
    if (found.length >= count) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        filter,
        count,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          reject(new SinkWaitTimeoutError(filter, count, this.deliveries(filter), options.timeoutMs));
        }, options.timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  /** Rejects every pending waitFor (the sink is closing). */
  rejectWaiters(): void {
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.reject(new SinkClosedError());
    }
    this.waiters.clear();
  }

  private wakeWaiters(): void {
    for (const waiter of this.waiters) {
      const found = this.deliveries(waiter.filter);
      if (found.length >= waiter.count) {
        clearTimeout(waiter.timer);
        this.waiters.delete(waiter);
        waiter.resolve(found);
      }
    }
  }
}

function attemptKey(path: string, eventId: string): string {
  return `${path}\n${eventId}`;
}

/**
 * The sink's memory: deliveries in arrival order, attempt counts per (endpoint path, event id),
 * redirect tokens, and in-process waiters. Rebuilt from the log on start.
 *
 * Junk cannot crowd out deliveries: a rejected request (unknown path, not POST, bad signature,
 * oversize, aborted) is kept apart in bounded rings (rejected-ring.ts), counted, and never counts
 * toward the cap.
 */
import { matchesFilter, type DeliveryFilter } from './delivery-filter.ts';
import { storedBodyBytes, type LoadedLog } from './delivery-log.ts';
import { RedirectHitRing } from './redirect-hits.ts';
import { isRejected, RejectedRing, type RingLimits } from './rejected-ring.ts';
import type { Delivery, HoldSettlement, RedirectHit } from './types.ts';
import type { SinkErrorCode } from '../../core/error-codes.ts';

export { isRejected } from './rejected-ring.ts';

export interface WaitForOptions {
  /** How many matching deliveries to wait for (at least 1). */
  count: number;
  timeoutMs: number;
}

/** Thrown (rejected) by waitFor when the count was not reached in time; carries what was seen. */
export class SinkWaitTimeoutError extends Error {
  readonly code = 'SINK_WAIT_TIMEOUT' satisfies SinkErrorCode;
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
  readonly code = 'SINK_CLOSED' satisfies SinkErrorCode;
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
  /**
   * The stored deliveries by Payment id, event id and endpoint path, in arrival order: a reader
   * asking for one Payment's deliveries (every webhook rule, each waiting on its own) reads that
   * Payment's few, not the whole run's thousands.
   */
  private readonly byPayment = new Map<string, Delivery[]>();
  private readonly byEvent = new Map<string, Delivery[]>();
  private readonly byPath = new Map<string, Delivery[]>();
  private readonly ring: RejectedRing;
  private lastSeq = 0;
  private readonly bySeq = new Map<number, Delivery>();
  private readonly attempts = new Map<string, number>();
  /** Redirect tokens handed out: the delivery that carried each, and its endpoint path. */
  private readonly tokens = new Map<string, { seq: number; path: string }>();
  private readonly hits: RedirectHitRing;
  private readonly waiters = new Set<Waiter>();
  private bodyBytes = 0;

  /** Event and Payment ids of the stored (correctly signed) deliveries: what corroborates a rejected one. */
  private readonly verifiedIds = new Set<string>();

  constructor(loaded?: LoadedLog, limits?: RingLimits) {
    this.ring = new RejectedRing(limits, (d) => this.isCorroborated(d));
    this.hits = loaded?.redirectHits ?? new RedirectHitRing();
    for (const delivery of loaded?.deliveries ?? []) this.add(delivery);
    this.ring.count += loaded?.rejectedNotKept ?? 0;
  }

  /** Deliveries stored (rejected requests excluded): what the cap counts. */
  get size(): number {
    return this.list.length;
  }

  /** Raw body bytes of the deliveries stored: what the body cap counts. */
  get storedBodyBytes(): number {
    return this.bodyBytes;
  }

  nextSeq(): number {
    return this.lastSeq + 1;
  }

  /** Rejected requests seen (the rings keep the most recent). */
  get rejectedCount(): number {
    return this.ring.count;
  }

  /** The rejected requests kept, oldest first. */
  rejected(): Delivery[] {
    return this.ring.kept();
  }

  nextHitNumber(): number {
    return this.hits.nextNumber();
  }

  /** Redirect hits with our tokens (all, kept or not), and with any other token. */
  get hitCounts(): { known: number; unknown: number } {
    return { known: this.hits.count, unknown: this.hits.unknownTokenHits };
  }

  /** The attempt number the next request with this event id at this path would be. */
  nextAttempt(path: string, eventId: string): number {
    return (this.attempts.get(attemptKey(path, eventId)) ?? 0) + 1;
  }

  add(delivery: Delivery): void {
    this.lastSeq = Math.max(this.lastSeq, delivery.seq);
    if (isRejected(delivery)) {
      // A rejected request (anyone can send one) changes no attempt count nor any later answer.
      this.ring.add(delivery);
      this.wakeWaiters(delivery);
      return;
    }
    this.list.push(delivery);
    if (delivery.event?.paymentId) push(this.byPayment, delivery.event.paymentId, delivery);
    if (delivery.event) push(this.byEvent, delivery.event.id, delivery);
    push(this.byPath, delivery.path, delivery);
    this.bySeq.set(delivery.seq, delivery);
    this.bodyBytes += storedBodyBytes(delivery);
    if (delivery.event) this.verifiedIds.add(`e:${delivery.event.id}`);
    if (delivery.event?.paymentId) this.verifiedIds.add(`p:${delivery.event.paymentId}`);
    if (delivery.event && delivery.attempt !== null) {
      this.attempts.set(attemptKey(delivery.path, delivery.event.id), delivery.attempt);
    }
    const answer = delivery.answer;
    if ((answer.kind === 'redirect' || answer.kind === 'status') && answer.redirectToken) {
      this.tokens.set(answer.redirectToken, { seq: delivery.seq, path: delivery.path });
    }
    this.wakeWaiters(delivery);
  }

  /** A rejected request whose event or Payment also came correctly signed: the target's own. */
  private isCorroborated(d: Delivery): boolean {
    return d.event !== null && (this.verifiedIds.has(`e:${d.event.id}`) || (d.event.paymentId !== null && this.verifiedIds.has(`p:${d.event.paymentId}`)));
  }

  settle(seq: number, settled: HoldSettlement): void {
    const delivery = this.bySeq.get(seq);
    if (delivery) delivery.settled = settled;
  }

  /** The delivery that carried this redirect token and its endpoint path; undefined for a token never handed out. */
  tokenOwner(token: string): { seq: number; path: string } | undefined {
    return this.tokens.get(token);
  }

  /** Whether the next hit of this (known) token is written to the log. */
  shouldLogHit(token: string): boolean {
    return this.hits.shouldLog(token);
  }

  /** A hit with a known token (into its endpoint's ring), or with an unknown one (counted only). */
  addRedirectHit(hit: RedirectHit | null): void {
    if (hit === null) this.hits.unknownTokenHits++;
    else this.hits.add(hit, hit.endpoint ?? '');
  }

  redirectHits(): RedirectHit[] {
    return this.hits.kept();
  }

  /** Stored deliveries and the ring's rejected requests, in seq order. */
  deliveries(filter: DeliveryFilter = {}): Delivery[] {
    const stored = this.candidates(filter).filter((delivery) => matchesFilter(delivery, filter));
    const rejected = this.ring.kept().filter((delivery) => matchesFilter(delivery, filter));
    const all = rejected.length === 0 ? stored : [...stored, ...rejected].sort((a, b) => a.seq - b.seq);
    return filter.limit === undefined ? all : all.slice(0, filter.limit);
  }

  /** The stored deliveries the filter can match: the shortest index list it names, else all of them (arrival order either way). */
  private candidates(filter: DeliveryFilter): readonly Delivery[] {
    let best: readonly Delivery[] = this.list;
    const pick = (index: Map<string, Delivery[]>, key: string | undefined) => {
      if (key === undefined) return;
      const list = index.get(key) ?? [];
      if (list.length < best.length) best = list;
    };
    pick(this.byPayment, filter.paymentId);
    pick(this.byEvent, filter.eventId);
    pick(this.byPath, filter.path);
    return best;
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

  /** After `added` came in: only a waiter it matches can have reached its count. */
  private wakeWaiters(added: Delivery): void {
    for (const waiter of this.waiters) {
      if (!matchesFilter(added, waiter.filter)) continue;
      const found = this.deliveries(waiter.filter);
      if (found.length >= waiter.count) {
        clearTimeout(waiter.timer);
        this.waiters.delete(waiter);
        waiter.resolve(found);
      }
    }
  }
}

function push(index: Map<string, Delivery[]>, key: string, delivery: Delivery): void {
  const list = index.get(key);
  if (list) list.push(delivery);
  else index.set(key, [delivery]);
}

function attemptKey(path: string, eventId: string): string {
  return `${path}\n${eventId}`;
}

/**
 * The validating proxy's judging, off the relay's path: the answer is relayed first, and what the
 * judging needs of the exchange (its answer's bytes, copied) waits here, in arrival order, until the
 * event loop has done its I/O; then the whole batch is judged (the response rules) and written
 * (traffic.har, one write a batch). The queue is bounded (JUDGE_QUEUE_BOUND: exchanges and bytes);
 * an exchange arriving while it is full is not queued, never silently: it is counted (`notJudged`),
 * and the proxy's reports and traffic.har say how many (docs/proxy.md).
 */

/** At most this many exchanges, and this many bytes of their bodies, wait to be judged (the first is always taken). */
export const JUDGE_QUEUE_BOUND = { exchanges: 10_000, bytes: 64 * 1024 * 1024 } as const;

export interface QueueBound {
  exchanges: number;
  bytes: number;
}

export class JudgeQueue<T> {
  private items: T[] = [];
  private bytes = 0;
  private scheduled = false;
  /** Exchanges not queued because the queue was full: neither judged by the response rules nor written to traffic.har. */
  notJudged = 0;
  /** The most exchanges that waited at once. */
  deepest = 0;

  constructor(private readonly judge: (batch: readonly T[]) => void, readonly bound: QueueBound = JUDGE_QUEUE_BOUND) {}

  /** Queues one exchange of `bytes` (its bodies); false when the queue was full (counted, not judged). */
  push(item: T, bytes: number): boolean {
    const n = this.items.length;
    if (n >= this.bound.exchanges || (n > 0 && this.bytes + bytes > this.bound.bytes)) {
      this.notJudged++;
      return false;
    }
    this.items.push(item);
    this.bytes += bytes;
    if (n + 1 > this.deepest) this.deepest = n + 1;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.drain());
    }
    return true;
  }

  /** Judges everything queued now (the proxy calls it before writing its reports). */
  drain(): void {
    this.scheduled = false;
    const batch = this.items;
    if (!batch.length) return;
    this.items = [];
    this.bytes = 0;
    this.judge(batch);
  }
}

/** "3 of 120 exchanges came while the judging queue was full (its bound: 10000 exchanges, 64 MiB of bodies) and were not judged". */
export function notJudgedWords(n: { count: number; bound: QueueBound }, exchanges: number): string {
  return `${n.count} of ${exchanges} exchanges came while the judging queue was full (its bound: ${n.bound.exchanges} exchanges, ` +
    `${Math.round(n.bound.bytes / 1048576)} MiB of bodies) and were not judged`;
}

/**
 * What happened in each interval of the measured window, while the run goes: every generator
 * (worker thread) snapshots its interval's counts and latency histogram at each interval's end
 * (IntervalTally, in the generator's thread); the main thread merges the workers' snapshots of
 * one interval (IntervalMerger) into one line for `--out ndjson=FILE` and the live line, keeping
 * a cumulative histogram for the percentiles "so far".
 */
import { encode, mergeEncoded, newHistogram, recordMs, type Histogram } from './histogram.ts';
import type { WorkerMetricsSnapshot } from './worker-metrics.ts';

/** One generator's interval: plain data (posted from a worker thread). */
export interface IntervalSnapshot {
  /** 0, 1, 2 … from the window's start. */
  index: number;
  sent: number;
  responses: number;
  failed: number;
  rateLimited: number;
  /** Answers other than 2xx (429 included). */
  non2xx: number;
  histogram: string;
  /** With --metrics-port / --out prometheus-rw: the generator's cumulative Prometheus samples. */
  metrics?: WorkerMetricsSnapshot;
}

/** The counts of the interval in progress, in a generator. */
export class IntervalTally {
  private sent = 0;
  private responses = 0;
  private failed = 0;
  private rateLimited = 0;
  private non2xx = 0;
  private hist: Histogram = newHistogram(2);

  onSent(n = 1): void {
    this.sent += n;
  }

  onAnswer(status: number, ms: number): void {
    this.responses += 1;
    if (status < 200 || status > 299) this.non2xx += 1;
    if (status === 429) this.rateLimited += 1;
    recordMs(this.hist, ms);
  }

  onFailure(): void {
    this.failed += 1;
  }

  /** The interval's snapshot, and a fresh interval. */
  take(index: number): IntervalSnapshot {
    const out = {
      index,
      sent: this.sent,
      responses: this.responses,
      failed: this.failed,
      rateLimited: this.rateLimited,
      non2xx: this.non2xx,
      histogram: encode(this.hist),
    };
    this.hist.destroy();
    [this.sent, this.responses, this.failed, this.rateLimited, this.non2xx, this.hist] = [0, 0, 0, 0, 0, newHistogram(2)];
    return out;
  }
}

/** One merged interval of the whole run: an NDJSON line's fields. */
export interface IntervalLine {
  type: 'interval';
  run_id: string;
  at: string;
  /** The interval's end, in seconds from the window's start. */
  second: number;
  interval_s: number;
  sent: number;
  responses: number;
  failed: number;
  rate_limited: number;
  errors: number;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  so_far: { responses: number; failed: number; errors: number; p50_ms: number; p99_ms: number };
}

const ms = (us: number): number => Math.round(us) / 1000;

/** Joins the workers' snapshots of each interval; emits an interval once every worker sent it (or at flush). */
export class IntervalMerger {
  private readonly pending = new Map<number, IntervalSnapshot[]>();
  private readonly total: Histogram = newHistogram(2);
  private next = 0;
  private soFar = { responses: 0, failed: 0, errors: 0 };

  constructor(
    private readonly workers: number,
    private readonly intervalS: number,
    private readonly windowS: number,
    private readonly runId: string,
    private readonly emit: (line: IntervalLine) => void,
  ) {}

  add(s: IntervalSnapshot): void {
    const list = this.pending.get(s.index) ?? [];
    list.push(s);
    this.pending.set(s.index, list);
    while ((this.pending.get(this.next)?.length ?? 0) >= this.workers) this.emitIndex(this.next);
  }

  /** Emits what is left (a worker that ended early sends no more), in order. */
  flush(): void {
    for (const index of [...this.pending.keys()].sort((a, b) => a - b)) if (index >= this.next) this.emitIndex(index);
    this.total.destroy();
  }

  private emitIndex(index: number): void {
    const parts = this.pending.get(index) ?? [];
    this.pending.delete(index);
    this.next = index + 1;
    const h = mergeEncoded(parts.map((p) => p.histogram), 2);
    this.total.add(h);
    const sum = (k: 'sent' | 'responses' | 'failed' | 'rateLimited' | 'non2xx') => parts.reduce((a, p) => a + p[k], 0);
    const errors = sum('non2xx') + sum('failed');
    this.soFar = {
      responses: this.soFar.responses + sum('responses'),
      failed: this.soFar.failed + sum('failed'),
      errors: this.soFar.errors + errors,
    };
    const empty = h.totalCount === 0;
    // The last interval may be shorter (a window that is not a whole number of intervals).
    const lengthS = Math.max(0.001, Math.min(this.intervalS, this.windowS - index * this.intervalS));
    this.emit({
      type: 'interval',
      run_id: this.runId,
      at: new Date().toISOString(),
      second: Math.round((index * this.intervalS + lengthS) * 1000) / 1000,
      interval_s: Math.round(lengthS * 1000) / 1000,
      sent: sum('sent'),
      responses: sum('responses'),
      failed: sum('failed'),
      rate_limited: sum('rateLimited'),
      errors,
      rps: Math.round((sum('responses') / lengthS) * 10) / 10,
      p50_ms: empty ? 0 : ms(h.getValueAtPercentile(50)),
      p99_ms: empty ? 0 : ms(h.getValueAtPercentile(99)),
      max_ms: empty ? 0 : ms(h.getValueAtPercentile(100)),
      so_far: {
        ...this.soFar,
        p50_ms: this.total.totalCount ? ms(this.total.getValueAtPercentile(50)) : 0,
        p99_ms: this.total.totalCount ? ms(this.total.getValueAtPercentile(99)) : 0,
      },
    });
    h.destroy();
  }
}

/** The live line (a terminal rewrites it; CI prints one per interval). */
export function intervalText(l: IntervalLine, windowS: number): string {
  const rate = `${((l.so_far.errors / Math.max(1, l.so_far.responses + l.so_far.failed)) * 100).toFixed(2)}%`;
  return `load ${l.second.toFixed(1)}/${windowS} s · ${l.rps} req/s · p50 ${l.so_far.p50_ms} ms · p99 ${l.so_far.p99_ms} ms so far · ` +
    `errors ${l.so_far.errors} (${rate})${l.rate_limited ? ` · 429 ${l.rate_limited}` : ''}`;
}

/**
 * In a generator: hands `take()` of each interval to `emit` at each interval's end from the
 * window's start, and what is left of the window's intervals when stopped.
 */
export function startIntervals(
  tally: IntervalTally,
  windowStart: number,
  windowEnd: number,
  intervalMs: number,
  emit: (s: IntervalSnapshot) => void,
  now: () => number,
): { stop(): void } {
  const count = Math.ceil((windowEnd - windowStart) / intervalMs);
  let index = 0;
  let timer: NodeJS.Timeout | undefined;
  const arm = (): void => {
    if (index >= count) return;
    timer = setTimeout(tick, Math.max(0, Math.min(windowEnd, windowStart + (index + 1) * intervalMs) - now()));
  };
  const tick = (): void => {
    emit(tally.take(index++));
    arm();
  };
  arm();
  return {
    stop() {
      clearTimeout(timer);
      if (index < count) emit(tally.take(index++)); // the interval in progress when the run ended (cap, or late answers)
    },
  };
}

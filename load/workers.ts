/**
 * `--workers N`: the generator in N worker threads, each with its share of the connections,
 * the rate and the request cap, and its own key-space tag; all start at the same instant.
 * Their results are plain data (encoded histograms, counts, observations) merged by the caller.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { GeneratorConfig, GeneratorResult } from './generator.ts';
import type { IntervalSnapshot } from './intervals.ts';

const ENTRY = new URL('./worker-entry.mjs', import.meta.url);
/** Once every thread is loaded, the common start is this much later (the message's trip). */
const START_DELAY_MS = 50;
/** The most a thread may take to load (tsx + undici + schemas) on a busy machine. */
const LOAD_BUDGET_MS = 60_000;

/** Default worker count: every core but one (the target may be on this machine), at least 1. */
export function defaultWorkers(): number {
  return Math.max(1, availableParallelism() - 1);
}

/** n shares of total (integers differing by at most 1, larger first), or fractions for a rate. */
export function shares(total: number, n: number, integer: boolean): number[] {
  if (!integer) return Array.from({ length: n }, () => total / n);
  return Array.from({ length: n }, (_, i) => Math.floor(total / n) + (i < total % n ? 1 : 0));
}

export type WorkerPlan = Omit<GeneratorConfig, 'connections' | 'rate' | 'maxRequests' | 'tag' | 'startEpochMs'> & {
  connections: number;
  rate?: number;
  maxRequests: number;
  tag: string;
};

/** Splits a plan over `n` workers (never more workers than connections). */
export function splitPlan(plan: WorkerPlan, n: number, startEpochMs: number): GeneratorConfig[] {
  const count = Math.max(1, Math.min(n, plan.connections));
  const conns = shares(plan.connections, count, true);
  const caps = shares(plan.maxRequests, count, true);
  return conns.map((connections, i) => ({
    ...plan,
    connections,
    ...(plan.rate ? { rate: (plan.rate * connections) / plan.connections } : {}),
    maxRequests: Math.max(1, caps[i]!),
    tag: `${plan.tag}w${i}`,
    startEpochMs,
  }));
}

interface Running {
  ready: Promise<void>;
  start(epochMs: number): void;
  stop(): void;
  result: Promise<GeneratorResult>;
}

function spawnOne(cfg: GeneratorConfig, deadlineMs: number, onInterval?: (s: IntervalSnapshot) => void): Running {
  const w = new Worker(ENTRY, { workerData: cfg });
  let ready!: () => void;
  const readyP = new Promise<void>((r) => (ready = r));
  const result = new Promise<GeneratorResult>((resolve, reject) => {
    const timer = setTimeout(
      () => void w.terminate().then(() => reject(new Error(`load worker ${cfg.tag} did not finish in time`))),
      deadlineMs,
    );
    w.on('message', (m: { ready?: boolean; interval?: IntervalSnapshot; ok?: boolean; result?: GeneratorResult; message?: string }) => {
      if (m.ready) return ready();
      if (m.interval) return onInterval?.(m.interval);
      clearTimeout(timer);
      if (m.ok) resolve(m.result!);
      else reject(new Error(`load worker ${cfg.tag}: ${m.message}`));
      void w.terminate();
    });
    w.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
  // A worker that fails before it is ready must not leave the others waiting.
  return {
    ready: Promise.race([readyP, result.then(() => undefined)]),
    start: (epochMs) => w.postMessage({ startEpochMs: epochMs }),
    stop: () => w.postMessage({ stop: true }),
    result,
  };
}

/**
 * `onStart` hears the common start time once every thread is loaded (the bench times the window from it).
 * `stop` aborted (the run interrupted): every worker stops sending and posts what it did.
 */
export async function runWorkers(
  plan: WorkerPlan,
  n: number,
  onStart?: (epochMs: number) => void,
  onInterval?: (s: IntervalSnapshot) => void,
  stop?: AbortSignal,
): Promise<GeneratorResult[]> {
  const configs = splitPlan(plan, n, 0);
  // Bounded: load time + warm-up + window + one time-out for the last answers + slack.
  const deadline = LOAD_BUDGET_MS + (plan.warmupS + plan.durationS) * 1000 + plan.timeoutMs + 30_000;
  const running = configs.map((c) => spawnOne(c, deadline, onInterval));
  await Promise.all(running.map((r) => r.ready));
  const start = performance.timeOrigin + performance.now() + START_DELAY_MS;
  for (const r of running) r.start(start);
  // Posted after the start (messages keep their order): a stop before it still stops at once.
  if (stop?.aborted) for (const r of running) r.stop();
  else stop?.addEventListener('abort', () => running.forEach((r) => r.stop()), { once: true });
  onStart?.(start);
  return Promise.all(running.map((r) => r.result));
}

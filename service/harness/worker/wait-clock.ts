/**
 * How long a rule test spent waiting rather than working: sleeps for webhook deliveries and retries,
 * and awaits of a scenario another test runs (suites/webhooks/retries.rules.ts). The union of those
 * intervals, per test (waits in parallel branches of one test count once), left in task.meta as
 * `waitedMs` for `npm run bench:conformance`. Only a measure: nothing is judged on it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface WaitClock {
  /** Waits in progress now. */
  active: number;
  /** When the current stretch of waiting began (performance.now()). */
  since: number;
  /** Waiting finished so far, ms. */
  totalMs: number;
}

const clocks = new AsyncLocalStorage<WaitClock>();

export function newWaitClock(): WaitClock {
  return { active: 0, since: 0, totalMs: 0 };
}

/** Runs `fn` with its own wait clock (one per rule test). */
export function withWaitClock<T>(clock: WaitClock, fn: () => Promise<T>): Promise<T> {
  return clocks.run(clock, fn);
}

/** The clock's total, a wait in progress included. */
export function waitedMs(clock: WaitClock): number {
  return clock.totalMs + (clock.active > 0 ? performance.now() - clock.since : 0);
}

/** Awaits `p`, the time counted as the running test's waiting. */
export async function waiting<T>(p: Promise<T>): Promise<T> {
  const c = clocks.getStore();
  if (!c) return p;
  if (c.active++ === 0) c.since = performance.now();
  try {
    return await p;
  } finally {
    if (--c.active === 0) c.totalMs += performance.now() - c.since;
  }
}

/** Sleeps `ms`, counted as waiting. */
export function sleep(ms: number): Promise<void> {
  return waiting(new Promise<void>((r) => setTimeout(r, Math.max(0, ms))));
}

/**
 * Calls `fn` outside any test's clock: for work started once on behalf of several tests (each
 * counts its own await of the result), so its polling is not charged to the test that started it.
 */
export function outsideWaitClock<T>(fn: () => T): T {
  return clocks.exit(fn);
}

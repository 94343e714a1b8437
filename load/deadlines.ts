/**
 * Per-request deadlines for the load generator's connections without a timer per request: each
 * connection notes its request's deadline, and one sweeper per thread asks every live connection,
 * every SWEEP_MS, to fail a request past it. A request thus fails between its deadline and
 * SWEEP_MS later, whatever the server does meanwhile (silence, or a byte now and then: timers
 * that restart on every byte, as undici's and sockets' do, never end a trickle).
 */
export const SWEEP_MS = 100;

export interface HasDeadline {
  /** Fails the request in flight if `now` (performance.now()) is past its deadline. */
  checkDeadline(now: number): void;
}

const live = new Set<HasDeadline>();
let sweeper: NodeJS.Timeout | null = null;

function sweep(): void {
  const t = performance.now();
  for (const c of live) c.checkDeadline(t);
}

/** Registers a connection with the sweeper (`on`), or takes it off. */
export function trackDeadlines(c: HasDeadline, on: boolean): void {
  if (on) live.add(c);
  else live.delete(c);
  if (live.size > 0 && !sweeper) sweeper = setInterval(sweep, SWEEP_MS).unref();
  if (live.size === 0 && sweeper) {
    clearInterval(sweeper);
    sweeper = null;
  }
}

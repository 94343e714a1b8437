/**
 * The target to one area alone, across the suite worker threads of a run. The rate-limit probes
 * count requests per key and judge a 429 on another key, so nothing else may be sending while they
 * run; they used to run in a phase of their own after every other suite, waiting ~5 s (Retry-After)
 * with the target otherwise idle. With the gate they run as soon as the only suites left are those
 * that mostly wait (the webhooks area: deliveries, the retry ladder, the 10 s time-out), and those
 * suites' requests wait at the gate meanwhile: before a request is sent, never in the middle of one.
 *
 * One SharedArrayBuffer per run, made by the runner and provided to every worker (vitest's
 * `provide` clones it as shared memory). Cells (Int32, Atomics):
 *   HELD       1 while a thread has the target alone (or is waiting for the requests in flight to end)
 *   IN_FLIGHT  requests of the other threads on the wire now
 *   MAY_HOLD   1 once the runner says only suites that may be held remain (or the run is stopping)
 *
 * Everything is bounded: a request waits at most MAX_HELD_WAIT_MS for the gate, the holder at most
 * MAX_TURN_WAIT_MS for its turn and MAX_DRAIN_WAIT_MS for requests in flight (each has its own
 * deadline, shorter than that); past a bound it goes on (slower, never stuck).
 */
const HELD = 0;
const IN_FLIGHT = 1;
const MAY_HOLD = 2;
const CELLS = 3;

const POLL_MS = 20;
export const MAX_TURN_WAIT_MS = 30 * 60_000;
const MAX_HELD_WAIT_MS = 30 * 60_000;
const MAX_DRAIN_WAIT_MS = 5 * 60_000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The runner's side: a new gate for one run, and the switch that lets the holder take its turn. */
export function newTargetGate(): { buffer: SharedArrayBuffer; allowHolding: () => void } {
  const buffer = new SharedArrayBuffer(CELLS * Int32Array.BYTES_PER_ELEMENT);
  const cells = new Int32Array(buffer);
  return { buffer, allowHolding: () => void Atomics.store(cells, MAY_HOLD, 1) };
}

/** This thread's view of the run's gate (none: no gate, every request goes at once). */
let cells: Int32Array | undefined;
/** This thread holds the target alone. */
let holding = false;

/** Called by each worker when a run begins (service/harness/worker/rule-test.ts suiteContext). */
export function useTargetGate(buffer: SharedArrayBuffer | undefined): void {
  cells = buffer ? new Int32Array(buffer) : undefined;
  holding = false;
}

const NO_WAIT = { waitedMs: 0, leave: () => {} };

/**
 * Before a request is sent: waits while another thread holds the target alone, then counts the
 * request in flight until `leave()`. The holder's own requests pass at once.
 */
export async function passTargetGate(): Promise<{ waitedMs: number; leave: () => void }> {
  const c = cells;
  if (!c || holding) return NO_WAIT;
  const started = performance.now();
  for (;;) {
    if (Atomics.load(c, HELD) === 0) {
      Atomics.add(c, IN_FLIGHT, 1);
      // Re-read: a holder that closed the gate meanwhile waits for this request, or this one backs off.
      if (Atomics.load(c, HELD) === 0 || performance.now() - started > MAX_HELD_WAIT_MS) {
        let left = false;
        const leave = () => {
          if (!left) Atomics.sub(c, IN_FLIGHT, 1);
          left = true;
        };
        return { waitedMs: performance.now() - started, leave };
      }
      Atomics.sub(c, IN_FLIGHT, 1);
    }
    await sleep(POLL_MS);
  }
}

/**
 * Takes the target alone for this thread: waits for the runner's go-ahead (only suites that may be
 * held are left), closes the gate, then waits for the others' requests in flight to end. Returns
 * the time waited, ms. Idempotent while held.
 */
export async function holdTargetAlone(): Promise<number> {
  const c = cells;
  if (!c || holding) return 0;
  const started = performance.now();
  while (Atomics.load(c, MAY_HOLD) === 0 && performance.now() - started < MAX_TURN_WAIT_MS) await sleep(POLL_MS);
  while (Atomics.compareExchange(c, HELD, 0, 1) !== 0) await sleep(POLL_MS);
  holding = true;
  const draining = performance.now();
  while (Atomics.load(c, IN_FLIGHT) > 0 && performance.now() - draining < MAX_DRAIN_WAIT_MS) await sleep(2);
  return performance.now() - started;
}

/** Opens the gate again (the holder's file ended). */
export function releaseTarget(): void {
  if (!holding || !cells) return;
  holding = false;
  Atomics.store(cells, HELD, 0);
}

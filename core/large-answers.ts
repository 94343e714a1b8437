/**
 * Answers of a megabyte or more, a few at a time across the run's suite workers (issue 44). An
 * answer read is held three times over for a moment (its chunks, the joined body, the text), and
 * the workers run up to --concurrency tests each side by side: against a target answering every
 * request with a 7.5 MB list, 8 workers of 8 tests held some 64 answers at once, and a whole run
 * passed 2 GB. Once an answer of LARGE_ANSWER_BYTES or more came, attempts take turns, at most
 * LARGE_SLOTS on the wire at once in the whole run, until none has come for LARGE_SPELL_S; a target
 * whose answers are all small (every conformant one: a page of 100 Payments is some 200 KB) never
 * meets the turn.
 *
 * The turn is taken before an attempt is stamped or sent (as the target gate's, core/target-gate.ts),
 * never in the middle of one, so its wait is never part of a request's deadline; it is counted in
 * the test's waits (ClientStats.largeWaitMs), which extend the test's own deadline. Each holder is
 * bounded by its request's deadline, and a wait by MAX_TURN_WAIT_MS: past it, the attempt goes on.
 *
 * One SharedArrayBuffer per run, made by the runner and provided to every worker (as the target
 * gate's). Cells (Int32, Atomics): ON_WIRE, the attempts holding a turn; LAST_LARGE_S, when the last
 * large answer came (epoch seconds). Without one (a test, the main process) each thread has its own.
 */

/** An answer body this large (bytes, declared or read) starts the turns. */
const LARGE_ANSWER_BYTES = 1024 * 1024;
/** Attempts on the wire at once across the run's workers while the turns go on. */
const LARGE_SLOTS = 2;
/** How long after the last large answer the turns go on, s. */
const LARGE_SPELL_S = 10;
const MAX_TURN_WAIT_MS = 60_000;
const POLL_MS = 10;
const ON_WIRE = 0;
const LAST_LARGE_S = 1;
const CELLS = 2;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const newCells = () => new Int32Array(new SharedArrayBuffer(CELLS * Int32Array.BYTES_PER_ELEMENT));

/** The runner's side: the run's cells. */
export function newLargeAnswerTurns(): SharedArrayBuffer {
  return newCells().buffer as SharedArrayBuffer;
}

let cells = newCells();

/** Called by each worker when a run begins (service/harness/worker/suite-context.ts); none: this thread's own. */
export function useLargeAnswerTurns(buffer: SharedArrayBuffer | undefined): void {
  cells = buffer ? new Int32Array(buffer) : newCells();
}

const nowS = () => Math.floor(Date.now() / 1000);

/** Called with an answer's body size (declared, or read). */
export function noteAnswerBytes(bytes: number): void {
  if (bytes >= LARGE_ANSWER_BYTES) Atomics.store(cells, LAST_LARGE_S, nowS());
}

const FREE = { waitedMs: 0, leave: () => {} };

/** Before an attempt: at once, unless a large answer came lately; then a turn. `leave()` when the attempt ends. */
export async function largeAnswerTurn(): Promise<{ waitedMs: number; leave: () => void }> {
  const c = cells;
  if (nowS() - Atomics.load(c, LAST_LARGE_S) > LARGE_SPELL_S) return FREE;
  const started = performance.now();
  for (;;) {
    const n = Atomics.load(c, ON_WIRE);
    if (n < LARGE_SLOTS && Atomics.compareExchange(c, ON_WIRE, n, n + 1) === n) break;
    if (performance.now() - started > MAX_TURN_WAIT_MS) {
      Atomics.add(c, ON_WIRE, 1);
      break;
    }
    await sleep(POLL_MS);
  }
  let left = false;
  return {
    waitedMs: performance.now() - started,
    leave: () => {
      if (left) return;
      left = true;
      Atomics.sub(c, ON_WIRE, 1);
    },
  };
}

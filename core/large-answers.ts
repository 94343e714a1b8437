/**
 * Answers of a megabyte or more, a few at a time across the run's suite workers (issue 44). An
 * answer read is held three times over for a moment (its chunks, the joined body, the text), and
 * the workers run up to --concurrency tests each side by side: against a target answering every
 * request with a 7.5 MB list, 8 workers of 8 tests held some 64 answers at once, and a whole run
 * passed 2 GB.
 *
 * Two rules, one count of turns (LARGE_SLOTS across the run):
 * - the body of an answer of LARGE_ANSWER_BYTES or more (declared by its Content-Length, or read
 *   that far) is read only in a turn, held until the answer is parsed;
 * - once such an answer came, every attempt takes a turn before it is stamped or sent, until none
 *   has come for LARGE_SPELL_S: a run among large answers goes a few attempts at a time, and its
 *   workers' memory with it. An attempt keeps that turn HEAD_HOLD_MS at most unless it is reading
 *   a large body: an answer slow to come holds nothing, and before this bound a target answering
 *   one request in seven after 1.5 s had the whole run wait on them two at a time (337 s on a busy
 *   CI machine, 156 s on a quiet one; 56-80 s since, beside three busy processes).
 *
 * A wait for a turn is never part of a request's deadline: before sending, nothing is stamped yet;
 * at the body, the target's answer waits in the socket (undici pauses the read, and its body
 * timer with it) and the deadline stands still (core/client.ts). It is counted in the test's
 * waits (ClientStats.largeWaitMs), which extend the test's own deadline, and bounded by
 * MAX_TURN_WAIT_MS: past it, the attempt goes on.
 *
 * One SharedArrayBuffer per run, made by the runner and provided to every worker (as the target
 * gate's, core/target-gate.ts). Cells (Int32, Atomics): ON_WIRE, the turns held; LAST_LARGE_S,
 * when the last large answer came (epoch seconds). Without one (a test, the main process) each
 * thread has its own.
 */

/** An answer body this large (bytes, declared or read) is read only in a turn, and starts the spell. */
export const LARGE_ANSWER_BYTES = 1024 * 1024;
/** Turns held at once across the run's workers. */
export const LARGE_SLOTS = 2;
/** How long after the last large answer every attempt takes a turn, s. */
const LARGE_SPELL_S = 10;
/** How long an attempt keeps its turn unless it is reading a large body, ms. */
export const HEAD_HOLD_MS = 200;
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

/** Waits for a free turn and takes it; the ms waited. */
async function takeTurn(c: Int32Array): Promise<number> {
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
  return performance.now() - started;
}

/** One attempt's turn: held from before it is sent (in a spell) for HEAD_HOLD_MS, or to read a large body. */
export class AttemptTurn {
  private held = false;
  private timer: NodeJS.Timeout | undefined;

  private constructor(private readonly c: Int32Array, readonly waitedMs: number) {}

  /** Before an attempt is stamped: at once, unless a large answer came lately; then a turn. */
  static async before(): Promise<AttemptTurn> {
    const c = cells;
    if (nowS() - Atomics.load(c, LAST_LARGE_S) > LARGE_SPELL_S) return new AttemptTurn(c, 0);
    const turn = new AttemptTurn(c, await takeTurn(c));
    turn.held = true;
    turn.timer = setTimeout(() => turn.giveBack(), HEAD_HOLD_MS);
    turn.timer.unref();
    return turn;
  }

  /** Before a large body is read on: the turn kept, or taken again; the ms waited. */
  async forLargeBody(): Promise<number> {
    clearTimeout(this.timer);
    if (this.held) return 0;
    const waited = await takeTurn(this.c);
    this.held = true;
    return waited;
  }

  /** The attempt is over (its answer parsed, or none). */
  leave(): void {
    clearTimeout(this.timer);
    this.giveBack();
  }

  private giveBack(): void {
    if (!this.held) return;
    this.held = false;
    Atomics.sub(this.c, ON_WIRE, 1);
  }
}

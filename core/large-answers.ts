/**
 * Answers of a megabyte or more, one at a time in each suite worker (issue 44). An answer read is
 * held three times over for a moment (its chunks, the joined body, the text), and a worker runs up
 * to --concurrency tests side by side: against a target answering every request with a 7.5 MB list,
 * 8 workers of 8 tests held some 64 answers at once, and a whole run passed 2 GB. Once an answer of
 * LARGE_ANSWER_BYTES or more came in this worker, its attempts take turns, one on the wire at a
 * time, until none has come for LARGE_SPELL_MS; a target whose answers are all small (every
 * conformant one: a page of 100 Payments is some 200 KB) never meets the turn.
 *
 * The turn is taken before an attempt is stamped or sent (as the target gate's, core/target-gate.ts),
 * never in the middle of one, so its wait is never part of a request's deadline; it is counted in
 * the test's waits (ClientStats.largeWaitMs), which extend the test's own deadline. Each holder is
 * bounded by its request's deadline, so a wait is too.
 */

/** An answer body this large (bytes, declared or read) makes the attempts of this worker take turns. */
export const LARGE_ANSWER_BYTES = 1024 * 1024;
/** How long after the last large answer the turns go on, ms. */
const LARGE_SPELL_MS = 10_000;

let lastLargeAt = Number.NEGATIVE_INFINITY;
let onWire = false;
const waiting: Array<() => void> = [];

/** Called with an answer's body size (declared, or read so far). */
export function noteAnswerBytes(bytes: number): void {
  if (bytes >= LARGE_ANSWER_BYTES) lastLargeAt = performance.now();
}

const FREE = { waitedMs: 0, leave: () => {} };

/** Before an attempt: at once, unless a large answer came lately; then this worker's one turn. `leave()` when the attempt ends. */
export async function largeAnswerTurn(): Promise<{ waitedMs: number; leave: () => void }> {
  if (performance.now() - lastLargeAt > LARGE_SPELL_MS) return FREE;
  const started = performance.now();
  // In the order they came: the one leaving hands the turn to the first waiting.
  if (onWire) await new Promise<void>((r) => waiting.push(r));
  else onWire = true;
  let left = false;
  return {
    waitedMs: performance.now() - started,
    leave: () => {
      if (left) return;
      left = true;
      const next = waiting.shift();
      if (next) next();
      else onWire = false;
    },
  };
}

/** A new run (or a test) starts with no large answer seen. */
export function resetLargeAnswers(): void {
  lastLargeAt = Number.NEGATIVE_INFINITY;
}

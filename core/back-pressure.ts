/**
 * Back-pressure, the way the spec's client guidance says: "a create is retried after … a 429
 * (after Retry-After) … always with the same idempotency key. Reads are retried the same way. A
 * cancel is retried only after a 429." Rate limiting "exists per key" with thresholds and window
 * "not shown", so any key may meet a 429 at any time: for the suite's own traffic it is the
 * target's back-pressure, never evidence.
 *
 * One pacer per origin and credential (per process: each suite worker has its own):
 * - a 429 blocks that credential until its Retry-After has passed (every request on it waits);
 * - the pace adapts (AIMD): a 429 sets the pace to half the rate just sent, every answer that
 *   is not a 429 raises it by a step, and past its ceiling the pacer stops pacing;
 * - `maxRps` (`--max-rps`, probes.max_rps) caps the pace from the start.
 * Waits are bounded: one request gives up after MAX_WAIT_PER_REQUEST_MS of throttling, a run
 * (per process) after its wait budget; then the request ends as a transport error (ERROR).
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Slack added to a Retry-After wait for clock granularity between us and the target. */
const RETRY_AFTER_MARGIN_MS = 100;
/** A 429 without a usable Retry-After (not the service's own, or malformed) waits this long. */
const DEFAULT_RETRY_AFTER_S = 1;
/** The longest one Retry-After is honoured for; longer ones are capped (and counted as waited). */
const MAX_RETRY_AFTER_S = 60;
export const MAX_WAIT_PER_REQUEST_MS = 120_000;
export const DEFAULT_WAIT_BUDGET_MS = 900_000;
/** Rate window used to measure what was just sent. */
const RECENT_MS = 1_000;

export interface BackPressureOptions {
  /** Cap on requests per second sent by this process to one origin and credential. */
  maxRps?: number;
  /** Wall time this process may spend waiting out 429s in one run, ms. */
  waitBudgetMs?: number;
}

class Pacer {
  blockedUntil = 0;
  /** Requests per second allowed now; Infinity = not pacing. */
  rate: number;
  nextSlot = 0;
  readonly sent: number[] = [];
  constructor(readonly ceiling: number) {
    this.rate = ceiling;
  }
}

const pacers = new Map<string, Pacer>();
let options: BackPressureOptions = {};
/** Wall time during which at least one request of this process was waiting its turn (not the sum over requests). */
let waitedWallMs = 0;
let waiting = 0;
let waitingSince = 0;

/** A new run: its options, every pacer forgotten, the budget full. */
export function configureBackPressure(o: BackPressureOptions): void {
  options = o;
  pacers.clear();
  waitedWallMs = 0;
  waiting = 0;
}

function pacerOf(slot: string): Pacer {
  let p = pacers.get(slot);
  if (!p) pacers.set(slot, (p = new Pacer(options.maxRps && options.maxRps > 0 ? options.maxRps : Infinity)));
  return p;
}

/** Waits for this credential's turn (Retry-After, then the pace); returns the ms waited. */
export async function awaitTurn(slot: string): Promise<number> {
  const p = pacerOf(slot);
  const started = performance.now();
  const due = () => Math.max(p.blockedUntil, Number.isFinite(p.rate) ? p.nextSlot : 0);
  if (due() > started) {
    if (waiting++ === 0) waitingSince = started;
    try {
      for (let at = due(); at > performance.now(); at = due()) await sleep(at - performance.now());
    } finally {
      if (--waiting === 0) waitedWallMs += performance.now() - waitingSince;
    }
  }
  const now = performance.now();
  if (Number.isFinite(p.rate)) p.nextSlot = Math.max(now, p.nextSlot) + 1000 / p.rate;
  p.sent.push(now);
  while (p.sent.length && p.sent[0]! < now - RECENT_MS) p.sent.shift();
  return now - started;
}

/** The Retry-After of a 429 in whole seconds (RFC 9110 delay-seconds), capped; the default when absent or malformed. */
export function retryAfterSeconds(header: string | undefined): number {
  const v = header?.trim();
  if (v && /^[0-9]+$/.test(v)) return Math.min(MAX_RETRY_AFTER_S, Number(v));
  return DEFAULT_RETRY_AFTER_S;
}

/** A 429 on this credential: block it until Retry-After, and halve the pace. Returns the wait imposed, ms. */
export function onThrottled(slot: string, retryAfterHeader: string | undefined): number {
  const p = pacerOf(slot);
  const waitMs = retryAfterSeconds(retryAfterHeader) * 1000 + RETRY_AFTER_MARGIN_MS;
  const now = performance.now();
  p.blockedUntil = Math.max(p.blockedUntil, now + waitMs);
  const recent = p.sent.filter((t) => t >= now - RECENT_MS).length;
  p.rate = Math.max(1, Math.min(Number.isFinite(p.rate) ? p.rate : recent, recent) / 2);
  p.nextSlot = p.blockedUntil;
  return waitMs;
}

/** An answer that is not a 429: the pace goes up a step, and stops pacing past its ceiling. */
export function onAccepted(slot: string): void {
  const p = pacers.get(slot);
  if (!p || !Number.isFinite(p.rate) || p.rate >= p.ceiling) return;
  p.rate += Math.max(0.25, p.rate * 0.02);
  if (p.rate >= 1000 && !Number.isFinite(p.ceiling)) p.rate = Infinity;
  else if (p.rate > p.ceiling) p.rate = p.ceiling;
}

/** Wall time (ms) during which at least one request of this process waited for its turn (Retry-After, the pace). */
export function processWaitedMs(): number {
  return waitedWallMs + (waiting > 0 ? performance.now() - waitingSince : 0);
}

/** Whether this process has throttle waiting left in its run's budget. */
export function budgetLeft(): boolean {
  return processWaitedMs() < (options.waitBudgetMs ?? DEFAULT_WAIT_BUDGET_MS);
}

/** The budget, for messages. */
export function waitBudgetMs(): number {
  return options.waitBudgetMs ?? DEFAULT_WAIT_BUDGET_MS;
}

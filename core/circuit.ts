/**
 * The client's circuit breaker, with a half-open state. Once a target has left
 * CIRCUIT_THRESHOLD ordinary requests in a row without an answer (time-out, refused, reset),
 * the circuit opens: requests wait instead of piling onto a target that is away. After a pause
 * one request is let through (half-open); when the target answers it, the circuit closes and
 * everyone goes on. The pause doubles up to PAUSE_MAX_MS. Only when the target stays away past
 * the outage budget (probes.outage_budget_s, default 30 s) is every further request refused at
 * once, so a target that is gone ends the run as ERROR in about that long, and a blip (a few
 * resets, a restart) costs a pause, never a verdict.
 *
 * Per origin and per process (each suite worker has its own); probes outside ordinary HTTP
 * neither trip nor reset it.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export const CIRCUIT_THRESHOLD = 3;
export const CIRCUIT_OPEN_MARK = 'circuit open';
export const DEFAULT_OUTAGE_BUDGET_MS = 30_000;
const PAUSE_MIN_MS = 250;
const PAUSE_MAX_MS = 4_000;
/** How often a waiting request looks again. */
const POLL_MS = 50;

interface Circuit {
  failures: number;
  /** When the circuit opened (performance.now()); undefined while closed. */
  openedAt?: number;
  /** Earliest moment of the next half-open probe. */
  nextProbeAt: number;
  pauseMs: number;
  probeInFlight: boolean;
  /** Away past the budget (here, or as another process of the run found): refused from now on. */
  gone?: boolean;
}

const circuits = new Map<string, Circuit>();
/**
 * A file the run's processes share: an origin found gone (away past the budget) is written there,
 * so another suite worker (or a later phase) that finds it silent too refuses at once instead of
 * waiting out a budget of its own. Read only when a circuit opens.
 */
let outageFile: string | undefined;

export function shareOutagesThrough(file: string | undefined): void {
  outageFile = file;
}

function knownGone(origin: string): boolean {
  if (!outageFile) return false;
  try {
    return readFileSync(outageFile, 'utf8').split('\n').includes(origin);
  } catch {
    return false;
  }
}

function circuitOf(origin: string): Circuit {
  let c = circuits.get(origin);
  if (!c) circuits.set(origin, (c = { failures: 0, nextProbeAt: 0, pauseMs: PAUSE_MIN_MS, probeInFlight: false }));
  return c;
}

/** The reason requests to this origin are refused at once (the target stayed away past the budget), or undefined. */
export function circuitOpen(origin: string, budgetMs = DEFAULT_OUTAGE_BUDGET_MS): string | undefined {
  const c = circuits.get(origin);
  if (!c || c.openedAt === undefined) return undefined;
  const away = performance.now() - c.openedAt;
  if (away > budgetMs && !c.gone) {
    c.gone = true;
    if (outageFile) appendFileSync(outageFile, `${origin}\n`);
  }
  return c.gone ? `${CIRCUIT_OPEN_MARK}: the target left ${c.failures} requests in a row without an answer and did not answer again ` +
    `within ${Math.round(budgetMs / 1000)} s (probes.outage_budget_s)` : undefined;
}

/**
 * Waits until a request may be sent: at once while the circuit is closed; while it is open, until
 * this request is the half-open probe or another probe closed it. Resolves with the refusal when
 * the outage budget is spent. Returns how long it waited, ms.
 */
export async function passCircuit(origin: string, budgetMs = DEFAULT_OUTAGE_BUDGET_MS): Promise<{ refused?: string; waitedMs: number }> {
  const started = performance.now();
  for (;;) {
    const c = circuitOf(origin);
    if (c.openedAt === undefined) return { waitedMs: performance.now() - started };
    const refused = circuitOpen(origin, budgetMs);
    if (refused) return { refused, waitedMs: performance.now() - started };
    if (!c.probeInFlight && performance.now() >= c.nextProbeAt) {
      c.probeInFlight = true;
      return { waitedMs: performance.now() - started };
    }
    await sleep(POLL_MS);
  }
}

export function recordAnswer(origin: string): void {
  const c = circuitOf(origin);
  c.failures = 0;
  c.openedAt = undefined;
  c.gone = false;
  c.probeInFlight = false;
  c.pauseMs = PAUSE_MIN_MS;
}

export function recordNoAnswer(origin: string): void {
  const c = circuitOf(origin);
  c.failures += 1;
  c.probeInFlight = false;
  if (c.failures < CIRCUIT_THRESHOLD) return;
  const now = performance.now();
  if (c.openedAt === undefined) {
    c.openedAt = now;
    if (knownGone(origin)) c.gone = true;
  }
  else c.pauseMs = Math.min(PAUSE_MAX_MS, c.pauseMs * 2);
  c.nextProbeAt = now + c.pauseMs;
}

/** A new run (or a test) starts with every circuit closed. */
export function resetCircuits(): void {
  circuits.clear();
}

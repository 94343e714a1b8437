/**
 * Interrupted is not lost. While a command that writes results runs, the first SIGINT or SIGTERM
 * stops sending (the stop hooks: vitest's run is cancelled, the load generator told to stop),
 * gives the normal path up to GRACE_MS to write every report with the results so far (marked
 * partial), and otherwise writes them itself from what has finished (the emergency writer), removes
 * the run's temporary files and exits 130 (SIGINT) or 143 (SIGTERM): within INTERRUPT_BOUND_MS of
 * the signal. A second signal removes the temporary files and exits at once.
 */

import { readdirSync, readFileSync } from 'node:fs';
import type { Interruption } from '../catalogue/report/model.ts';
import { EXIT } from './error-codes.ts';

/** The stated bound: from the first signal to the process's exit, whatever the run was doing. */
export const INTERRUPT_BOUND_MS = 5_000;
/** How long the run's own path may take to stop and write before the emergency writer takes over. */
const GRACE_MS = 1_500;

export const EXIT_OF_SIGNAL: Record<'SIGINT' | 'SIGTERM', number> = { SIGINT: EXIT.interrupted, SIGTERM: EXIT.terminated };

export interface InterruptGuard {
  /** The signal received, if any. */
  readonly signal: 'SIGINT' | 'SIGTERM' | undefined;
  /** 130 / 143 once a signal came. */
  readonly exitCode: number | undefined;
  /** Why the results are partial (`interrupted by SIGINT 3.2 s into the run`). */
  reason(): string | undefined;
  /** The signal and how long into the run it came (report.json `interrupted`), once a signal came. */
  interruption(): Interruption | undefined;
  /** Called once at the first signal (at once when it already came): stop sending. */
  onStop(fn: () => void): void;
  /** Removes temporary files at once (synchronous): run at exit, whichever path exits. */
  addCleanup(fn: () => void): void;
  /** Writes the partial results when the run's own path has not within the grace time. */
  setEmergencyWriter(fn: () => void): void;
  /** The run's own path is writing the results: the emergency writer stands down. False when it already wrote them. */
  claimWrite(): boolean;
  /**
   * Takes the signals back from handlers installed after this guard: vitest's logger exits the
   * process at SIGINT/SIGTERM (process.exit, before any result is written), so they are removed.
   */
  ownSignals(): void;
  /** Runs the cleanups (idempotent). */
  cleanup(): void;
  disarm(): void;
}

class Guard implements InterruptGuard {
  signal: 'SIGINT' | 'SIGTERM' | undefined;
  private at = 0;
  private claimed: 'run' | 'emergency' | undefined;
  private emergency: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly stops: Array<() => void> = [];
  private readonly cleanups: Array<() => void> = [];
  private cleaned = false;
  private readonly onInt = () => this.handle('SIGINT');
  private readonly onTerm = () => this.handle('SIGTERM');

  constructor(
    private readonly log: (line: string) => void,
    private readonly exit: (code: number) => void,
    private readonly started: number,
  ) {
    process.on('SIGINT', this.onInt);
    process.on('SIGTERM', this.onTerm);
  }

  get exitCode(): number | undefined {
    return this.signal ? EXIT_OF_SIGNAL[this.signal] : undefined;
  }

  reason(): string | undefined {
    const i = this.interruption();
    return i ? `interrupted by ${i.signal} ${i.after_s.toFixed(1)} s into the run` : undefined;
  }

  interruption(): Interruption | undefined {
    return this.signal ? { signal: this.signal, after_s: Math.round((this.at - this.started) / 100) / 10 } : undefined;
  }

  onStop(fn: () => void): void {
    if (this.signal) fn();
    else this.stops.push(fn);
  }

  addCleanup(fn: () => void): void {
    this.cleanups.push(fn);
  }

  setEmergencyWriter(fn: () => void): void {
    this.emergency = fn;
  }

  claimWrite(): boolean {
    if (this.claimed === 'emergency') return false;
    this.claimed = 'run';
    return true;
  }

  cleanup(): void {
    if (this.cleaned) return;
    this.cleaned = true;
    for (const fn of this.cleanups.splice(0)) bestEffort(fn);
  }

  ownSignals(): void {
    for (const sig of ['SIGINT', 'SIGTERM'] as const) {
      const mine = sig === 'SIGINT' ? this.onInt : this.onTerm;
      for (const l of process.listeners(sig)) if (l !== mine) process.off(sig, l as () => void);
    }
  }

  disarm(): void {
    process.off('SIGINT', this.onInt);
    process.off('SIGTERM', this.onTerm);
    if (this.timer) clearTimeout(this.timer);
  }

  private handle(sig: 'SIGINT' | 'SIGTERM'): void {
    if (this.signal) {
      this.log(`hps-conformance: ${sig} again: exiting now`);
      this.cleanup();
      endChildren();
      this.exit(EXIT_OF_SIGNAL[this.signal]);
      return;
    }
    this.signal = sig;
    this.at = Date.now();
    this.log(`hps-conformance: ${sig}: stopping; the results so far are written (partial) within ${INTERRUPT_BOUND_MS / 1000} s; a ` +
      `second signal exits at once`);
    for (const fn of this.stops.splice(0)) bestEffort(fn);
    this.timer = setTimeout(() => this.takeOver(), GRACE_MS);
  }

  /**
   * The grace time is over. The run's own path has not begun writing: write what has finished,
   * clean up, exit. It is writing (a busy machine renders slowly): let it finish, up to the bound.
   */
  private takeOver(): void {
    if (this.claimed === 'run') {
      this.timer = setTimeout(() => this.finish(), Math.max(0, INTERRUPT_BOUND_MS - GRACE_MS - 250));
      return;
    }
    if (this.claimed === undefined && this.emergency) {
      this.claimed = 'emergency';
      try {
        this.emergency();
      } catch (e) {
        this.log(`hps-conformance: the results so far could not be written (${(e as Error).message})`);
      }
    }
    this.finish();
  }

  private finish(): void {
    this.cleanup();
    endChildren();
    this.exit(EXIT_OF_SIGNAL[this.signal!]);
  }
}

/**
 * Ends this process's child processes before it exits: the esbuild services of tsx and vite are
 * children that end only when they notice their stdin closed, after the parent is gone; on Linux
 * they are listed in /proc and sent SIGTERM. Elsewhere nothing is listed and nothing is done.
 */
export function endChildren(): number {
  let pids: number[] = [];
  try {
    pids = readdirSync('/proc/self/task').flatMap((t) => readFileSync(
      `/proc/self/task/${t}/children`,
      'utf8',
    ).trim().split(/\s+/).filter(Boolean).map(Number));
  } catch {
    return 0;
  }
  for (const pid of pids) bestEffort(() => process.kill(pid, 'SIGTERM'));
  return pids.length;
}

function bestEffort(fn: () => void): void {
  try {
    fn();
  } catch {
    // one hook failing must not keep the others from running
  }
}

export function armInterrupts(o: { log?: (line: string) => void; startedAt?: number; exit?: (code: number) => void } = {}): InterruptGuard {
  return new Guard(
    o.log ?? ((l: string) => void process.stderr.write(`${l}\n`)),
    o.exit ?? ((code: number) => process.exit(code)),
    o.startedAt ?? Date.now(),
  );
}

/**
 * Interrupted is not lost. While a command that writes results runs, the first SIGINT or SIGTERM
 * stops sending (the stop hooks: vitest's run is cancelled, the load generator told to stop),
 * gives the normal path up to GRACE_MS to write every report with the results so far (marked
 * partial), and otherwise writes them itself from what has finished (the emergency writer), removes
 * the run's temporary files and exits 130 (SIGINT) or 143 (SIGTERM): within INTERRUPT_BOUND_MS of
 * the signal. A second signal removes the temporary files and exits at once.
 */

/** The stated bound: from the first signal to the process's exit, whatever the run was doing. */
export const INTERRUPT_BOUND_MS = 5_000;
/** How long the run's own path may take to stop and write before the emergency writer takes over. */
const GRACE_MS = 2_500;

const EXIT_OF_SIGNAL: Record<'SIGINT' | 'SIGTERM', number> = { SIGINT: 130, SIGTERM: 143 };

export interface InterruptGuard {
  /** The signal received, if any. */
  readonly signal: 'SIGINT' | 'SIGTERM' | undefined;
  /** 130 / 143 once a signal came. */
  readonly exitCode: number | undefined;
  /** Why the results are partial (`interrupted by SIGINT 3.2 s into the run`). */
  reason(): string | undefined;
  /** Called once at the first signal (at once when it already came): stop sending. */
  onStop(fn: () => void): void;
  /** Removes temporary files at once (synchronous): run at exit, whichever path exits. */
  addCleanup(fn: () => void): void;
  /** Writes the partial results when the run's own path has not within the grace time. */
  setEmergencyWriter(fn: () => void): void;
  /** The run's own path is writing the results: the emergency writer stands down. False when it already wrote them. */
  claimWrite(): boolean;
  /** Runs the cleanups (idempotent). */
  cleanup(): void;
  disarm(): void;
}

export function armInterrupts(o: { log?: (line: string) => void; startedAt?: number; exit?: (code: number) => void } = {}): InterruptGuard {
  const log = o.log ?? ((l: string) => void process.stderr.write(`${l}\n`));
  const exit = o.exit ?? ((code: number) => process.exit(code));
  const started = o.startedAt ?? Date.now();
  let signal: 'SIGINT' | 'SIGTERM' | undefined;
  let at = 0;
  let claimed: 'run' | 'emergency' | undefined;
  let emergency: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  const stops: Array<() => void> = [];
  const cleanups: Array<() => void> = [];
  let cleaned = false;

  const cleanup = (): void => {
    if (cleaned) return;
    cleaned = true;
    for (const fn of cleanups.splice(0)) {
      try {
        fn();
      } catch {
        // best effort: the next one still runs
      }
    }
  };
  const takeOver = (): void => {
    if (claimed === undefined && emergency) {
      claimed = 'emergency';
      try {
        emergency();
      } catch (e) {
        log(`hps-conformance: the results so far could not be written (${(e as Error).message})`);
      }
    }
    cleanup();
    exit(EXIT_OF_SIGNAL[signal!]);
  };
  const handler = (sig: 'SIGINT' | 'SIGTERM'): void => {
    if (signal) {
      log(`hps-conformance: ${sig} again: exiting now`);
      cleanup();
      exit(EXIT_OF_SIGNAL[signal]);
      return;
    }
    signal = sig;
    at = Date.now();
    log(`hps-conformance: ${sig}: stopping; the results so far are written (partial) within ${INTERRUPT_BOUND_MS / 1000} s; a second signal exits at once`);
    for (const fn of stops) {
      try {
        fn();
      } catch {
        // a stop hook that fails must not keep the others from running
      }
    }
    timer = setTimeout(takeOver, GRACE_MS);
  };
  const onInt = () => handler('SIGINT');
  const onTerm = () => handler('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);

  return {
    get signal() {
      return signal;
    },
    get exitCode() {
      return signal ? EXIT_OF_SIGNAL[signal] : undefined;
    },
    reason: () => (signal ? `interrupted by ${signal} ${((at - started) / 1000).toFixed(1)} s into the run` : undefined),
    onStop: (fn) => {
      if (signal) fn();
      else stops.push(fn);
    },
    addCleanup: (fn) => void cleanups.push(fn),
    setEmergencyWriter: (fn) => {
      emergency = fn;
    },
    claimWrite: () => {
      if (claimed === 'emergency') return false;
      claimed = 'run';
      return true;
    },
    cleanup,
    disarm: () => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      if (timer) clearTimeout(timer);
    },
  };
}

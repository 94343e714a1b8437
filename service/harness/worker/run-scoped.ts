/**
 * State that lives for one run of the suites. A suite worker may serve several runs in a row
 * (the mutation score keeps one vitest session across every planted fault), and modules are
 * shared between runs: a cache, a counter or a set of seen ids must start empty with each run.
 * Modules register how to forget their state; the first use of a new run's context forgets it.
 */
const resets: Array<() => void> = [];
let currentRun: string | undefined;

/** Registers how a module forgets its run-scoped state. */
export function onNewRun(reset: () => void): void {
  resets.push(reset);
}

/** Called with the context's run id whenever a suite reads it; a new id resets every registered state (and says so). */
export function enterRun(runId: string): boolean {
  if (runId === currentRun) return false;
  currentRun = runId;
  for (const reset of resets) reset();
  return true;
}

/**
 * Something several tests of a run share, made once by the first that needs it: `get(make)`
 * answers the run's promise, making it on first use. A making that failed is forgotten at once,
 * so the next test (or the same test run again after a blip) makes it afresh instead of
 * inheriting the failure; a new run starts empty.
 */
export function runShared<T>(): { get(make: () => Promise<T>): Promise<T> } {
  let shared: Promise<T> | undefined;
  onNewRun(() => (shared = undefined));
  return {
    get(make) {
      if (shared === undefined) {
        const made = make();
        shared = made;
        made.catch(() => {
          if (shared === made) shared = undefined;
        });
      }
      return shared;
    },
  };
}

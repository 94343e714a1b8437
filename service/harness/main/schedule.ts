/**
 * The order in which suite files are handed to the workers: longest first, the same on every
 * machine and every run.
 *
 * A worker runs one file at a time (its tests side by side), so a run lasts at least as long as its
 * longest file, and a long file started late makes the tail. vitest's own order comes from its
 * results cache (node_modules/.vite/vitest/…/results.json: a file that failed in any earlier run
 * first, then by its last duration), which every earlier vitest run of the checkout rewrites, the
 * project's own tests and mutation runs included: the quick start then started the webhook retry
 * file (HOOK-NO-RETRY-AFTER-ACK waits ~11 s for the spec's 10 s time-out, HOOK-MAX-ATTEMPTS about as
 * long) after most other files, and waited for it at the end. Here:
 *
 * 1. the webhook retry file first: its tests wait longest (the spec's 10 s time-out, the whole retry
 *    ladder and a quiet period), and barely work, so their waiting overlaps every other file's work;
 * 2. then every other file, longest first by its span against a target 50 ms away (the median of
 *    four whole-suite runs of `npm run bench:field -- --only latency`'s B side, 8 workers): there a
 *    file lasts as long as its longest chain of round trips, and a long chain started late is the
 *    run's tail (responses/errors.rules.ts, 262 requests, small on loopback, started at 13.9 s of a
 *    16.2 s first phase by the loopback figures this table held before). Against a target on this
 *    machine the order of these files does not matter: with 2 workers, one holds the retry file and
 *    the other runs them all, one after another;
 * 3. a file not listed counts as 0 and falls back to its size, the largest first;
 * 4. with two workers at most (the embedded reference, a target on this machine): the files that
 *    may be held during the exclusive turn (the webhook files but the retry file) after every file
 *    that must end before that turn, which one worker then runs one after another: the turn may
 *    start as soon as those have ended, while a held file is still running (its requests wait at
 *    the gate). With more workers (a target far away: files side by side, each its chain of round
 *    trips) they keep their place by their seconds: started late, a long held file is the tail
 *    (50 ms away, 8 workers, 3 pairs of bench:field: the run 21.4 s held last, 20.5-20.9 s in place);
 * 5. the exclusive areas last (service/harness/common/exclusive.ts), whatever this table says.
 *
 * On this 2-CPU machine the quick start's files that must end before the turn used to end at 12.2 s
 * (the four held webhook files, 3.4 s, among them), the turn then 2.4 s of Retry-After alone. Now
 * (seed 1, a quiet machine) they end at 6.1 s, the same worker runs the held files (6.2-9.4 s) and
 * then the turn (9.4-11.7 s), beside the retry file (to 11.3 s) in the other worker. Handing out the
 * turn before the held files measured the same wall time and ~10 MB more peak memory (the held files
 * then end the run in both workers at once).
 *
 * Only the order of the figures matters. Its test: test/harness/schedule.test.ts.
 */
import { EXCLUSIVE_AREAS, HELD_DURING_EXCLUSIVE } from '../common/exclusive.ts';

/** Suite files (relative to suites/) by the seconds they take 50 ms away, the retry file first. */
export const FILE_SECONDS: Readonly<Record<string, number>> = {
  // Waiting: the retry ladder, the 10 s time-out, the quiet periods (HOOK-NO-RETRY-AFTER-ACK, HOOK-MAX-ATTEMPTS).
  'webhooks/retries.rules.ts': 100,
  // The others by their span 50 ms away (the median of four runs): the longest chains of round trips first.
  'auth/missing-key.rules.ts': 4.6,
  'listing/paging.rules.ts': 4.6,
  'responses/payment.rules.ts': 4.1,
  'webhooks/routing.rules.ts': 3.8,
  'auth/bad-keys.rules.ts': 3.2,
  'model/sequences.rules.ts': 3.2,
  'webhooks/envelope.rules.ts': 3.2,
  'transitions/illegal.rules.ts': 2.9,
  'transitions/reversed.rules.ts': 2.8,
  'responses/answers.rules.ts': 2.7,
  'routing/unknown-route.rules.ts': 2.7,
  'create/allowed-lists.rules.ts': 2.5,
  'responses/errors.rules.ts': 2.3,
  'idempotency/conflict.rules.ts': 2.2,
  'webhooks/signing.rules.ts': 2.2,
  'responses/list.rules.ts': 2.1,
  'idempotency/replay.rules.ts': 2.0,
  'isolation/key-alone.rules.ts': 1.9,
  'isolation/other-business.rules.ts': 1.9,
  'webhooks/refused.rules.ts': 1.9,
  'idempotency/values-exact.rules.ts': 1.8,
  'transitions/legal.rules.ts': 1.7,
  'listing/external-id.rules.ts': 1.5,
  'auth/scopes.rules.ts': 1.4,
  'responses/payment-views.rules.ts': 1.4,
  'create/amount.rules.ts': 1.3,
  'create/body.rules.ts': 1.3,
  'idempotency/external-id.rules.ts': 1.3,
  'isolation/unknown-id.rules.ts': 1.3,
  'create/valid.rules.ts': 1.2,
  'transitions/create-pending.rules.ts': 1.2,
  'isolation/live-key-test-helpers.rules.ts': 1.1,
  'orders/order-due.rules.ts': 1.1,
  'create/return-url.rules.ts': 1.0,
  'routing/wrong-method.rules.ts': 1.0,
  'listing/strict-params.rules.ts': 0.9,
  'live/readiness.rules.ts': 0.8,
  'orders/customer.rules.ts': 0.8,
  'orders/order-reference.rules.ts': 0.8,
  'versioning/unknown-version.rules.ts': 0.8,
  'create/context-items.rules.ts': 0.7,
  'create/lengths.rules.ts': 0.7,
  'create/metadata.rules.ts': 0.7,
  'idempotency/in-progress.rules.ts': 0.7,
  'isolation/test-no-live-409.rules.ts': 0.6,
  'isolation/test-live.rules.ts': 0.5,
  'versioning/event-api-version.rules.ts': 0.5,
};

/** Up to this many workers, the held files go after the files that must end before the exclusive turn (4. above). */
const HELD_AFTER_MAX_WORKERS = 2;

/** A file listed with at least this many seconds waits more than it works: it goes first, whatever its area. */
const WAITING_SECONDS = 100;

/** `suites/<area>/<file>` of a module id, `area/file` (undefined outside suites/). */
export function suiteFileOf(moduleId: string): string | undefined {
  const m = /[/\\]suites[/\\]([^/\\]+)[/\\]([^/\\]+)$/.exec(moduleId);
  return m ? `${m[1]}/${m[2]}` : undefined;
}

/**
 * `files` in the order above, for a run of `workers` suite workers. `sizeOf` gives a file's size
 * (bytes) for the files the table does not list; ties keep their given order.
 */
export function longestFirst<T extends { moduleId: string }>(files: readonly T[], sizeOf: (f: T) => number, workers = 2): T[] {
  const heldAfter = workers <= HELD_AFTER_MAX_WORKERS;
  const key = (f: T) => {
    const rel = suiteFileOf(f.moduleId) ?? '';
    const area = rel.split('/')[0] ?? '';
    const seconds = FILE_SECONDS[rel] ?? 0;
    // 0 the waiting file(s), 1 the files that must end before the exclusive turn, 2 the held ones, 3 the exclusive ones.
    const tier = seconds >= WAITING_SECONDS ? 0 : EXCLUSIVE_AREAS.has(area) ? 3 : heldAfter && HELD_DURING_EXCLUSIVE.has(area) ? 2 : 1;
    return { tier, seconds, size: sizeOf(f) };
  };
  const keyed = files.map((f) => ({ f, k: key(f) }));
  keyed.sort((a, b) => a.k.tier - b.k.tier || b.k.seconds - a.k.seconds || b.k.size - a.k.size);
  return keyed.map((x) => x.f);
}

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
 * 1. the files whose tests wait longest (for webhook deliveries: they wait, they barely work) start
 *    first, so their waiting overlaps every other file's work;
 * 2. then the files that work longest (CPU-bound properties against the target), longest first;
 * 3. then every other file, the largest first;
 * 4. the exclusive areas last (service/harness/common/exclusive.ts), whatever this table says.
 *
 * The figures are each file's span in seconds on the quick start against the embedded reference (2
 * CPUs, `npm run bench:conformance` breakdown); only their order matters. A file not listed counts
 * as 0 and falls back to its size. Its test: test/harness/schedule.test.ts.
 */
import { EXCLUSIVE_AREAS } from '../common/exclusive.ts';

/** Suite files (relative to suites/) by the seconds they take, waiting files first. */
export const FILE_SECONDS: Readonly<Record<string, number>> = {
  // Waiting: the retry ladder, the 10 s time-out, the quiet periods (HOOK-NO-RETRY-AFTER-ACK, HOOK-MAX-ATTEMPTS).
  'webhooks/retries.rules.ts': 100,
  // Working: fast-check properties and edge tables, each a long chain of requests.
  'transitions/illegal.rules.ts': 8,
  'auth/bad-keys.rules.ts': 7,
  'create/allowed-lists.rules.ts': 7,
  'auth/missing-key.rules.ts': 6,
  'listing/paging.rules.ts': 6,
  'responses/payment.rules.ts': 6,
  // Waiting for deliveries, a few seconds each.
  'webhooks/envelope.rules.ts': 5,
  'model/sequences.rules.ts': 4,
  'create/body.rules.ts': 3,
  'webhooks/routing.rules.ts': 3,
  'webhooks/signing.rules.ts': 3,
  'responses/answers.rules.ts': 3,
  'create/amount.rules.ts': 3,
  'create/valid.rules.ts': 3,
  'create/return-url.rules.ts': 2.5,
  'listing/strict-params.rules.ts': 2.5,
  'create/metadata.rules.ts': 2.5,
  'routing/unknown-route.rules.ts': 2,
  'isolation/key-alone.rules.ts': 1.5,
  'webhooks/refused.rules.ts': 1.5,
};

/** `suites/<area>/<file>` of a module id, `area/file` (undefined outside suites/). */
export function suiteFileOf(moduleId: string): string | undefined {
  const m = /[/\\]suites[/\\]([^/\\]+)[/\\]([^/\\]+)$/.exec(moduleId);
  return m ? `${m[1]}/${m[2]}` : undefined;
}

/**
 * `files` in the order above. `sizeOf` gives a file's size (bytes) for the files the table does
 * not list; ties keep their given order.
 */
export function longestFirst<T extends { moduleId: string }>(files: readonly T[], sizeOf: (f: T) => number): T[] {
  const key = (f: T) => {
    const rel = suiteFileOf(f.moduleId) ?? '';
    const exclusive = EXCLUSIVE_AREAS.has(rel.split('/')[0] ?? '') ? 1 : 0;
    return { exclusive, seconds: FILE_SECONDS[rel] ?? 0, size: sizeOf(f) };
  };
  const keyed = files.map((f) => ({ f, k: key(f) }));
  keyed.sort((a, b) => a.k.exclusive - b.k.exclusive || b.k.seconds - a.k.seconds || b.k.size - a.k.size);
  return keyed.map((x) => x.f);
}

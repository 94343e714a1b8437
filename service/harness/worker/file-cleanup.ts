/**
 * A test file's bookkeeping, per vitest collector (file or describe block).
 *
 * Payments each test file created with Test keys, cancelled at the end of that
 * file (or describe block) if still PENDING (docs/profile.md). Files may share this
 * module (the runner does not isolate modules per file), so the bookkeeping is per file.
 */
import { afterAll } from 'vitest';
import { getCurrentSuite } from 'vitest/suite';
import { clientForProfile } from '../../../core/client-for-profile.ts';
import { mapLimit } from '../../../core/concurrency.ts';
import { releaseTarget } from '../../../core/target-gate.ts';
import { suiteContext } from './suite-context.ts';

const createdByFile = new WeakMap<object, Map<string, string>>();

/** The Payments the current file created (id → key), cancelled when the file ends. */
export function fileCleanup(): Map<string, string> {
  // vitest creates a fresh collector per file (and per describe block): the bookkeeping follows it.
  const file: object = getCurrentSuite();
  let created = createdByFile.get(file);
  if (created) return created;
  const mine = new Map<string, string>();
  created = mine;
  createdByFile.set(file, mine);
  afterAll(async () => {
    const ctx = suiteContext();
    const client = clientForProfile(ctx.profile);
    const pending = [...mine.entries()];
    mine.clear();
    await mapLimit(pending, 16, async ([id, key]) => {
      try {
        // Cancel needs only payments:write (the creating key has it); a non-PENDING one answers 409, harmlessly.
        await client.cancelPayment(key, id);
      } catch {
        /* best effort */
      }
    });
  }, 60_000);
  return mine;
}

const releasing = new WeakSet<object>();

/** Opens the target gate again when the current file (an exclusive area's) ends. */
export function releaseTargetAfterFile(): void {
  const file: object = getCurrentSuite();
  if (releasing.has(file)) return;
  releasing.add(file);
  afterAll(() => releaseTarget());
}

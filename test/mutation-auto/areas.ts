/**
 * The reference server's decision files that `npm run mutation:auto` mutates (docs/mutation-auto.md),
 * each with the suite areas whose run judges a mutant of it: the areas that test what the file
 * decides. test/mutation-auto/areas.test.ts checks that every file exists and every area is one of
 * the suite's, and that a mutant of a Stryker-instrumented copy is found in its file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AREAS, type Area } from '../../catalogue/types.ts';

export const MUTATED_FILES: Readonly<Record<string, readonly Area[]>> = {
  'references/service/validate-create.ts': ['create'],
  'references/service/order-checks.ts': ['orders'],
  'references/service/live-readiness.ts': ['live'],
  'references/service/idempotency.ts': ['idempotency'],
  'references/service/create-payment.ts': ['create', 'idempotency'],
  'references/service/payments.ts': ['transitions', 'isolation', 'listing'],
  'references/service/payment-actions.ts': ['transitions', 'isolation', 'webhooks'],
  'references/service/listing.ts': ['listing'],
  'references/service/auth.ts': ['auth'],
  'references/service/router.ts': ['routing', 'auth'],
  'references/service/rate-limit.ts': ['limits'],
  'references/service/webhooks/events.ts': ['webhooks'],
  'references/service/webhooks/emit.ts': ['webhooks'],
  'references/service/webhooks/sign.ts': ['webhooks'],
  'references/service/webhooks/delivery-steps.ts': ['webhooks'],
};

/** The areas judging the mutants of `files` (a file not in the table is an error naming it), in the suite's order. */
export function areasOf(files: Iterable<string>): Area[] {
  const areas = new Set<Area>();
  for (const file of files) {
    const mapped = MUTATED_FILES[file];
    if (mapped === undefined) throw new Error(`${file} is not in MUTATED_FILES (test/mutation-auto/areas.ts)`);
    for (const area of mapped) areas.add(area);
  }
  return AREAS.filter((a) => areas.has(a));
}

/** The files of the table that Stryker instrumented in `root` (its sandbox). */
export function instrumentedFiles(root: string): string[] {
  return Object.keys(MUTATED_FILES).filter((f) => existsSync(join(root, f)) && readFileSync(join(root, f), 'utf8').includes('stryMutAct_'));
}

/** The file of the table in `root` that holds the switch of mutant `id`, if any. */
export function fileOfMutant(root: string, id: string): string | undefined {
  const needle = new RegExp(`stryMutAct_[0-9a-z]+\\("${id.replace(/[^0-9a-zA-Z]/g, '')}"\\)`);
  return instrumentedFiles(root).find((f) => needle.test(readFileSync(join(root, f), 'utf8')));
}

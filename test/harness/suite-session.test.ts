/**
 * One vitest session serves many runs (the mutation score): a run must never see another run's
 * results or state. A fault run whose create tests leave 500s for the ambient RESP-NO-5XX rule is
 * followed, in the same session and worker threads, by a run of the responses area against a clean
 * reference: that run must raise nothing, and must report exactly what a run of its own reports.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { openRunner, type SuiteRunner } from '../../service/mutation/runners.ts';
import { cachedTransform, transformCacheDir, transformSalt } from '../../service/harness/main/transform-cache.ts';
import { PACKAGE_ROOT } from '../../core/package-root.ts';

const ALARMS = ['fail', 'warn', 'error', 'flaky'];

describe('a session serving several runs', () => {
  let runner: SuiteRunner;
  beforeAll(async () => {
    runner = await openRunner('session');
  }, 60_000);
  afterAll(async () => {
    await runner?.close();
  });

  it('a fault run is caught, and the next run in the same session sees nothing of it', async () => {
    const faulty = await runner.run({
      rules: ['CREATE-AMOUNT-MISSING', 'RESP-NO-5XX'],
      faults: ['amount-missing-crashes'],
      seed: 7,
      runs: 10,
    });
    const failed = faulty.report?.rules.filter((r) => r.status === 'fail').map((r) => r.id) ?? [];
    expect(failed, faulty.problem).toContain('CREATE-AMOUNT-MISSING');

    const clean = await runner.run({ areas: ['responses'], faults: [], seed: 7, runs: 10 });
    const alarms = clean.report?.rules.filter((r) => ALARMS.includes(r.status)).map((r) => `${r.id}: ${r.reason ?? ''} ${JSON.stringify(r.evidence).slice(0, 300)}`);
    expect(alarms, clean.problem).toEqual([]);
    // Only the responses area's rules: no rule of the earlier run's files.
    expect(new Set(clean.report!.rules.map((r) => r.area))).toEqual(new Set(['responses']));
    expect(clean.report!.rules.flatMap((r) => r.tests.map((t) => t.title)).filter((t) => t.startsWith('CREATE-'))).toEqual([]);
    // The session keeps the suite modules' transforms on disk (service/harness/main/transform-cache.ts):
    // the next run's process reads them instead of transforming them again.
    const at = { root: PACKAGE_ROOT, dir: transformCacheDir(PACKAGE_ROOT)!, salt: transformSalt(PACKAGE_ROOT) };
    for (const rel of ['suites/create/amount.rules.ts', 'suites/responses/answers.rules.ts']) {
      expect(cachedTransform(at, join(PACKAGE_ROOT, rel), join(PACKAGE_ROOT, rel), 'ssr'), rel).toContain('__vite_ssr_import__');
    }
    expect(cachedTransform(at, '/core/client.ts', join(PACKAGE_ROOT, 'core/client.ts'), 'ssr')).toContain('__vite_ssr_exports__');
  }, 120_000);
});

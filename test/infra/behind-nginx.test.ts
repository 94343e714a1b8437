/**
 * The whole suite against the reference server behind nginx from Debian's package with TLS (a
 * throw-away CA given to the run as NODE_EXTRA_CA_CERTS) and default buffer sizes. A conformant
 * service stays conformant: exit 0, 0 FAIL, 0 WARN. The reference runs in this process, the suite
 * in a child process (`run --profile P`). A short load run goes through the same nginx over https
 * (the generator's undici connections): every check passes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningReference } from '../../references/service/index.ts';
import { describeRun, expectConformant, freshReference, RUN_TIMEOUT_MS, SEED } from './infra-run.ts';
import { missingInfraTools, startNginx, type RunningNginx } from './nginx.ts';
import { expectLoadPasses, runLoad } from './run-load.ts';
import { runSuite, writeProfile } from './run-suite.ts';

describe('behind nginx (Debian package, TLS, default settings)', () => {
  const missing = missingInfraTools();
  let ref: RunningReference;
  let nginx: RunningNginx;
  beforeAll(async () => {
    if (missing !== null) throw new Error(missing);
    ref = await freshReference();
    nginx = await startNginx(ref.url);
  });
  afterAll(async () => {
    await nginx?.close();
    await ref?.close();
  });

  it('the whole suite over https: conformant, 0 FAIL, 0 WARN', async () => {
    const profile = writeProfile(ref.built.profileFor(nginx.url));
    const run = await runSuite(
      ['--profile', profile],
      { seed: SEED, timeoutMs: RUN_TIMEOUT_MS, env: { NODE_EXTRA_CA_CERTS: nginx.caFile } },
    );
    console.log(describeRun(`nginx ${nginx.url}`, run));
    expect(nginx.errorLog()).not.toMatch(/\[emerg\]/);
    expectConformant(run);
  }, RUN_TIMEOUT_MS + 10_000);

  it('load through it over https (undici, the CA from NODE_EXTRA_CA_CERTS): every check passes', async () => {
    const load = await runLoad(writeProfile(ref.built.profileFor(nginx.url)), { NODE_EXTRA_CA_CERTS: nginx.caFile });
    expectLoadPasses(load);
  }, 130_000);
});

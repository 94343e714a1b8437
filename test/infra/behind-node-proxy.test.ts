/**
 * The whole suite against the reference server behind a plain node:http pass-through proxy with
 * Node's default limits, as a user deploys it. The profile's base_url points at the proxy; webhooks
 * go straight to the run's sink. A conformant service stays conformant: exit 0, 0 FAIL, 0 WARN.
 * The reference runs in this process, the suite in a child process (`run --profile P`). A short
 * load run goes through the same proxy on the generator's own HTTP/1.1 connections: every check passes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningReference } from '../../references/service/index.ts';
import { describeRun, expectConformant, freshReference, RUN_TIMEOUT_MS, SEED } from './infra-run.ts';
import { startPassThroughProxy, type RunningProxy } from './pass-through-proxy.ts';
import { expectLoadPasses, runLoad } from './run-load.ts';
import { runSuite, writeProfile } from './run-suite.ts';

describe('behind a plain node:http pass-through proxy (default limits)', () => {
  let ref: RunningReference;
  let proxy: RunningProxy;
  beforeAll(async () => {
    ref = await freshReference();
    proxy = await startPassThroughProxy(ref.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await ref?.close();
  });

  it('the whole suite: conformant, 0 FAIL, 0 WARN', async () => {
    const profile = writeProfile(ref.built.profileFor(proxy.url));
    const run = await runSuite(['--profile', profile], { seed: SEED, timeoutMs: RUN_TIMEOUT_MS });
    console.log(describeRun(`node proxy ${proxy.url}`, run));
    expect(proxy.forwarded).toBeGreaterThan(1000);
    // A 502 of the proxy's own making is the fixture's failure, not the service's: said first.
    expect(proxy.upstreamErrors, 'the proxy failed upstream exchanges itself').toEqual([]);
    expectConformant(run);
  }, RUN_TIMEOUT_MS + 10_000);

  it("load through it (the generator's own HTTP/1.1 connections): every check passes", async () => {
    const load = await runLoad(writeProfile(ref.built.profileFor(proxy.url)));
    expectLoadPasses(load);
  }, 130_000);
});

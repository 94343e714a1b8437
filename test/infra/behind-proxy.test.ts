/**
 * The whole suite against the reference server behind real infrastructure, as a user deploys it:
 * (a) a plain node:http pass-through proxy with Node's default limits, (b) nginx from Debian's
 * package with TLS (a throw-away CA given to the run as NODE_EXTRA_CA_CERTS) and default buffer
 * sizes. The profile's base_url points at the proxy; webhooks go straight to the run's sink.
 * A conformant service stays conformant: exit 0, 0 FAIL, 0 WARN (issue 9).
 *
 * The reference runs in this process (it must keep answering while the child run goes on), the
 * suite in a child process: `node bin/hps-conformance.mjs run --profile P --seed=N --report DIR`.
 * Seed: HPS_INFRA_SEED (default 1).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/index.ts';
import { EMBEDDED_TIME_SCALE, freePort } from '../../targets/embedded.ts';
import { missingInfraTools, startNginx, type RunningNginx } from './nginx.ts';
import { startPassThroughProxy, type RunningProxy } from './pass-through-proxy.ts';
import { runSuite, writeProfile, type SuiteRun } from './run-suite.ts';

const SEED = Number(process.env.HPS_INFRA_SEED ?? 1);
const RUN_TIMEOUT_MS = 240_000;

/** A fresh reference (fresh state per run) whose webhooks go to a port the run's sink will take. */
async function freshReference(): Promise<RunningReference> {
  const sinkPort = await freePort();
  return startReference({ webhookBaseUrl: `http://127.0.0.1:${sinkPort}`, timeScale: EMBEDDED_TIME_SCALE });
}

function describeRun(where: string, run: SuiteRun): string {
  const s = run.summary;
  return `${where}: exit ${run.exitCode}, ${run.verdict}, ${(run.wallMs / 1000).toFixed(1)} s wall, pass ${s.pass} fail ${s.fail} warn ${s.warn} error ${s.error} flaky ${s.flaky} skip ${s.skip}${run.problems.length ? `\n  ${run.problems.join('\n  ')}` : ''}`;
}

function expectConformant(run: SuiteRun): void {
  expect(run.problems, run.outputTail.split('\n').slice(-12).join('\n')).toEqual([]);
  expect(run.summary.fail).toBe(0);
  expect(run.summary.warn).toBe(0);
  expect(run.summary.error).toBe(0);
  expect(run.summary.pass).toBeGreaterThan(100);
  expect(run.verdict).toBe('conformant');
  expect(run.exitCode).toBe(0);
}

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
    expectConformant(run);
  }, RUN_TIMEOUT_MS + 10_000);
});

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
    const run = await runSuite(['--profile', profile], { seed: SEED, timeoutMs: RUN_TIMEOUT_MS, env: { NODE_EXTRA_CA_CERTS: nginx.caFile } });
    console.log(describeRun(`nginx ${nginx.url}`, run));
    expect(nginx.errorLog()).not.toMatch(/\[emerg\]/);
    expectConformant(run);
  }, RUN_TIMEOUT_MS + 10_000);
});

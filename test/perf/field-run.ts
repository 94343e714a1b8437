/**
 * One whole-suite run through a field proxy (test/perf/field-proxy.ts) in front of a fresh
 * reference: the verdict, the counts and the proxy's figures. Used by `npm run bench:field`
 * and by the project's tests.
 */
import { startReference, type ReferenceProfile, type RunningReference } from '../../references/service/index.ts';
import { EMBEDDED_TIME_SCALE, freePort } from '../../service/harness/main/embedded.ts';
import { runSuite, writeProfile, type SuiteRun } from './run-suite.ts';
import { startFieldProxy, type FieldProxyOptions } from './field-proxy.ts';

export interface FieldRun {
  run: SuiteRun;
  proxy: { forwarded: number; limited: number; dropped: number; upstreamErrors: readonly string[]; busiestKey: number };
}

/** `o` may depend on the fresh reference's profile (its keys are new each time). */
export async function runThroughProxy(
  o: FieldProxyOptions | ((profile: ReferenceProfile) => FieldProxyOptions),
  args: string[] = [],
  seed = 1,
  timeoutMs = 600_000,
): Promise<FieldRun> {
  const ref = await freshReference();
  const proxy = await startFieldProxy(ref.url, typeof o === 'function' ? o(ref.profile) : o);
  try {
    const profile = writeProfile(ref.built.profileFor(proxy.url));
    const run = await runSuite(['--profile', profile, ...args], { seed, timeoutMs });
    return {
      run,
      proxy: {
        forwarded: proxy.forwarded,
        limited: proxy.limited,
        dropped: proxy.dropped,
        upstreamErrors: [...proxy.upstreamErrors],
        busiestKey: Math.max(0, ...proxy.perKey.values()),
      },
    };
  } finally {
    await proxy.close();
    await ref.close();
  }
}

/** A fresh reference (fresh state per run) whose webhooks go to a port the run's sink will take. */
async function freshReference(): Promise<RunningReference> {
  const sinkPort = await freePort();
  return startReference({ webhookBaseUrl: `http://127.0.0.1:${sinkPort}`, timeScale: EMBEDDED_TIME_SCALE });
}

/**
 * `run` options for people and CI, end to end through the CLI: a target from
 * --base-url/--key-env, progress lines with each FAIL as it happens, fail-fast,
 * --strict, --request-timeout, the GitHub step summary and annotations.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileFromFlags } from '../cli/target-flags.ts';
import { startReference } from '../references/service/index.ts';
import type { Report } from '../catalogue/report/model.ts';
import { QUIET_ONE_RULE, sharedRun } from './support/shared-run.ts';

const BIN = join(import.meta.dirname, '..', 'bin', 'hps-conformance.mjs');
const dir = mkdtempSync(join(tmpdir(), 'hps-runopts-'));
let ref: Awaited<ReturnType<typeof startReference>>;

/** Async: the reference answers from this process, so the child must not block its event loop. */
function cli(args: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number; out: string; err: string }> {
  return new Promise((res) => {
    execFile(process.execPath, [
      BIN,
      ...args,
    ], {
      env: { ...process.env, CI: 'true', GITHUB_ACTIONS: undefined, GITHUB_STEP_SUMMARY: undefined, ...env },
      timeout: 120_000,
    }, (e, out, err) =>
      res({ code: e ? ((e as { code?: number }).code ?? 1) : 0, out, err }),
    );
  });
}
const reportOf = (d: string) => JSON.parse(readFileSync(join(d, 'report.json'), 'utf8')) as Report;

beforeAll(async () => {
  ref = await startReference({ port: 0, webhookBaseUrl: 'http://127.0.0.1:9' });
});
afterAll(async () => ref?.close());

describe('a target from --base-url and --key-env', () => {
  it('builds a profile whose key comes from the environment only', () => {
    const t = profileFromFlags(
      { 'base-url': 'http://127.0.0.1:4010/', 'key-env': 'K1', 'live-key-env': 'K2' },
      { K1: 'pt_test_sk_abcd1234', K2: 'pt_live_sk_efgh5678' },
    );
    expect(t!.profile).toEqual({ base_url: 'http://127.0.0.1:4010', keys: { test: 'pt_test_sk_abcd1234', live: 'pt_live_sk_efgh5678' } });
    expect(t!.replayArgs).toEqual(['--base-url', 'http://127.0.0.1:4010/', '--key-env', 'K1', '--live-key-env', 'K2']);
    expect(profileFromFlags({})).toBeUndefined();
  });

  it('refuses a key given in place of a variable name without echoing it, an unset variable, a missing --key-env, --profile with --base-url', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ 'base-url': 'http://127.0.0.1:1', 'key-env': 'pt_test_sk_leakme99' }, /takes the NAME of an environment variable/],
      [{ 'base-url': 'http://127.0.0.1:1', 'key-env': 'HPS_UNSET_VAR_X' }, /keys.test: environment variable HPS_UNSET_VAR_X is not set/],
      [{ 'base-url': 'http://127.0.0.1:1' }, /needs --key-env/],
      [{ 'key-env': 'K' }, /--key-env needs --base-url/],
      [{ 'base-url': 'http://127.0.0.1:1', 'key-env': 'K', profile: 'p.json' }, /exclusive/],
      [{ 'base-url': 'ftp://x', 'key-env': 'K' }, /base_url: must be an http\(s\) URL/],
    ];
    for (const [o, re] of cases) {
      let msg = '';
      try {
        profileFromFlags(o, { K: 'pt_test_sk_k1234' });
      } catch (e) {
        msg = (e as Error).message;
      }
      expect(msg, JSON.stringify(o)).toMatch(re);
      expect(msg).not.toContain('leakme');
    }
  });

  it('runs against a service given by URL and key variable; the replay line names the variable, never the key', async () => {
    const out = join(dir, 'flags');
    // The three runs (plain, --strict, --min-must-coverage) side by side: each its own report directory.
    const [r, strict, cov] = await Promise.all([
      cli(['run', '--base-url', ref.url, '--key-env', 'HPS_TEST_KEY', '--rule', 'AUTH-MISSING-KEY,AUTH-REVOKED-KEY', '--seed', '1', '--runs', '5', '--report', out, '--request-timeout', '5000'], { HPS_TEST_KEY: ref.profile.keys.test }),
      cli(['run', '--base-url', ref.url, '--key-env', 'HPS_TEST_KEY', '--rule', 'AUTH-MISSING-KEY,AUTH-REVOKED-KEY', '--seed', '1', '--runs', '5', '--report', join(dir, 'strict'), '--strict'], { HPS_TEST_KEY: ref.profile.keys.test }),
      cli(['run', '--base-url', ref.url, '--key-env', 'HPS_TEST_KEY', '--rule', 'AUTH-MISSING-KEY,AUTH-REVOKED-KEY', '--seed', '1', '--runs', '5', '--report', join(dir, 'cov'), '--min-must-coverage', '60'], { HPS_TEST_KEY: ref.profile.keys.test }),
    ]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`target ${ref.url}`);
    const rep = reportOf(out);
    expect(rep.target.base_url).toBe(ref.url);
    expect(rep.rules.find((x) => x.id === 'AUTH-MISSING-KEY')!.status).toBe('pass');
    // the profile has no test_revoked key: SKIP naming it
    expect(rep.rules.find((x) => x.id === 'AUTH-REVOKED-KEY')!.status).toBe('skip');
    expect(readFileSync(join(out, 'report.json'), 'utf8')).not.toContain(ref.profile.keys.test);
    // --strict turns that skipped testable MUST rule into a failed verdict
    expect(strict.code).toBe(1);
    expect(strict.out).toMatch(/verdict failed --strict: 1 testable MUST rule\(s\) skipped \(AUTH-REVOKED-KEY\)/);
    expect(reportOf(join(dir, 'strict')).verdict).toBe('not_conformant');
    // ...and its junit.xml says so too: a CI dashboard is not green on a job the verdict failed.
    const junit = readFileSync(join(dir, 'strict', 'junit.xml'), 'utf8');
    expect(junit).toContain('<property name="strict" value="true"/>');
    expect(/<testcase [^>]*name="AUTH-REVOKED-KEY"[^>]*>([\s\S]*?)<\/testcase>/.exec(junit)?.[1]).toContain('<failure ');
    expect(cov.code).toBe(1);
    expect(cov.out).toMatch(/--min-must-coverage 60: 1 of 2 testable MUST rules ran \(50 %\)/);
  }, 240_000);
});

describe('progress, fail-fast and CI hooks', () => {
  it('prints a start line, each FAIL with its replay line as it happens, one line per finished area; GitHub summary and annotations', async () => {
    const out = join(dir, 'fault');
    const summary = join(dir, 'step-summary.md');
    writeFileSync(summary, '# earlier step\n');
    const r = await cli(
      ['run', '--area', 'auth,routing', '--fault', 'missing-key-uses-default-key', '--seed', '1', '--runs', '5', '--report', out],
      { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
    );
    expect(r.code).toBe(1);
    const err = r.err.split('\n');
    expect(err[0]).toMatch(/^running \d+ rules in 2 area\(s\)/);
    const fail = err.findIndex((l) => /^FAIL +AUTH-MISSING-KEY — /.test(l));
    expect(fail, r.err).toBeGreaterThan(0);
    expect(err[fail + 1]).toMatch(/replay: (?:npx hps-conformance|hps-conformance|node \S*hps-conformance\.mjs) run --rule AUTH-MISSING-KEY --seed=1 --runs 5 --fault missing-key-uses-default-key/);
    const authDone = err.findIndex((l) => /^auth: \d+ rules done · \d+ FAIL · \d+ requests/.test(l));
    expect(authDone).toBeGreaterThan(fail);
    expect(err.some((l) => /^routing: \d+ rules done/.test(l))).toBe(true);
    const startedAs = String.raw`(?:npx hps-conformance|hps-conformance|node \S*hps-conformance\.mjs)`; // core/invocation.ts
    const annotation = String.raw`^::error title=AUTH-MISSING-KEY::.*%0Areplay: ${startedAs} run --rule AUTH-MISSING-KEY`;
    expect(r.out).toMatch(new RegExp(annotation, 'm'));
    expect(r.out).toContain('NOT A CERTIFICATION: filtered run (--area/--rule); --runs 5 is fewer than the default 100');
    const md = readFileSync(summary, 'utf8');
    expect(md.startsWith('# earlier step\n')).toBe(true);
    expect(md).toContain(readFileSync(join(out, 'summary.md'), 'utf8'));
  }, 180_000);

  it('--max-failures 1 stops the run after the first FAIL rule; the rules not reached say so', async () => {
    const out = join(dir, 'failfast');
    // auth fails at once; webhooks (the other worker's file) waits on the clock rule after rule, so
    // the stop reaches it with most of its rules left however loaded the machine is. (With only
    // fast areas beside auth, a loaded machine ran nearly all of them before the stop arrived.)
    // --time-scale 500: the retry schedule is slower than the default run's, so that margin holds.
    // --concurrency 1: one rule test at a time per worker, so the webhooks rules wait their turn
    // instead of all starting at once (with 8 in flight, most had started before the stop: 4-9 of
    // them left, on a busy machine and with 3 workers).
    const r = await cli(['run', '--area', 'auth,webhooks', '--fault', 'missing-key-uses-default-key', '--time-scale', '500', '--concurrency', '1', '--seed', '1', '--runs', '5', '--report', out, '--max-failures', '1']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/stopped after 1 FAIL rule\(s\) \(--max-failures 1\)/);
    const rep = reportOf(out);
    expect(rep.stopped).toMatch(/--max-failures 1/);
    const notRun = rep.rules.filter((x) => x.reason?.startsWith('not reached: stopped after'));
    expect(notRun.length).toBeGreaterThan(10);
    expect(rep.rules.filter((x) => x.status === 'fail').length).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(readFileSync(join(out, 'certificate.json'), 'utf8')).certification).toBe(false);
  }, 180_000);

  it('--no-progress prints no progress lines', async () => {
    // The same run as test/cli-help.test.ts's NO_COLOR case: made once (support/shared-run.ts).
    const r = await sharedRun(QUIET_ONE_RULE.args, { env: QUIET_ONE_RULE.env, timeoutMs: 120_000 });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
  }, 120_000);
});

describe('--request-timeout', () => {
  it('bounds every request of the suites: a target slower than the limit is a transport ERROR (exit 3), not a wait', async () => {
    // Answers the preflight at once, everything else after 1.5 s.
    const slow = createServer((req, res) => {
      const send = () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[],"has_more":false}');
      if (req.url?.startsWith('/v1/payments?limit=1')) send();
      else setTimeout(send, 1500).unref();
    }).listen(0, '127.0.0.1');
    await new Promise((r) => slow.once('listening', r));
    const url = `http://127.0.0.1:${(slow.address() as { port: number }).port}`;
    try {
      const out = join(dir, 'timeout');
      const started = Date.now();
      const r = await cli(
        [
          'run',
          '--base-url',
          url,
          '--key-env',
          'HPS_TEST_KEY',
          '--rule',
          'AUTH-MISSING-KEY',
          '--seed',
          '1',
          '--runs',
          '1',
          '--report',
          out,
          '--request-timeout',
          '200',
          '--no-progress',
        ],
        { HPS_TEST_KEY: 'pt_test_sk_slowtarget1234' },
      );
      expect(r.code, r.out + r.err).toBe(3);
      const rule = reportOf(out).rules[0]!;
      expect(rule.status).toBe('error');
      expect(rule.reason).toMatch(/tim(e|ed) ?out|deadline/i);
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(readFileSync(join(out, 'report.json'), 'utf8')).not.toContain('slowtarget1234');
    } finally {
      slow.close();
    }
  }, 120_000);
});

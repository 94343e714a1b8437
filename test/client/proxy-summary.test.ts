/**
 * What the proxy prints at its end (issue: the proxy's part): with `--run`, how the application
 * ended and the tail of its output, as `client --run` prints them (an application that stops at
 * once is not "0 exchanges" and nothing else); standalone, no seed and no command it never ran.
 * Every line printed is redacted and inert.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { runProxy } from '../../merchant/client/proxy-run.ts';
import { startStandaloneProxy } from '../support/standalone-proxy.ts';

async function proxyRun(run: string, env: Record<string, string> = {}) {
  const lines: string[] = [];
  const reportDir = mkdtempSync(join(tmpdir(), 'hps-proxy-sum-'));
  const result = await runProxy({ run, env, reportDir, log: (l) => lines.push(l), live: () => {} });
  return { result, lines };
}

describe('proxy --run: the application\'s end is printed', () => {
  it('an application that exits 2 at once: its exit status and its message, not only "0 exchanges"', async () => {
    const { result, lines } = await proxyRun('echo starting; echo "HPS_API_KEY is not set" >&2; exit 2');
    expect(lines.some((l) => /^command: exit 2 after \d+\.\d s · 0 requests through the proxy$/.test(l))).toBe(true);
    expect(lines).toContain('  | HPS_API_KEY is not set');
    expect(result.exitCode).toBe(6);
  }, 60_000);

  it('a failing test command: the last line of its output shown, redacted and free of control characters', async () => {
    const key = 'pt_test_sk_Zq8Jm2Rr5Tt7Uu9Ww1Yy3Aa5';
    const { lines } = await proxyRun(
      'for i in $(seq 1 200); do echo "test $i ok"; done; printf "key %s \\033]0;title\\007\\n" "$APP_KEY"; ' +
        'echo "3 tests FAILED; exit 1"; exit 1',
      { APP_KEY: key, HPS_API_KEY: key },
    );
    expect(lines.some((l) => /^command: exit 1 after \d+\.\d s · 0 requests through the proxy$/.test(l))).toBe(true);
    expect(lines).toContain('  | 3 tests FAILED; exit 1');
    const all = lines.join('\n');
    expect(all).not.toContain(key.slice('pt_test_sk_'.length, 'pt_test_sk_'.length + 12));
    expect(all).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
  }, 60_000);
});

describe('the standalone proxy (no --run)', () => {
  it('says no seed and no command count, and no line repeats itself', async () => {
    const proxy = await startStandaloneProxy({ reportDir: mkdtempSync(join(tmpdir(), 'hps-proxy-sum-')) });
    await (await request(`${proxy.url}/v1/payments?limit=1`)).body.text();
    await proxy.stop();
    const lines = proxy.lines;
    const all = lines.join('\n');
    expect(all).not.toMatch(/seed/);
    expect(all).not.toMatch(/from the command|^command:/m);
    expect(lines.filter((l) => l.startsWith('client run: ') || l.startsWith('service run: '))).toEqual([
      expect.stringMatching(/; 1 requests through the proxy$/),
      expect.stringMatching(/; 1 requests through the proxy$/),
    ]);
    for (const l of lines) expect((l.match(/unsigned/g) ?? []).length, l).toBeLessThan(2);
  }, 60_000);
});

/**
 * No vacuous pass: against a target that never delivers a webhook, no HOOK-* rule passes; against a
 * target whose list is always empty, no LIST-* rule passes. Each is the embedded reference with a
 * planted negative-control fault (references/service/faults: webhooks-never-sent, list-always-empty); a rule
 * that checked nothing must be SKIP with its reason, or FAIL where the spec says the thing must exist.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES } from '../catalogue/index.ts';
import type { Report } from '../catalogue/report/model.ts';

const BIN = join(import.meta.dirname, '..', 'bin', 'hps-conformance.mjs');

/** One scoped run against the embedded reference with `fault`; resolves with its report. */
function runWithFault(scope: string[], fault: string): Promise<{ code: number | null; report: Report; output: string }> {
  const area = scope.join('-').slice(0, 40);
  const dir = mkdtempSync(join(tmpdir(), `hps-vacuous-`));
  const child = spawn(
    process.execPath,
    [BIN, 'run', ...scope, '--fault', fault, '--seed', '20261121', '--runs', '5', '--report', dir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (b) => (output += b));
  child.stderr.on('data', (b) => (output += b));
  const killer = setTimeout(() => child.kill('SIGKILL'), 400_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      try {
        resolve({ code, report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report, output });
      } catch (e) {
        reject(new Error(`no report from the ${area} run (exit ${code}): ${output.slice(-2000)} ${String(e)}`));
      }
    });
  });
}

function table(report: Report, prefix: string): string[] {
  return report.rules.filter((r) => r.id.startsWith(prefix)).map((r) => `${r.id} ${r.status}${r.reason ? `: ${r.reason.slice(
    0,
    120,
  )}` : ''}`);
}

/**
 * The webhooks area against a target that never delivers: every rule waits out its bounded delivery
 * window, so the area runs as three runs side by side (its rules dealt round-robin), one report.
 */
async function webhooksNeverSent(): Promise<{ code: number | null; report: Report; output: string }> {
  const ids = RULES.filter((r) => r.area === 'webhooks' && !('untestable' in r)).map((r) => r.id);
  const groups = [0, 1, 2].map((g) => ids.filter((_, i) => i % 3 === g));
  const runs = await Promise.all(groups.map((g) => runWithFault(g.flatMap((id) => ['--rule', id]), 'webhooks-never-sent')));
  const report = { ...runs[0]!.report, rules: runs.flatMap((r) => r.report.rules) };
  return { code: Math.max(...runs.map((r) => r.code ?? 99)), report, output: runs.map((r) => r.output).join('\n') };
}

describe('no vacuous pass', () => {
  // All runs start together: the webhooks ones wait out bounded delivery windows.
  const hooks = webhooksNeverSent();
  const lists = runWithFault(['--area', 'listing'], 'list-always-empty');

  it('against a target that never delivers a webhook, no HOOK-* rule passes', async () => {
    const { code, report, output } = await hooks;
    const rows = table(report, 'HOOK-');
    expect(rows.length, output).toBeGreaterThan(10);
    expect(rows.filter((r) => / pass/.test(r)), rows.join('\n')).toEqual([]);
    // Deliveries the spec says must happen are failures, not skips.
    const status = (id: string) => report.rules.find((r) => r.id === id)?.status;
    expect(status('HOOK-AT-LEAST-ONCE'), rows.join('\n')).toBe('fail');
    expect(status('HOOK-EVENT-CREATED'), rows.join('\n')).toBe('fail');
    // What could not be observed is SKIP with its reason, never "0 checks" in silence.
    for (const r of report.rules.filter((x) => x.id.startsWith('HOOK-') && x.status === 'skip')) expect(r.reason, r.id).toBeTruthy();
    expect(code).toBe(1);
  }, 420_000);

  it('against a target whose list is always empty, no LIST-* rule passes', async () => {
    const { code, report } = await lists;
    const rows = table(report, 'LIST-');
    expect(rows.length).toBeGreaterThan(8);
    expect(rows.filter((r) => / pass/.test(r)), rows.join('\n')).toEqual([]);
    expect(
      report.rules.filter((r) => r.id.startsWith('LIST-') && r.level === 'MUST' && r.status !== 'fail').map((r) => r.id),
      rows.join('\n'),
    ).toEqual([]);
    expect(code).toBe(1);
  }, 420_000);
});

/**
 * Exit 6 (`incomplete`: nothing failed, a testable MUST rule not proven) through the command line,
 * on every side: the service side's `webhooks judge` on a sink log with no delivery (before:
 * "conformant", exit 0), a receiver run without its inspection (before: not_conformant, exit 1) and
 * a client command that made no request (before: not_conformant, exit 1); `report DIR` re-rendering
 * an incomplete report says 6 again.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.ts';
import { startReferenceReceiver } from '../../references/receiver/server.ts';
import type { Report } from '../../catalogue/report/model.ts';

const SECRET = 'whsec_test_exit_six_0123456789abcd';
const verdictIn = (dir: string) => (JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report).verdict;

describe('exit 6 through the CLI on each side', () => {
  it('service side: webhooks judge on a sink log that holds no delivery is incomplete (exit 6), and `report DIR` says 6 again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hps-exit6-'));
    const log = join(dir, 'sink.log');
    writeFileSync(log, `${JSON.stringify({ line: 'start', at: 1, pid: 1, endpoints: [] })}\n`);
    const out = join(dir, 'judged');
    expect(await main(['webhooks', 'judge', '--log', log, '--report', out])).toBe(6);
    expect(verdictIn(out)).toBe('incomplete');
    expect(await main(['report', out])).toBe(6);
  });

  it('receiver side: a correct receiver run without inspect_url (four MUST rules not proven) is incomplete, exit 6', async () => {
    process.env.HPS_TEST_EXIT6_SECRET = SECRET;
    const receiver = await startReferenceReceiver({ secret: SECRET });
    try {
      const out = mkdtempSync(join(tmpdir(), 'hps-exit6-recv-'));
      expect(await main([
        'receiver',
        '--url',
        receiver.url,
        '--secret-env',
        'HPS_TEST_EXIT6_SECRET',
        '--seed',
        '3',
        '--dedup-time-scale',
        '60',
        '--report',
        out,
      ])).toBe(6);
      expect(verdictIn(out)).toBe('incomplete');
    } finally {
      await receiver.close();
    }
  }, 120_000);

  it('client side: a command that made no request is incomplete, exit 6', async () => {
    const out = mkdtempSync(join(tmpdir(), 'hps-exit6-client-'));
    expect(await main(['client', '--run', `"${process.execPath}" -e "process.exit(0)"`, '--seed', '1', '--report', out])).toBe(6);
    expect(verdictIn(out)).toBe('incomplete');
  }, 120_000);
});

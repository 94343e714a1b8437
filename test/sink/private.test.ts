/**
 * The sink is private by default (issue 11): log files 0600 in a private directory, log trouble
 * named by the log file (not webhooks.listen), and the standalone sink refusing a non-loopback
 * address without a token in one line (exit 2).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sinkStartError, startTarget } from '../../service/harness/main/embedded.ts';
import { startSink } from '../../service/sink/index.ts';
import { ENDPOINTS, startTestSink, tempDir } from './helpers.ts';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'hps-conformance.mjs');

describe('a private sink', () => {
  it('creates its log 0600, and a run keeps it in a 0700 directory of its own', async () => {
    const temp = tempDir();
    try {
      const sink = await startTestSink(temp.dir, { logFile: join(temp.dir, 'new', 'sink.jsonl') });
      await sink.close();
      expect(statSync(sink.logFile).mode & 0o777).toBe(0o600);
      expect(statSync(join(temp.dir, 'new')).mode & 0o777).toBe(0o700);
      const target = await startTarget({ needSink: true });
      try {
        expect(statSync(target.sinkLogFile!).mode & 0o777).toBe(0o600);
        expect(statSync(dirname(target.sinkLogFile!)).mode & 0o777).toBe(0o700);
        expect(basename(dirname(target.sinkLogFile!))).toMatch(/^hps-conformance-\w{6}$/);
        expect(target.sinkToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
      } finally {
        await target.close();
      }
    } finally {
      temp.remove();
    }
  });

  it('names the log file when the log is the trouble, never webhooks.listen', async () => {
    const temp = tempDir();
    try {
      const logFile = join(temp.dir, 'is-a-dir.jsonl');
      mkdirSync(logFile);
      const e = await startSink({ listen: '127.0.0.1:0', endpoints: ENDPOINTS, logFile }).catch((x: unknown) => x);
      expect(e).toMatchObject({ code: 'SINK_LOG' });
      const h = sinkStartError(e, '127.0.0.1:0');
      expect(h.message).toContain(logFile);
      expect(h.message).not.toContain('webhooks.listen');
      expect(h.exitCode).toBe(2);
    } finally {
      temp.remove();
    }
  });

  it('the standalone sink refuses 0.0.0.0 without a token: one line, exit 2', () => {
    const temp = tempDir();
    try {
      const profile = join(temp.dir, 'p.json');
      writeFileSync(
        profile,
        JSON.stringify({
          base_url: 'http://127.0.0.1:1',
          keys: { test: 'pt_test_sk_x1234567' },
          webhooks: { listen: '0.0.0.0:0', endpoints: [{ path: '/h', livemode: false, events: '*', secret: 'whsec_abcdefabcdef' }] },
        }),
      );
      const r = spawnSync(process.execPath, [BIN, 'sink', '--profile', profile, '--log', join(temp.dir, 'l.jsonl')], { encoding: 'utf8', timeout: 30_000 });
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/refusing to listen on 0\.0\.0\.0:0 \(not loopback\) without a query token/);
    } finally {
      temp.remove();
    }
  });
});

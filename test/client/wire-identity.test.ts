/**
 * Merchant evidence from the wire (issue 30, item 2): a client that never retries a list read
 * after a 429 or a time-out, whose next flow lists the same path after a create. A 30 s "same path"
 * window credited that next list as the retry (CLIENT-RETRY-TRANSIENT passed) and judged
 * CLIENT-HONOUR-RETRY-AFTER on it (failed when it came soon, passed when it came late). Identity
 * from the wire: another request in between makes it another read, so the read rule fails and
 * Retry-After is judged on no list. Seed 7 puts a 429 (Retry-After: 3) on the first list.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runClient } from '../../merchant/client/run.ts';
import { PACKAGE_ROOT } from '../../core/package-root.ts';

const COMMAND = 'node --import tsx test/fixtures/clients/list-never-retried.ts';

async function judged(gap: 'none' | 'after-retry-after') {
  const { report } = await runClient({
    command: COMMAND,
    seed: 7,
    cwd: PACKAGE_ROOT,
    log: () => {},
    timeoutMs: 150_000,
    reportDir: mkdtempSync(join(tmpdir(), 'hps-wire-')),
    env: { LIST_GAP: gap },
  });
  return (id: string) => report.rules.find((r) => r.id === id)!;
}

describe('a list read never retried, the next flow listing the same path after a create', () => {
  it('fails CLIENT-RETRY-TRANSIENT on the list, however soon or late the next list comes; Retry-After is judged on no list', async () => {
    const [soon, late] = await Promise.all([judged('none'), judged('after-retry-after')]);
    for (const rule of [soon, late]) {
      const retry = rule('CLIENT-RETRY-TRANSIENT');
      expect(retry.status).toBe('fail');
      expect(retry.reason).toMatch(/^#1 GET \/v1\/payments: met 429 rate_limit_exceeded, Retry-After: 3 \(injected\) and was never retried; #\d+ was sent \d+ ms after #\d+ was answered on the same path after #2 POST \/v1\/payments \(another operation in between\): the next read, not this one's retry/);
      const honour = rule('CLIENT-HONOUR-RETRY-AFTER');
      expect(honour.status, honour.reason).not.toBe('fail');
      expect(JSON.stringify(honour)).not.toContain('GET /v1/payments');
    }
  }, 200_000);
});

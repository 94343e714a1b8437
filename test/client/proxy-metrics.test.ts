/**
 * `proxy --metrics-port` (merchant/client/proxy-metrics.ts): the endpoint, on loopback, counts the
 * exchanges relayed by operation and status and observes their latency, and carries no key (a
 * request's Authorization never reaches a label).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProxy } from '../../merchant/client/proxy-run.ts';
import { parsePromText, sumBy } from '../support/prom-text.ts';

const KEY = 'pt_test_sk_metricsNeverShowThisKey0001';

describe('proxy --metrics-port', () => {
  it('counts the exchanges by operation and status, their latency, and no key', async () => {
    const lines: string[] = [];
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    let seen!: () => void;
    const started = new Promise<void>((r) => (seen = r));
    const run = runProxy({
      reportDir: mkdtempSync(join(tmpdir(), 'hps-proxy-metrics-')),
      metrics: { port: 0 },
      log: (l) => {
        lines.push(l);
        if (l.startsWith('metrics: http://127.0.0.1:')) seen();
      },
      live: () => {},
      stop: stopped,
    });
    try {
      await Promise.race([started, run]);
      const origin = /^hps-conformance proxy: (http:\/\/127\.0\.0\.1:\d+)/.exec(lines.join('\n'))![1]!;
      const endpoint = /^metrics: (http:\/\/127\.0\.0\.1:\d+)\/metrics/m.exec(lines.join('\n'))![1]!;
      const auth = { authorization: `Bearer ${KEY}` };
      for (let i = 0; i < 3; i++) await (await fetch(`${origin}/v1/payments/pay_${i}`, { headers: auth })).text();
      await (await fetch(`${origin}/v1/payments`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{}' }))
        .text();
      const text = await (await fetch(`${endpoint}/metrics`)).text();
      const samples = parsePromText(text);
      const exchanges = sumBy(samples, 'hps_proxy_exchanges_total', ['operation', 'status']);
      expect(Object.values(exchanges).reduce((a, b) => a + b, 0)).toBe(4);
      expect(sumBy(samples, 'hps_proxy_exchanges_total', ['operation'])).toEqual({ read: 3, create: 1 });
      expect(sumBy(samples, 'hps_proxy_exchange_duration_seconds_count', ['operation'])).toEqual({ read: 3, create: 1 });
      for (const s of samples) expect(s.labels.tool).toBe('hps-conformance');
      expect(text).not.toContain(KEY);
      expect(text).not.toMatch(/pt_(test|live)_sk_/);
      expect((await fetch(`${endpoint}/other`)).status).toBe(404);
    } finally {
      stop();
      await run;
    }
  }, 60_000);
});

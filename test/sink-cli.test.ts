/**
 * `hps-conformance sink --profile` run alone keeps its log across a restart:
 * a delivery recorded by one process is served by the next.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../service/harness/main/embedded.ts';

const BIN = join(import.meta.dirname, '..', 'bin', 'hps-conformance.mjs');
const children: ChildProcess[] = [];
const TOKEN = 'sink-cli-test-token-0123456789';
afterEach(() => children.splice(0).forEach((c) => c.kill('SIGKILL')));

async function startSink(profile: string, log: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [BIN, 'sink', '--profile', profile, '--log', log, '--query-token', TOKEN], { stdio: 'ignore' });
  children.push(child);
  for (let i = 0; i < 120; i++) {
    try {
      const r = await request(`http://127.0.0.1:${port}/_sink/health`, { headers: { authorization: `Bearer ${TOKEN}` } });
      await r.body.dump();
      if (r.statusCode === 200) return child;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('sink did not come up');
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

describe('hps-conformance sink (standalone)', () => {
  it('keeps its log across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hps-sink-'));
    const port = await freePort();
    const secret = 'whsec_restartsecret';
    const profile = join(dir, 'p.json');
    writeFileSync(
      profile,
      JSON.stringify({
        base_url: 'http://127.0.0.1:1',
        keys: { test: 'pt_test_sk_x1234' },
        webhooks: { listen: `127.0.0.1:${port}`, endpoints: [{ path: '/hooks/a', livemode: false, events: '*', secret }] },
      }),
    );
    const log = join(dir, 'log.jsonl');

    const first = await startSink(profile, log, port);
    const now = new Date().toISOString();
    const body = JSON.stringify({
      id: 'evt_restart',
      object: 'event',
      api_version: 'v1',
      type: 'payment.created',
      livemode: false,
      created_at: now,
      data: { object: {
        id: 'pay_restart',
        object: 'payment',
        livemode: false,
        status: 'PENDING',
        amount: '1.00',
        currency: 'BDT',
        created_at: now,
        metadata: {},
      } },
    });
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    const sent = await request(`http://127.0.0.1:${port}/hooks/a`, { method: 'POST', body, headers: { 'content-type': 'application/json', 'service-signature': `t=${t},v1=${v1}`, 'service-event-id': 'evt_restart', 'user-agent': 'Service-Webhooks/1.0' } });
    await sent.body.dump();
    expect(sent.statusCode).toBe(200);
    await stop(first);

    await startSink(profile, log, port);
    const q = await request(
      `http://127.0.0.1:${port}/_sink/deliveries?payment_id=pay_restart`,
      { headers: { authorization: `Bearer ${TOKEN}` } },
    );
    const { deliveries } = (await q.body.json()) as { deliveries: Array<{ event: { id: string }; signature: { valid: boolean }; bodySha256: string }> };
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]!.event.id).toBe('evt_restart');
    expect(deliveries[0]!.signature.valid).toBe(true);
  }, 90_000);
});

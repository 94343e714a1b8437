/**
 * The validating proxy (`hps-conformance proxy`) on real traffic: the example merchant client runs
 * through it to the chaos server and the reference server behind it (so the service's answers
 * include the failures the client guidance speaks of). Clean, the application is conformant on
 * every client MUST rule; with planted faults (ignores Retry-After, retries a cancel after a 500,
 * re-sends a 400) exactly those rules fail. traffic.har is HAR 1.2 (validated with ajv against a
 * schema written from the spec, test/fixtures/har/), carries no key, and parses in real Chromium.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; under NodeNext its default export is the module object (as in catalogue/schemas/ajv.ts).
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
import { launchChromium } from '../support/chromium.ts';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOOKS_PATH, startChaosServer, type ChaosServer } from '../../merchant/client/chaos-server.ts';
import { EXAMPLE_CLIENT_COMMAND } from '../../merchant/client/mutation.ts';
import { runProxy } from '../../merchant/client/proxy-run.ts';
import { PACKAGE_ROOT } from '../../core/package-root.ts';
import type { Report } from '../../catalogue/report/model.ts';
import { startReferenceServer, type RunningReference } from '../../core/targets/reference-server.ts';

interface Upstream {
  chaos: ChaosServer;
  reference: RunningReference;
}

async function chaosUpstream(seed: number): Promise<Upstream> {
  const chaos = await startChaosServer(seed);
  const reference = await startReferenceServer({ webhookBaseUrl: `${chaos.url}${HOOKS_PATH}` });
  chaos.setUpstream(reference.url);
  // The proxy checks its upstream with one read before relaying (exit 3 when it fails): seed 4's first planned read failure, a reset,
  // is met here, as a staging answering the check badly would be, so that the check meets the next one (a 503 in the API's envelope).
  await request(`${chaos.url}/v1/payments?limit=1`).then((r) => r.body.text(), () => undefined);
  return { chaos, reference };
}

async function throughProxy(u: Upstream, fault?: string) {
  const dir = mkdtempSync(join(tmpdir(), 'hps-proxy-'));
  const env: Record<string, string> = { HPS_API_KEY: u.reference.profile.keys.test, ...(fault ? { HPS_CLIENT_FAULT: fault } : {}) };
  const result = await runProxy({
    upstream: u.chaos.url,
    run: EXAMPLE_CLIENT_COMMAND,
    cwd: PACKAGE_ROOT,
    env,
    reportDir: dir,
    log: () => {},
    live: () => {},
  });
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
  return { dir, result, report, status: (id: string) => report.rules.find((r) => r.id === id)!.status };
}

const upstreams: Upstream[] = [];
afterAll(async () => {
  for (const u of upstreams) {
    await u.reference.close();
    await u.chaos.close();
  }
});

describe('proxy: the example merchant client', () => {
  let clean: Awaited<ReturnType<typeof throughProxy>>;
  let key: string;
  beforeAll(async () => {
    const u = await chaosUpstream(4);
    upstreams.push(u);
    key = u.reference.profile.keys.test;
    clean = await throughProxy(u);
  }, 120_000);

  it('is conformant: every testable client MUST rule exercised by the relayed failures, and passed', () => {
    expect(clean.report.side).toBe('client');
    for (const r of clean.report.rules.filter((x) => x.level === 'MUST' && !x.untestable)) expect(
      r.status,
      `${r.id}: ${r.reason}`,
    ).toBe('pass');
    expect(clean.report.verdict).toBe('conformant');
    expect(clean.result.exitCode).toBe(0);
    const service = JSON.parse(readFileSync(join(clean.dir, 'service', 'report.json'), 'utf8')) as Report;
    expect(service.side).toBe('service');
    expect(service.rules.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([]);
    expect(service.rules.find((r) => r.id === 'RESP-ERROR-ENVELOPE')!.status).toBe('pass');
  });

  it('writes traffic.har: HAR 1.2 by its schema, one entry per exchange, no key in any form', () => {
    const text = readFileSync(join(clean.dir, 'traffic.har'), 'utf8');
    const har = JSON.parse(text);
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(join(PACKAGE_ROOT, 'test/fixtures/har/har-1.2.schema.json'), 'utf8')));
    expect(validate(har), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    expect(har.log.entries.length).toBe(clean.result.exchanges);
    expect(clean.result.exchanges).toBeGreaterThan(30);
    expect(text).not.toContain(key);
    expect(text).not.toContain(key.slice('pt_test_sk_'.length, 'pt_test_sk_'.length + 12));
    expect(har.log.entries.some((e: any) => e.response.status === 0 && typeof e._error === 'string')).toBe(true);
    expect(har.log.entries.some((e: any) => e.response.status === 429)).toBe(true);
  });

  it('opens in real Chromium: the page parses it and reads its entries', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`file://${join(clean.dir, 'traffic.har')}`);
      const seen = await page.evaluate(() => {
        const log = JSON.parse(document.body.innerText).log;
        return { version: log.version, entries: log.entries.length, methods: [...new Set(log.entries.map((e: any) => e.request.method))].sort() };
      });
      expect(seen).toEqual({ version: '1.2', entries: clean.result.exchanges, methods: ['GET', 'POST'] });
    } finally {
      await browser.close();
    }
  }, 60_000);
});

describe('proxy: a client that breaks the guidance', () => {
  it('is not conformant, with the rules its faults break failing and no other', async () => {
    const u = await chaosUpstream(4);
    upstreams.push(u);
    const broken = await throughProxy(u, 'ignores-retry-after,retries-cancel-on-500,retries-400');
    expect(broken.report.verdict).toBe('not_conformant');
    expect(broken.result.exitCode).toBe(1);
    for (const id of [
      'CLIENT-HONOUR-RETRY-AFTER',
      'CLIENT-CANCEL-RETRY-ONLY-429',
      'CLIENT-NO-RETRY-4XX',
    ]) expect(broken.status(id), id).toBe('fail');
    for (const id of ['CLIENT-RETRY-TRANSIENT', 'CLIENT-SAME-IDEMPOTENCY-KEY']) expect(broken.status(id), id).toBe('pass');
    const honour = broken.report.rules.find((r) => r.id === 'CLIENT-HONOUR-RETRY-AFTER')!;
    expect(honour.reason).toMatch(/retried \d+ ms after a 429 with Retry-After: [2-5]/);
  }, 120_000);
});

/**
 * The merchant-side commands on the code merchants write: webhook receivers on express and fastify
 * (raw body kept, and parsed then re-serialised; a hand-written HMAC check and stripe's
 * webhooks.constructEvent, which implements this very scheme), and API clients on axios +
 * axios-retry, got and ky (their documented retry options set after the spec's guidance, and
 * their defaults) and hand-written ones. Each gets the verdict the spec gives it; the test name
 * says why. (test/merchant/real/ holds the merchant code.)
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/package-root.ts';
import { runClient } from '../../merchant/client/run.ts';
import { runReceiver } from '../../merchant/receiver/run.ts';
import { MUTATION_DEDUP } from '../../merchant/receiver/mutation.ts';
import type { Report } from '../../catalogue/report/model.ts';
import { startApp, type ReceiverApp } from './real/receivers/apps.ts';

const SECRET = 'whsec_real_library_receivers_0123456789';
const broken = (r: Report) => r.rules.filter((x) => ['fail', 'warn', 'error'].includes(x.status)).map((x) => x.id).sort();

describe('stripe implements this signature scheme', () => {
  it('webhooks.constructEvent accepts the published vector under Service-Signature\'s t=…,v1=… and refuses a changed byte', () => {
    // The published stripe-dotnet vector (test/sink/vectors/README.md): computed by others.
    const body = readFileSync(new URL('../sink/vectors/stripe-dotnet-event_test_signature.json', import.meta.url));
    const header = 't=1533204620,v1=2220f87ef101a04665f11cdf770523143f875572008577fa0f20882ddb9cc3c7';
    const stripe = new Stripe('sk_test_unused');
    // Tolerance: the vector's t is from 2018; the scheme, not the window, is under test here.
    expect((stripe.webhooks.constructEvent(body, header, 'webhook_secret', 1e10) as { id?: string }).id).toBeTypeOf('string');
    const changed = Buffer.from(body);
    changed[10] = changed[10]! ^ 1;
    expect(() => stripe.webhooks.constructEvent(changed, header, 'webhook_secret', 1e10)).toThrow();
  });
});

const RECEIVERS: Array<[ReceiverApp, string[], string]> = [
  ['express-raw-handwritten', [], 'conformant: express.raw() keeps the signed bytes, timingSafeEqual over hex'],
  ['fastify-raw-stripe', [], 'conformant: a Buffer parser and stripe\'s constructEvent with the Service-Signature value'],
  [
    'express-json-reserialised',
    ['RECV-RAW-BODY'],
    'fails RECV-RAW-BODY: express.json() then JSON.stringify(req.body) is not the bytes signed',
  ],
  ['fastify-parsed-stripe', ['RECV-RAW-BODY'], 'fails RECV-RAW-BODY: stripe fed fastify\'s parsed body re-serialised'],
  [
    'express-stores-before-verify',
    ['RECV-REJECTED-NOT-PROCESSED'],
    'fails RECV-REJECTED-NOT-PROCESSED: answers 400 but has stored the forged status',
  ],
];

describe.concurrent('receivers on real frameworks', () => {
  for (const [name, expected, why] of RECEIVERS) {
    it(`${name}: ${why}`, async () => {
      const app = await startApp(name, SECRET);
      try {
        const { report, exitCode } = await runReceiver({
          url: app.url,
          secret: SECRET,
          inspectUrl: app.inspectUrl,
          seed: 21,
          reportDir: mkdtempSync(join(tmpdir(), 'hps-real-recv-')),
          replayBase: name,
          log: () => {},
          dedup: MUTATION_DEDUP,
        });
        expect(broken(report)).toEqual(expected);
        expect(report.verdict).toBe(expected.length ? 'not_conformant' : 'conformant');
        expect(exitCode).toBe(expected.length ? 1 : 0);
      } finally {
        await app.close();
      }
    }, 60_000);
  }
});

const CLIENTS: Array<[string, string[], string]> = [
  ['axios-retry-documented', [], 'conformant: retryCondition after the guidance, exponentialDelay honours Retry-After'],
  ['got-documented', [], 'conformant: POST in retry.methods, maxRetryAfter raised, cancel retried on 429 only'],
  ['ky-documented', [], 'conformant: POST in retry.methods, cancel\'s shouldRetry undefined on 429 (ky keeps Retry-After)'],
  [
    'axios-retry-defaults',
    ['CLIENT-CANCEL-RETRY-ONLY-429', 'CLIENT-RETRY-TRANSIENT'],
    'not conformant: a POST answered 503 is never retried, a cancel is retried after a reset',
  ],
  ['got-defaults', ['CLIENT-RETRY-TRANSIENT'], 'not conformant: POST is not in got\'s default retry methods'],
  ['ky-defaults', ['CLIENT-RETRY-TRANSIENT'], 'not conformant: POST is not in ky\'s default retry methods'],
  ['ky-should-retry-true', ['CLIENT-HONOUR-RETRY-AFTER'], 'not conformant: shouldRetry answering true skips ky\'s Retry-After handling'],
  ['fetch-no-retry', ['CLIENT-RETRY-TRANSIENT'], 'not conformant: hand-written fetch that never retries'],
];

describe.concurrent('clients on real HTTP libraries', () => {
  for (const [name, expected, why] of CLIENTS) {
    it(`${name}: ${why}`, async () => {
      const { report, exitCode } = await runClient({
        command: `node --import tsx test/merchant/real/clients/${name}.ts`, seed: 4, cwd: PACKAGE_ROOT, log: () => {}, timeoutMs: 90_000,
        reportDir: mkdtempSync(join(tmpdir(), 'hps-real-client-')),
      });
      expect(report.command?.exit_code, report.command?.output_tail).toBe(0);
      expect(broken(report)).toEqual(expected);
      expect(exitCode).toBe(1 - Number(expected.length === 0 && report.verdict === 'conformant'));
    }, 150_000);
  }
});

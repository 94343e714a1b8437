/**
 * The receiver command against the reference receiver: conformant when clean, every planted
 * receiver fault caught by a rule it declares; the probe table checked against the sink's strict
 * verifier (the tool's own forgeries really are forgeries, its valid deliveries really valid).
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rulesOfSide } from '../../catalogue/index.ts';
import { main } from '../../cli/main.ts';
import { parseProfile, profileSecrets } from '../../core/profile.ts';
import { MUTATION_DEDUP, receiverMutation, runAgainstReference } from '../../merchant/receiver/mutation.ts';
import { parseInspection } from '../../merchant/receiver/inspect.ts';
import { eventIds } from '../../merchant/receiver/events.ts';
import { PROBES, type ProbeKit } from '../../merchant/receiver/probes.ts';
import { runReceiver } from '../../merchant/receiver/run.ts';
import { RECEIVER_FAULTS } from '../../merchant/receiver/faults.ts';
import { startReferenceReceiver } from '../../references/receiver/server.ts';
import { verifySignature } from '../../service/sink/verify-signature.ts';
import { invokedAs } from '../../core/invocation.ts';

const SECRET = 'whsec_test_merchant_side_0123456789';

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

describe('receiver probes', () => {
  const kit: ProbeKit = { secret: SECRET, ids: eventIds(), now: () => 1_900_000_000, pick: () => 2 };
  for (const probe of PROBES) {
    it(`${probe.rule}: ${probe.name} is ${probe.expect === 'reject' ? 'invalid' : 'valid'} for a strict verifier`, () => {
      const { delivery } = probe.build(kit);
      const verdict = verifySignature({ header: delivery.signature, rawBody: delivery.body, secrets: [SECRET], nowSeconds: 1_900_000_000 });
      if (probe.expect === 'reject') expect(verdict.valid).toBe(false);
      if (probe.expect === 'ack') expect(verdict.valid).toBe(true);
      if (probe.expect !== 'reject') expect(() => JSON.parse(delivery.body.toString('utf8'))).not.toThrow();
    });
  }

  it('covers every exercisable receiver rule', () => {
    const covered = new Set<string>([
      ...PROBES.map((p) => p.rule),
      'RECV-DEDUPLICATE',
      'RECV-ARRIVAL-ORDER',
      'RECV-EVENT-STORIES',
      'RECV-FULFIL-ON-PAID',
      'RECV-REJECTED-NOT-PROCESSED',
      'RECV-RESPONSE-TIME',
    ]);
    expect(rulesOfSide('receiver').filter((r) => !r.untestable && !covered.has(r.id)).map((r) => r.id)).toEqual([]);
  });

  it('declares receiver faults against receiver rules only', () => {
    const ids = new Set(rulesOfSide('receiver').map((r) => r.id));
    for (const f of Object.values(RECEIVER_FAULTS)) for (const id of f.breaks) expect(ids.has(id)).toBe(true);
  });

  it('reads only inspections that follow the contract', () => {
    expect(parseInspection('{"events":{},"fulfilled":{},"payments":{}}').ok).toBe(true);
    expect(parseInspection('{"events":{"e":"1"},"fulfilled":{},"payments":{}}').ok).toBe(false);
    expect(parseInspection('{"events":{},"fulfilled":{}}').ok).toBe(false);
    expect(parseInspection('nope').ok).toBe(false);
  });
});

describe('receiver command against the reference receiver', () => {
  it('finds the clean reference receiver conformant, every exercisable rule run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hps-recv-test-'));
    const report = await runAgainstReference([], 7, dir, undefined, undefined, { dedup: MUTATION_DEDUP });
    expect(report.side).toBe('receiver');
    expect(report.verdict).toBe('conformant');
    for (const r of report.rules) expect(
      r.untestable ? 'skip' : r.status,
      r.id,
    ).toBe(r.untestable ? 'skip' : r.level === 'OBSERVE' ? 'info' : 'pass');
    expect(report.must.ran).toBe(report.must.testable);
    expect(existsSync(join(dir, 'report.html'))).toBe(true);
    const time = report.rules.find((r) => r.id === 'RECV-RESPONSE-TIME')!;
    // The probes, the deduplication scenario (a first delivery and 3 redeliveries), the out-of-order pair and the 6 stories' 14 events.
    expect(Object.keys((time.observed as { per_delivery_ms: object }).per_delivery_ms).length).toBe(PROBES.length + 4 + 2 + 14);
  });

  it('skips the processing rules naming inspect_url when none is given, and is then "incomplete" (exit 6: nothing failed, not proven), never "conformant" unless --min-must-coverage accepts it', async () => {
    const receiver = await startReferenceReceiver({ secret: SECRET });
    try {
      const lines: string[] = [];
      const run = (policy?: { strict?: boolean; minMustCoverage?: number }) => runReceiver({
        url: receiver.url,
        secret: SECRET,
        seed: 3,
        reportDir: mkdtempSync(join(tmpdir(), 'hps-recv-test-')),
        replayBase: 'x',
        log: (l) => lines.push(l),
        policy,
      });
      const { report, exitCode } = await run();
      const processing = [
        'RECV-DEDUPLICATE', 'RECV-ARRIVAL-ORDER', 'RECV-EVENT-STORIES', 'RECV-FULFIL-ON-PAID', 'RECV-REJECTED-NOT-PROCESSED',
      ];
      for (const id of processing) {
        const r = report.rules.find((x) => x.id === id)!;
        expect(r.status).toBe('skip');
        expect(r.reason).toMatch(/inspect_url/);
      }
      expect(report.verdict).toBe('incomplete');
      expect(exitCode).toBe(6);
      expect(report.policy).toBeUndefined();
      expect(report.incomplete_because).toHaveLength(5);
      expect(report.incomplete_because![0]).toMatch(/^RECV-[A-Z-]+ not proven \(SKIP\): no receiver.inspect_url/);
      expect(lines.join('\n')).toContain('verdict: incomplete');
      expect(lines.join('\n')).toMatch(/ {2}NOT PROVEN RECV-[A-Z-]+ not proven \(SKIP\): no receiver.inspect_url/);
      expect(lines.join('\n')).toMatch(/receiver run: \d+ of \d+ testable MUST rules ran \(\d+ passed, 0 failed, 5 skipped\)/);
      expect(lines.join('\n')).toMatch(/NOT TESTABLE RECV-CONSTANT-TIME-COMPARE/);
      const lowered = await run({ minMustCoverage: 50 });
      expect(lowered.report.verdict).toBe('conformant');
      expect(lowered.exitCode).toBe(0);
      const strict = await run({ strict: true, minMustCoverage: 50 });
      expect(strict.report.policy!.failed_because.join(' ')).toMatch(/--strict: 5 testable MUST rule\(s\) skipped/);
      expect(strict.exitCode).toBe(1);
    } finally {
      await receiver.close();
    }
  });

  it('serves the run\'s Payments to a receiver that fetches them (fetch mode), which is then conformant', async () => {
    const stubPort = await freePort();
    const receiver = await startReferenceReceiver({
      secret: SECRET,
      paymentsApi: { baseUrl: `http://127.0.0.1:${stubPort}`, apiKey: 'pt_test_sk_fetchmode' },
    });
    try {
      const { report } = await runReceiver({
        url: receiver.url,
        secret: SECRET,
        inspectUrl: receiver.inspectUrl,
        paymentsApiPort: stubPort,
        seed: 5,
        reportDir: mkdtempSync(join(tmpdir(), 'hps-recv-test-')),
        replayBase: 'x',
        log: () => {},
        dedup: MUTATION_DEDUP,
      });
      expect(report.rules.filter((r) => [
        'fail',
        'warn',
        'error',
        'skip',
      ].includes(r.status) && !r.untestable).map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
      const fetched = report.rules.find((r) => r.id === 'RECV-ARRIVAL-ORDER')!.observed!.payments_fetched_from_stand_in as number;
      expect(fetched).toBeGreaterThan(5);
    } finally {
      await receiver.close();
    }
  });

  it('waits for a receiver that acknowledges first and processes later (the inspection settles)', async () => {
    const receiver = await startReferenceReceiver({ secret: SECRET, processDelayMs: 400 });
    try {
      const { report } = await runReceiver({
        url: receiver.url,
        secret: SECRET,
        inspectUrl: receiver.inspectUrl,
        seed: 6,
        reportDir: mkdtempSync(join(tmpdir(), 'hps-recv-test-')),
        replayBase: 'x',
        log: () => {},
        dedup: MUTATION_DEDUP,
      });
      expect(report.rules.filter((r) => [
        'fail',
        'warn',
        'error',
        'skip',
      ].includes(r.status) && !r.untestable).map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('catches every planted receiver fault by a rule it declares, with 0 findings on the clean receiver', async () => {
    const m = await receiverMutation(11);
    expect(m.cleanFindings).toEqual([]);
    expect(m.results.filter((r) => !r.caught).map((r) => r.fault)).toEqual([]);
    expect(m.results.length).toBe(Object.keys(RECEIVER_FAULTS).length);
  }, 120_000);
});

describe('receiver command line', () => {
  it('needs --secret-env with --url (exit 2) and a reachable receiver (exit 3)', async () => {
    expect(await main(['receiver', '--url', 'http://127.0.0.1:9/webhooks'])).toBe(2);
    process.env.HPS_TEST_RECV_SECRET = SECRET;
    expect(await main(['receiver', '--url', 'http://127.0.0.1:9/webhooks', '--secret-env', 'HPS_TEST_RECV_SECRET'])).toBe(3);
    expect(await main(['receiver', '--fault', 'no-such-fault'])).toBe(2);
  });

  it('certifies the receiver of a profile\'s receiver section (exit 0), and exits 1 for a faulty one', async () => {
    process.env.HPS_TEST_RECV_SECRET = SECRET;
    for (const [faults, exit] of [[[], 0], [['skips-verification'], 1]] as const) {
      const receiver = await startReferenceReceiver({ secret: SECRET, faults });
      try {
        const dir = mkdtempSync(join(tmpdir(), 'hps-recv-test-'));
        const profile = join(dir, 'profile.json');
        writeFileSync(
          profile,
          JSON.stringify({
            base_url: 'http://127.0.0.1:4010',
            keys: { test: 'pt_test_sk_unused' },
            receiver: { url: receiver.url, secret: '${HPS_TEST_RECV_SECRET}', inspect_url: receiver.inspectUrl },
          }),
        );
        expect(await main([
          'receiver',
          '--profile',
          profile,
          '--seed',
          '4',
          '--dedup-time-scale',
          '60',
          '--report',
          join(dir, 'out'),
        ])).toBe(exit);
        expect(readFileSync(join(dir, 'out', 'report.json'), 'utf8')).not.toContain(SECRET);
      } finally {
        await receiver.close();
      }
    }
  });
});

describe('receiver command line: replay and policy', () => {
  it('keeps --payments-api-port in the replay line, and takes --strict / --min-must-coverage', async () => {
    process.env.HPS_TEST_RECV_SECRET = SECRET;
    const port = await freePort();
    const receiver = await startReferenceReceiver({ secret: SECRET, faults: ['answers-200-to-bad-signatures'] });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'hps-recv-test-'));
      expect(await main([
        'receiver',
        '--url',
        receiver.url,
        '--secret-env',
        'HPS_TEST_RECV_SECRET',
        '--payments-api-port',
        String(port),
        '--seed',
        '2',
        '--min-must-coverage',
        '50',
        '--report',
        dir,
      ])).toBe(1);
      const report = JSON.parse(readFileSync(
        join(dir, 'report.json'),
        'utf8',
      )) as { rules: Array<{ id: string; evidence: Array<{ kind: string; command?: string }> }> };
      const replay = report.rules.find((r) => r.id === 'RECV-VERIFY-SIGNATURE')!.evidence.find((e) => e.kind === 'replay')!.command!;
      expect(replay).toBe(`${invokedAs()} receiver --url ${receiver.url} --secret-env HPS_TEST_RECV_SECRET --payments-api-port ${port} --min-must-coverage 50 --seed=2`);
      expect(await main(['receiver', '--url', receiver.url, '--secret-env', 'HPS_TEST_RECV_SECRET', '--min-must-coverage', '101'])).toBe(2);
    } finally {
      await receiver.close();
    }
  });
});

describe('profile receiver section', () => {
  const base = { base_url: 'http://127.0.0.1:4010', keys: { test: 'pt_test_sk_x' } };
  it('takes the signing secret from the environment and counts it a secret', () => {
    const p = parseProfile(
      JSON.stringify({
        ...base,
        receiver: { url: 'http://127.0.0.1:4030/webhooks', secret: '${SHOP_WHSEC}', inspect_url: 'http://127.0.0.1:4030/inspect' },
      }),
      'p.json',
      { SHOP_WHSEC: SECRET },
    );
    expect(p.receiver).toEqual({ url: 'http://127.0.0.1:4030/webhooks', secret: SECRET, inspect_url: 'http://127.0.0.1:4030/inspect' });
    expect(profileSecrets(p)).toContain(SECRET);
  });
  it('names the field of a bad receiver section', () => {
    expect(() => parseProfile(
      JSON.stringify({ ...base, receiver: { url: 'http://x/h', secret: 'nope' } }),
      'p.json',
      {},
    )).toThrow(/receiver\.secret: must start with whsec_/);
    expect(() => parseProfile(
      JSON.stringify({ ...base, receiver: { secret: SECRET } }),
      'p.json',
      {},
    )).toThrow(/receiver\.url: is required/);
  });
});

/**
 * The client command: the judge on hand-made request sequences (edges exact: Retry-After is
 * waited or not by 1 ms), the seeded schedule, and the example client clean and with each
 * planted fault, through the real chaos server and reference server.
 */
import { describe, expect, it } from 'vitest';
import { rulesOfSide } from '../../catalogue/index.ts';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChaosApp, classify } from '../../merchant/client/chaos-server.ts';
import { runClient } from '../../merchant/client/run.ts';
import { judgeClient } from '../../merchant/client/judge.ts';
import { operationIdentity } from '../../merchant/client/identity.ts';
import { clientMutation, runExampleClient } from '../../merchant/client/mutation.ts';
import type { RecordedRequest } from '../../merchant/client/recorder.ts';
import { FailureSchedule, FAILURE_LISTS, RETRY_AFTER_RANGE_S } from '../../merchant/client/schedule.ts';
import { CLIENT_FAULTS } from '../../merchant/client/faults.ts';

let seq = 0;
function rec(p: Partial<RecordedRequest>): RecordedRequest {
  seq++;
  return {
    seq,
    at: new Date().toISOString(),
    arrivedMs: seq * 10,
    method: 'POST',
    path: '/v1/payments',
    kind: 'create',
    identity: 'create key=k1',
    body: '{"amount":"1.00"}',
    idempotencyKey: 'k1',
    ...p,
  };
}
const statusOf = (log: RecordedRequest[], id: string) => {
  const j = judgeClient(log).get(id as never)!;
  return j.checks.some((c) => c.state === 'fail') ? 'fail' : j.checks.some((c) => c.state === 'pass') ? 'pass' : 'skip';
};

describe('client judge', () => {
  it('judges every exercisable client rule', () => {
    const judged = new Set(judgeClient([]).keys());
    expect(rulesOfSide('client').filter((r) => !r.untestable && !judged.has(r.id)).map((r) => r.id)).toEqual([]);
    for (const f of Object.values(CLIENT_FAULTS)) for (const id of f.breaks) expect(judged.has(id)).toBe(true);
  });

  it('measures the Retry-After wait at its edge, against the seconds that 429 announced', () => {
    for (const s of [2, 5]) {
      const edge = s * 1000 - 10;
      const first = rec({ injected: '429', status: 429, retryAfterS: s, arrivedMs: 100, answeredMs: 101 });
      expect(statusOf([first, rec({ arrivedMs: 101 + edge })], 'CLIENT-HONOUR-RETRY-AFTER')).toBe('pass');
      expect(statusOf([first, rec({ arrivedMs: 101 + edge - 1 })], 'CLIENT-HONOUR-RETRY-AFTER')).toBe('fail');
    }
    // A client that ignores Retry-After but backs off 1 s: lucky on a 1 s Retry-After, caught on 2-5 s.
    const first = rec({ injected: '429', status: 429, retryAfterS: 2, arrivedMs: 100, answeredMs: 101 });
    expect(statusOf([first, rec({ arrivedMs: 1101 })], 'CLIENT-HONOUR-RETRY-AFTER')).toBe('fail');
  });

  it('fails a create never re-sent under its key (naming the same-body create under another key), a retried cancel and a re-sent 400; skips what was not injected', () => {
    const reset = rec({ injected: 'reset-after-create', paymentId: 'pay_1', upstreamStatus: 201, answeredMs: 25 });
    const otherKey = rec({ idempotencyKey: 'k2', identity: 'create key=k2', status: 201, upstreamStatus: 201, paymentId: 'pay_2' });
    const judged = judgeClient([reset, otherKey]).get('CLIENT-RETRY-TRANSIENT')!;
    expect(judged.checks[0]!.state).toBe('fail');
    expect(judged.checks[0]!.message).toMatch(/never re-sent with its Idempotency-Key k1; #\d+ was sent \d+ ms after #\d+ was answered with the same body under another key \(k2\)/);
    expect(statusOf([reset, otherKey], 'CLIENT-SAME-IDEMPOTENCY-KEY')).toBe('skip');
    expect(statusOf([reset, { ...otherKey, idempotencyKey: 'k1', identity: 'create key=k1', paymentId: 'pay_1' }], 'CLIENT-RETRY-TRANSIENT')).toBe('pass');
    expect(statusOf([reset, { ...otherKey, idempotencyKey: 'k1', identity: 'create key=k1', body: '{"amount":"1.00","metadata":{"attempt":"2"}}' }], 'CLIENT-SAME-IDEMPOTENCY-KEY')).toBe('fail');
    expect(statusOf([rec({ identity: 'create key=kb', idempotencyKey: 'kb', injected: '502', status: 502 })], 'CLIENT-RETRY-TRANSIENT')).toBe('fail');
    const cancel = { kind: 'cancel' as const, identity: 'POST /v1/payments/p/cancel', path: '/v1/payments/p/cancel', body: '' };
    expect(statusOf([rec({ ...cancel, injected: '503', status: 503 }), rec(cancel)], 'CLIENT-CANCEL-RETRY-ONLY-429')).toBe('fail');
    expect(statusOf([rec({ ...cancel, injected: '503', status: 503 })], 'CLIENT-CANCEL-RETRY-ONLY-429')).toBe('pass');
    const c400 = rec({ identity: 'create C', body: 'c', injected: '400', status: 400, errorCode: 'invalid_request' });
    expect(statusOf([c400, rec({ identity: 'create C', body: 'c' })], 'CLIENT-NO-RETRY-4XX')).toBe('fail');
    expect(statusOf([c400], 'CLIENT-NO-RETRY-4XX')).toBe('pass');
    expect(statusOf([], 'CLIENT-RETRY-TRANSIENT')).toBe('skip');
    const cancel500 = { kind: 'cancel' as const, identity: 'POST /v1/payments/q/cancel @1', path: '/v1/payments/q/cancel', body: '' };
    expect(statusOf([rec({ ...cancel500, injected: '500', status: 500 }), rec(cancel500)], 'CLIENT-CANCEL-RETRY-ONLY-429')).toBe('fail');
  });

  it('two orders with the same body under two keys are two creates: no finding for a client that retries each under its own key', () => {
    const a = rec({ injected: '503', status: 503, answeredMs: 20 });
    const aRetry = rec({ status: 201, paymentId: 'pay_a' });
    const b = rec({ idempotencyKey: 'k2', identity: 'create key=k2', status: 201, paymentId: 'pay_b' });
    const judged = judgeClient([a, aRetry, b]);
    for (const [id, j] of judged) expect(j.checks.filter((c) => c.state === 'fail').map((c) => `${id}: ${c.message}`)).toEqual([]);
  });

  it('a client that sends no key is told it cannot be checked for same-key retries (SKIP with the reason, not FAIL)', () => {
    const keyless = rec({ idempotencyKey: undefined, identity: 'create without key #1', injected: 'reset-after-create', paymentId: 'pay_1' });
    const next = rec({ idempotencyKey: undefined, identity: 'create without key #2', status: 201, paymentId: 'pay_2' });
    for (const id of ['CLIENT-SAME-IDEMPOTENCY-KEY', 'CLIENT-RETRY-TRANSIENT'] as const) {
      const j = judgeClient([keyless, next]).get(id)!;
      expect(j.checks.every((c) => c.state === 'skip'), id).toBe(true);
      expect(j.skipReason).toMatch(/no Idempotency-Key: a later create cannot be told a retry from a new order/);
    }
    expect(statusOf([keyless, next], 'CLIENT-CREATE-HAS-KEY')).toBe('fail');
  });
});

describe('failure schedule', () => {
  it('is seeded, and the first create always meets the reset after creation', () => {
    for (const seed of [0, 1, 2, 99]) {
      const a = new FailureSchedule(seed);
      const b = new FailureSchedule(seed);
      expect(a.next('create')!.injection).toBe('reset-after-create');
      b.next('create');
      for (let i = 0; i < FAILURE_LISTS.create.length; i++) {
        const x = a.next('create')!;
        expect(x).toEqual(b.next('create'));
        if (x.injection === '429') expect(x.retryAfterS! >= RETRY_AFTER_RANGE_S[0] && x.retryAfterS! <= RETRY_AFTER_RANGE_S[1]).toBe(true);
      }
      expect(a.next('create')).toBeUndefined();
      expect(a.next('other')).toBeUndefined();
    }
    expect(classify('POST', '/v1/payments')).toBe('create');
    expect(classify('POST', '/v1/payments/pay_1/cancel')).toBe('cancel');
    expect(classify('GET', '/v1/payments/pay_1')).toBe('read');
    expect(classify('POST', '/v1/test_helpers/payments/pay_1/succeed')).toBe('other');
  });
});

describe('chaos server: what one operation is', () => {
  it('a create is its Idempotency-Key (never its body); a read or cancel is retried only by the very next request, after a failure', () => {
    const app = new ChaosApp(1);
    expect(app.identityOf('create', 'POST', '/v1/payments', 'k1', 1)).toBe('create key=k1');
    expect(app.identityOf('create', 'POST', '/v1/payments', 'k2', 2)).toBe('create key=k2');
    expect(app.identityOf(
      'create',
      'POST',
      '/v1/payments',
      undefined,
      3,
    )).not.toBe(app.identityOf('create', 'POST', '/v1/payments', undefined, 4));
    const path = '/v1/payments?limit=5';
    const list = (
      status: number | undefined,
      answeredMs: number | undefined,
      identity = 'GET /v1/payments?limit=5 @5',
    ) => rec({ identity, method: 'GET', path, kind: 'read', status, answeredMs });
    expect(operationIdentity(
      head('GET', path, 6),
      list(503, 10),
    )).toBe('GET /v1/payments?limit=5 @5'); // right after its failure: the retry
    expect(operationIdentity(
      head('GET', path, 6),
      list(undefined, 10),
    )).toBe('GET /v1/payments?limit=5 @5'); // after a dropped connection: the retry
    expect(operationIdentity(head('GET', path, 6), list(200, 10))).toBe('GET /v1/payments?limit=5 @6'); // after a success: a new list
    expect(operationIdentity(
      head('GET', path, 6),
      list(503, undefined),
    )).toBe('GET /v1/payments?limit=5 @6'); // the failed one still in flight: concurrent, a new list
    expect(operationIdentity(
      head('GET', '/v1/payments?limit=4', 6),
      list(503, 10),
    )).toBe('GET /v1/payments?limit=4 @6'); // another query: another read
    // Another operation in between (here a create), however soon: the next flow's list, never the retry.
    const between = rec({ identity: 'create key=k9', idempotencyKey: 'k9', status: 201, answeredMs: 11 });
    expect(operationIdentity(head('GET', path, 7), between)).toBe('GET /v1/payments?limit=5 @7');
    const cancel = '/v1/payments/pay_1/cancel';
    expect(operationIdentity(
      head('POST', cancel, 8),
      rec({ identity: 'POST /v1/payments/pay_1/cancel @7', path: cancel, kind: 'cancel', body: '', status: 429, answeredMs: 20 }),
    )).toBe('POST /v1/payments/pay_1/cancel @7');
  });
});

function head(method: string, path: string, seq: number) {
  return { kind: (method === 'GET' ? 'read' : 'cancel') as 'read' | 'cancel', method, path, key: undefined, seq };
}

describe('a merchant command that crashes at once', () => {
  it('is "incomplete", never "conformant" (nothing it did failed a rule: there is no evidence): 0 requests, exit 6, exit status and the redacted output tail in the console, report.json and the HTML', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hps-client-crash-'));
    const lines: string[] = [];
    const { report, exitCode } = await runClient({
      command: 'node -e "console.log(\'key=\' + process.env.HPS_API_KEY); import(\'./no-such-module.mjs\')"',
      seed: 1,
      reportDir: dir,
      log: (l) => lines.push(l),
      timeoutMs: 30_000,
    });
    expect(exitCode).toBe(6);
    expect(report.verdict).toBe('incomplete');
    expect(report.policy).toBeUndefined();
    expect(report.incomplete_because![0]).toBe('no evidence: the command made 0 requests to HPS_BASE_URL');
    expect(report.rules.find((r) => r.id === 'CLIENT-RETRY-TRANSIENT')!.reason).toBe('not exercised by this program: the command made 0 requests to HPS_BASE_URL');
    expect(report.command!.exit_code).toBe(1);
    expect(report.command!.output_tail).toContain('ERR_MODULE_NOT_FOUND');
    expect(report.command!.output_tail).not.toMatch(/pt_test_sk_[A-Za-z0-9]{8,}/);
    const console = lines.join('\n');
    expect(console).toMatch(/command: exit 1 after [\d.]+ s · 0 requests/);
    expect(console).toMatch(/command output \(\d+ bytes, redacted\):\n  \| key=/);
    expect(console).toContain('ERR_MODULE_NOT_FOUND');
    expect(console).toContain('verdict: incomplete');
    expect(console).toContain('  NOT PROVEN no evidence: the command made 0 requests to HPS_BASE_URL');
    const json = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    expect(json.command.output_tail).toContain('ERR_MODULE_NOT_FOUND');
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html).toContain('<section id="command">');
    expect(html).toContain('ERR_MODULE_NOT_FOUND');
    expect(html).toContain('the command made 0 requests to HPS_BASE_URL');
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain('ERR_MODULE_NOT_FOUND');
  }, 60_000);
});

// The clean run beside the planted faults (three at a time, the command's default): each run of the
// example client mostly waits out the chaos server's Retry-After (2-5 s) and held requests (5 s). Five
// faults at a time was tried and dropped: at load ~60, beside other files, the clean client then failed
// in both such runs (incomplete once, not conformant once).
describe.concurrent('client command with the example client', () => {
  it('finds the clean example client conformant, every exercisable rule run', async () => {
    const report = await runExampleClient(undefined, 4);
    expect(report.side).toBe('client');
    // Each rule first, with its reason: a verdict alone said "not_conformant" and nothing of why.
    for (const r of report.rules) expect(
      r.untestable ? 'untestable' : r.status,
      `${r.id}: ${r.reason}`,
    ).toBe(r.untestable ? 'untestable' : r.level === 'OBSERVE' ? 'info' : 'pass');
    expect(report.verdict).toBe('conformant');
    // Every planned failure was met by the example scenario (10 creates, 13 reads: three lists among them, 8 cancels).
    const failures = report.rules.find((r) => r.id === 'CLIENT-RETRY-TRANSIENT')!.observed!.failures as Array<{ met_by: string | null }>;
    expect(failures.filter((f) => !f.met_by)).toEqual([]);
  }, 120_000);

  it('catches every planted client fault by a rule it declares', async () => {
    const m = await clientMutation(8);
    expect(m.cleanFindings).toEqual([]);
    expect(m.results.filter((r) => !r.caught).map((r) => r.fault)).toEqual([]);
  }, 300_000);
});

/**
 * A realistic failing report for the renderers' tests: report.json of a real run,
 * `hps-conformance run --area create --fault amount-through-float --seed 1` (test/fixtures/
 * report-create-amount-through-float.json: CREATE-FIELDS-ECHOED fails with a shrunk counterexample
 * whose expected and actual differ only at $.amount), plus what that run cannot show: a webhook
 * retry timeline with an early retry, an ambient finding with its source, an unshrinkable
 * counterexample, a WARN and a FLAKY rule.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Report, RuleReport } from '../../catalogue/report/model.ts';

export const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'report-create-amount-through-float.json');

export function realFailingReport(): Report {
  return JSON.parse(readFileSync(FIXTURE, 'utf8')) as Report;
}

const webhookRule: RuleReport = {
  id: 'HOOK-RETRY-SCHEDULE', area: 'webhooks', level: 'MUST', status: 'fail',
  title: 'Failed deliveries are retried immediately, then after 30 seconds, 2 minutes, 10 minutes, 30 minutes, 2 hours and 6 hours.',
  spec: 'Events › Delivery rules',
  reason: 'a retry came before its gap: payment.created@/hooks/a: attempt 3 came 120 ms after attempt 2, the 30 s gap is 300 ms at time_scale 100',
  evidence: [
    { kind: 'timeline', event_id: 'evt_0000001abc', label: 'payment.created@/hooks/a', attempts: [
      { at_ms: 0, status: 500, gap_ms: 0 },
      { at_ms: 3, status: 500, gap_ms: 3, expected_gap_ms: 0 },
      { at_ms: 123, status: 500, gap_ms: 120, expected_gap_ms: 300 },
      { at_ms: 1373, status: 200, gap_ms: 1250, expected_gap_ms: 1200 },
    ] },
    { kind: 'property', seed: 99, runs: 2, counterexample: '[503]', replayOutcome: 'not-replayed',
      shrink_note: 'each run waits for real webhook deliveries and their retries; shrinking was turned off to bound the run' },
  ],
  tests: [{
    title: 'HOOK-RETRY-SCHEDULE: the first two gaps',
    state: 'fail',
    duration_ms: 900,
    requests: 4,
    error: 'a retry came before its gap',
  }],
};

const ambientRule: RuleReport = {
  id: 'RESP-CACHE-NO-STORE', area: 'responses', level: 'SHOULD', status: 'warn',
  title: 'Responses carry Cache-Control: no-store.', spec: 'Responses',
  reason: 'GET /v1/payments/pay_1 answered without Cache-Control: no-store; 1 ambient violation(s)',
  evidence: [{
    kind: 'mismatch',
    message: 'GET /v1/payments/pay_1 answered without Cache-Control: no-store',
    expected: { 'cache-control': 'no-store' },
    actual: { 'cache-control': null },
    source: { rule: 'CREATE-FIELDS-ECHOED', test: 'CREATE-FIELDS-ECHOED: Every accepted field comes back' },
  }],
  tests: [],
};

const flakyRule: RuleReport = {
  id: 'LIST-LIMIT-RANGE', area: 'listing', level: 'MUST', status: 'flaky', title: 'limit outside 1..100 answers 400.', spec: 'Endpoints',
  reason: 'a counterexample failed, then passed when replayed with the same seed: limit 0 answered 200',
  evidence: [{ kind: 'property', seed: 5, runs: 100, counterexample: '[0]', replayOutcome: 'pass', shrinks: 3 }], tests: [],
};

export function enrichedFailingReport(): Report {
  const r = realFailingReport();
  r.side = 'service';
  // Copies: a test may change its report's rules in place (test/reports/partial-headline.test.ts),
  // and test:quick's files share this module in one worker.
  r.rules.push(...structuredClone([webhookRule, ambientRule, flakyRule]));
  r.summary = { ...r.summary, fail: r.summary.fail + 1, warn: r.summary.warn + 1, flaky: r.summary.flaky + 1 };
  return r;
}

/**
 * One cause, one finding (issue 29): a request the rules' setup needed and the target refused is
 * named once (report.json setup_refusals), the rules it blocked are ERROR with blocked_by instead of
 * a FAIL each, and the run is still not conformant (exit 1).
 */
import { describe, expect, it } from 'vitest';
import { getRule, type RuleId } from '../../catalogue/index.ts';
import { allowedRefusal, type HpsMeta } from '../../core/evidence.ts';
import { EXIT } from '../../core/errors.ts';
import { ajv } from '../../catalogue/schemas/ajv.ts';
import { reportSchema } from '../../catalogue/schemas/report.ts';
import type { FinishedTest } from '../../results/verdict/collect.ts';
import { judgeRun } from '../../results/verdict/judge-run.ts';
import { renderHtml } from '../../results/render/html.ts';
import { renderMarkdown } from '../../results/render/markdown.ts';

const validReport = ajv.compile(reportSchema);
const REFUSED = { request: 'createPayment under keys.live', status: 409, code: 'payment_detection_not_ready' };

function finished(
  rule: RuleId,
  state: FinishedTest['state'],
  meta: Partial<HpsMeta> = {},
  error = 'setup: createPayment under keys.live answered 409 payment_detection_not_ready',
): FinishedTest {
  return {
    title: `${rule}: ${getRule(rule).requirement}`,
    state,
    durationMs: 5,
    errors: state === 'fail' ? [error] : [],
    meta: { rule, checks: 1, ...meta },
  };
}

function judge(tests: FinishedTest[], ids: RuleId[]) {
  return judgeRun({
    target: {
      base_url: 'http://127.0.0.1:1',
      embedded_reference: true,
    }, ctx: { runId: 'r1', seed: 1, runs: 100, profilePath: null, replayArgs: [] },
    startedAt: new Date(0), selected: ids.map(getRule), selection: {
      areas: [],
      rules: ids,
    }, tests, secrets: [], pace: { maxRps: null, concurrency: 8 },
    policy: {}, required: [],
  });
}

describe('setup refusals', () => {
  const ids: RuleId[] = ['ISO-TEST-LIVE-GET', 'TRANS-CANCEL', 'HOOK-ENVELOPE', 'LIVE-READY-CREATES', 'AUTH-MISSING-KEY'];
  const tests = [
    finished('ISO-TEST-LIVE-GET', 'fail', { setupRefusal: REFUSED }),
    finished('TRANS-CANCEL', 'fail', { setupRefusal: REFUSED }),
    finished('HOOK-ENVELOPE', 'fail', { setupRefusal: REFUSED }),
    finished('LIVE-READY-CREATES', 'fail', {}, 'keys.live create answered 409 payment_detection_not_ready, expected 201'),
    finished('AUTH-MISSING-KEY', 'pass'),
  ];

  it('names the refusal once, with the areas and rules it blocked; the blocked rules are ERROR, not FAIL', () => {
    const { report, exitCode } = judge(tests, ids);
    expect(report.setup_refusals).toEqual([{
      cause: 'createPayment under keys.live answered 409 payment_detection_not_ready',
      areas: ['isolation', 'transitions', 'webhooks'],
      ...REFUSED,
      rules: ['ISO-TEST-LIVE-GET', 'TRANS-CANCEL', 'HOOK-ENVELOPE'],
    }]);
    const status = Object.fromEntries(report.rules.map((r) => [r.id, [r.status, r.blocked_by]]));
    expect(status['TRANS-CANCEL']).toEqual(['error', 'createPayment under keys.live answered 409 payment_detection_not_ready']);
    expect(status['LIVE-READY-CREATES']).toEqual(['fail', undefined]);
    expect(report.summary.fail).toBe(1);
    expect(report.verdict).toBe('not_conformant');
    expect(exitCode).toBe(EXIT.notConformant);
    expect(validReport(report), JSON.stringify(validReport.errors)).toBe(true);
    expect(renderMarkdown(report)).toContain('## Setup refused');
    expect(renderMarkdown(report)).toContain('`createPayment under keys.live answered 409 payment_detection_not_ready`');
    expect(renderHtml(report)).toContain('<section id="setup-refusals">');
  });

  it('a refusal alone still makes the run not conformant (exit 1), and a rule that also failed on its own stays FAIL', () => {
    const alone = judge(tests.slice(0, 3), ids.slice(0, 3));
    expect(alone.report.summary.fail).toBe(0);
    expect(alone.report.verdict).toBe('not_conformant');
    expect(alone.exitCode).toBe(EXIT.notConformant);
    const both = judge(
      [...tests.slice(0, 3), finished('TRANS-CANCEL', 'fail', {}, 'cancel answered 200 with status PENDING')],
      ids.slice(0, 3),
    );
    expect(both.report.rules.find((r) => r.id === 'TRANS-CANCEL')).toMatchObject({ status: 'fail' });
    expect(both.report.setup_refusals![0]!.rules).toEqual(['ISO-TEST-LIVE-GET', 'HOOK-ENVELOPE']);
  });

  it('a Live-only 409 the spec allows (the profile promised a ready Live business) blocks its rules, not failing the run', () => {
    const allowed = { ...REFUSED, allowed: allowedRefusal(true, 409, 'payment_detection_not_ready')! };
    expect(allowedRefusal(false, 409, 'payment_detection_not_ready'), 'a Test create is never refused for Live readiness').toBeUndefined();
    expect(allowedRefusal(true, 500, 'internal_error')).toBeUndefined();
    const blocked = (id: RuleId) => finished(id, 'fail', { setupRefusal: allowed });
    const run = judge([blocked('ISO-TEST-LIVE-GET'), blocked('TRANS-CANCEL'), finished('AUTH-MISSING-KEY', 'pass')],
      ['ISO-TEST-LIVE-GET', 'TRANS-CANCEL', 'AUTH-MISSING-KEY']);
    expect(run.report.setup_refusals![0]).toMatchObject({ allowed: allowed.allowed, rules: ['ISO-TEST-LIVE-GET', 'TRANS-CANCEL'] });
    expect(run.report.verdict).toBe('incomplete');
    expect(run.report.incomplete_because![0]).toContain('setup refused as the spec allows');
    expect(run.exitCode).not.toBe(EXIT.notConformant);
    expect(validReport(run.report), JSON.stringify(validReport.errors)).toBe(true);
    expect(renderMarkdown(run.report)).toContain('allowed by the spec, not a failure');
    expect(renderHtml(run.report)).toContain('allowed by the spec, not a failure');
  });

  it('a run without refusals has no setup_refusals and the verdict of its rules', () => {
    const { report } = judge([finished('AUTH-MISSING-KEY', 'pass')], ['AUTH-MISSING-KEY']);
    expect(report.setup_refusals).toBeUndefined();
    expect(report.verdict).toBe('conformant');
  });
});

/**
 * The proxy's two reports: the application's (side client: the client rules on the kept log,
 * merchant/client/judge.ts) and the service's answers (side service: the ambient response rules,
 * core/ambient.ts, each SKIP "not exercised by this program" when no answer reached it). Kept
 * apart so that a finding names whom it is about: a defect of the service never fails the
 * application's verdict, nor the other way round.
 */
import { getRule, rulesOfSide, type RuleId } from '../../catalogue/index.ts';
import { obligationsOfClauses } from '../../catalogue/obligations.ts';
import { redactText } from '../../core/redact.ts';
import type { Report, RuleReport } from '../../catalogue/report/model.ts';
import { buildSideReport, decideRule, type CheckOutcome, type RuleJudgement } from '../../results/verdict/side-report.ts';
import type { CommandOutcome } from './command.ts';
import { judgeClient, NOT_EXERCISED } from './judge.ts';
import { notJudgedWords } from './judge-queue.ts';
import type { ProxyTraffic } from './proxy-traffic.ts';

/** The response rules core/ambient.ts judges on a single exchange. */
export const SINGLE_EXCHANGE_RULES: readonly RuleId[] = [
  'RESP-STATUS-LISTED', 'RESP-ERROR-ENVELOPE', 'RESP-ERROR-STATUS-MATCHES-CODE', 'RESP-PAYMENT-SCHEMA', 'RESP-PAYMENT-LIVEMODE',
  'RESP-LIST-SCHEMA', 'RESP-ENUM-KNOWN', 'RESP-JSON-CONTENT-TYPE', 'RESP-REQUEST-ID-UNIQUE', 'RESP-NO-5XX',
];

const REPLAY = 'run the application through `hps-conformance proxy` again (the traffic decides what is exercised)';

interface Where {
  baseUrl: string;
  embedded: boolean;
  startedAt: Date;
}

function clientSideReport(w: Where, rules: RuleReport[], requests: number): Report {
  return buildSideReport({ side: 'client', baseUrl: w.baseUrl, embedded: w.embedded, seed: 0, startedAt: w.startedAt, rules, requests });
}

export function applicationReport(traffic: ProxyTraffic, w: Where & { command?: string; outcome?: CommandOutcome }): Report {
  const judgements = judgeClient(traffic.judged());
  const retry = judgements.get('CLIENT-RETRY-TRANSIENT')!;
  retry.observed = {
    exchanges: traffic.exchanges,
    clients: traffic.clientCount,
    kept_for_judging: traffic.log.length,
    not_kept: traffic.dropped,
    upstream_failures: traffic.upstreamFailed,
  };
  if (traffic.exchanges === 0) for (const j of judgements.values()) j.skipReason = `${NOT_EXERCISED}the application made 0 requests through the proxy`;
  const rules = rulesOfSide('client').map((rule) => decideRule(rule, judgements.get(rule.id) ?? { checks: [] }, REPLAY));
  const report = clientSideReport(w, rules, traffic.exchanges);
  if (w.command && w.outcome) report.command = {
    line: redactText(w.command),
    exit_code: w.outcome.exitCode,
    timed_out: w.outcome.timedOut,
    duration_ms: w.outcome.durationMs,
    output_bytes: w.outcome.outputBytes,
    output_tail: w.outcome.outputTail,
  };
  return report;
}

export function serviceReport(traffic: ProxyTraffic, w: Where): Report {
  const rules = SINGLE_EXCHANGE_RULES.map((id) => unjudged(decideRule(getRule(id), judgementOf(traffic, id), REPLAY), traffic));
  const report = clientSideReport(w, rules, traffic.exchanges);
  report.side = 'service';
  report.selection = { areas: ['responses'], rules: [...SINGLE_EXCHANGE_RULES] };
  return report;
}

/**
 * Answers the judging queue turned away (judge-queue.ts) were not judged: a rule they would have exercised is not
 * proven on them. A rule no judged answer failed is SKIP, saying so, each obligation of its clauses not tried (the
 * verdict `incomplete`, never a PASS on part of the traffic); a failure found on the judged answers stands.
 */
function unjudged(r: RuleReport, t: ProxyTraffic): RuleReport {
  if (!t.notJudged.count || (r.status !== 'pass' && r.status !== 'skip')) return r;
  const why = `not tried on every answer: ${notJudgedWords(t.notJudged, t.exchanges)}`;
  const not_tried = obligationsOfClauses(getRule(r.id as RuleId).clauses).map((obligation) => ({ obligation, why }));
  return { ...r, status: 'skip', reason: r.status === 'pass' ? `${why}; the answers judged passed` : `${r.reason}; ${why}`, not_tried };
}

function judgementOf(traffic: ProxyTraffic, id: RuleId): RuleJudgement {
  const checked = traffic.checked.get(id) ?? 0;
  const found = traffic.findings.get(id);
  const checks: CheckOutcome[] = (found?.kept ?? []).map((f) => ({
    name: `#${f.exchange?.seq ?? '?'}`,
    state: 'fail',
    message: f.message,
    requests: 1,
    evidence: [
      { kind: 'mismatch', message: f.message, expected: f.expected, actual: f.actual },
      ...(f.exchange ? [{ kind: 'exchange' as const, exchange: f.exchange }] : []),
    ],
  }));
  if (found && found.count > found.kept.length) checks.push({
    name: `${found.count - found.kept.length} more answers`,
    state: 'fail',
    message: 'the same rule, not kept (bounded)',
  });
  if (checked > 0 && !found) checks.push({ name: `${checked} answers checked`, state: 'pass', requests: checked });
  return {
    checks,
    skipReason: `${NOT_EXERCISED}no answer the proxy relayed is one this rule judges`,
    observed: {
      answers_checked: checked,
      findings: found?.count ?? 0,
      ...(traffic.notJudged.count ? { exchanges_not_judged: traffic.notJudged.count } : {}),
    },
  };
}

/**
 * `hps-conformance client`: starts the reference server behind the chaos server, runs the
 * merchant's command against it, judges the recorded requests and writes the usual report, with
 * the command's exit status and output tail, and which planned failures its traffic met.
 */
import { randomBytes } from 'node:crypto';
import { rulesOfSide } from '../../catalogue/index.ts';
import { redactText } from '../../core/redact.ts';
import { sideReplayCommand } from '../../results/verdict/replay.ts';
import { startReferenceServer } from '../../core/targets/reference-server.ts';
import { buildSideReport, decideRule, printSideSummary, writeSideReport } from '../../results/verdict/side-report.ts';
import { applySidePolicy, type SidePolicy } from '../../results/verdict/side-policy.ts';
import type { Report } from '../../catalogue/report/model.ts';
import { HOOKS_PATH, startChaosServer } from './chaos-server.ts';
import { commandStatusLine, printCommandTail, runMerchantCommand, type CommandOutcome } from './command.ts';
import { failuresMet, failuresMetLine } from './failures-met.ts';
import { judgeClient } from './judge.ts';
import { describeInjection } from './schedule.ts';
import type { RecordedRequest } from './recorder.ts';
import { invokedAs } from '../../core/invocation.ts';

export interface ClientRunOptions {
  command: string;
  seed?: number;
  reportDir?: string;
  timeoutMs?: number;
  /** Extra environment for the command (tests plant example-client faults this way). */
  env?: Record<string, string>;
  /** Working directory of the command (default: the current one). */
  cwd?: string;
  log?: (line: string) => void;
  policy?: SidePolicy;
}

export interface ClientRunResult {
  report: Report;
  exitCode: number;
  reportDir: string;
  log: RecordedRequest[];
  command: CommandOutcome;
}

export async function runClient(o: ClientRunOptions): Promise<ClientRunResult> {
  const log = o.log ?? ((l: string) => console.log(l));
  const seed = o.seed ?? randomBytes(4).readUInt32BE(0) >>> 1;
  const startedAt = new Date();
  const chaos = await startChaosServer(seed);
  const reference = await startReferenceServer({ webhookBaseUrl: `${chaos.url}${HOOKS_PATH}` }).catch(async (e: unknown) => {
    await chaos.close();
    throw e;
  });
  try {
    chaos.setUpstream(reference.url);
    const key = reference.profile.keys.test;
    log(`hps-conformance client: chaos server ${chaos.url} (reference server behind it) · seed ${seed} · running: ${o.command}`);
    const outcome = await runMerchantCommand(
      o.command,
      { ...o.env, ...directTo(chaos.url, o.env), HPS_BASE_URL: chaos.url, HPS_API_KEY: key },
      o.timeoutMs ?? 120_000,
      (s) => redactText(s, [key]),
      o.cwd,
    );
    const report = judgeAndBuild(o, seed, startedAt, chaos.log, chaos.schedule, outcome, chaos.url);
    const exitCode = applySidePolicy(
      report,
      o.policy ?? {},
      chaos.log.length === 0 ? 'the command made 0 requests to HPS_BASE_URL' : undefined,
    );
    const reportDir = writeSideReport(o.reportDir, report, o.policy?.signKey);
    log(`${commandStatusLine(outcome)} · ${chaos.log.length} requests · ${chaos.log.filter((r) => r.injected).length} failures injected`);
    log(failuresMetLine(failuresMet(chaos.schedule, chaos.log)));
    if (outcome.exitCode !== 0 || outcome.timedOut || chaos.log.length === 0) printCommandTail(outcome, log);
    printSideSummary(report, reportDir, log);
    return { report, exitCode, reportDir, log: chaos.log, command: outcome };
  } finally {
    await reference.close();
    await chaos.close();
  }
}

function judgeAndBuild(
  o: ClientRunOptions,
  seed: number,
  startedAt: Date,
  log: RecordedRequest[],
  schedule: Parameters<typeof failuresMet>[0],
  outcome: CommandOutcome,
  baseUrl: string,
): Report {
  const judgements = judgeClient(log);
  const retry = judgements.get('CLIENT-RETRY-TRANSIENT')!;
  retry.observed = {
    command_exit_code: outcome.exitCode,
    command_timed_out: outcome.timedOut,
    command_ms: outcome.durationMs,
    requests: log.length,
    failures: failuresMet(schedule, log),
  };
  // The whole run's injected failures, each with what the client did next: shown even when every rule passed.
  const first = retry.checks.find((c) => c.state === 'pass');
  if (first) (first.evidence ??= []).push(...sequenceNotes(log));
  if (log.length === 0) for (const j of judgements.values()) j.skipReason = 'the command made 0 requests to HPS_BASE_URL';
  // A skip on this side says what it is: the program did not do what the rule needs (docs/rulings.md "Three verdicts").
  for (const j of judgements.values()) if (j.skipReason && !/^not (exercised|reached|settled)\b/.test(j.skipReason)) j.skipReason = `not exercised by this program: ${j.skipReason}`;
  const replay = sideReplayCommand(`${invokedAs()} client --run ${JSON.stringify(o.command)}`, seed);
  const rules = rulesOfSide('client').map((rule) => decideRule(rule, judgements.get(rule.id) ?? { checks: [] }, replay));
  const report = buildSideReport({ side: 'client', baseUrl, embedded: true, seed, startedAt, rules, requests: log.length });
  report.command = {
    line: redactText(o.command),
    exit_code: outcome.exitCode,
    timed_out: outcome.timedOut,
    duration_ms: outcome.durationMs,
    output_bytes: outcome.outputBytes,
    output_tail: outcome.outputTail,
  };
  return report;
}

/** One note per injected failure: the operation's requests, the failure marked. */
function sequenceNotes(log: readonly RecordedRequest[]): Array<{ kind: 'note'; message: string }> {
  return log.filter((r) => r.injected).slice(0, 40).map((r) => {
    const next = log.filter((x) => x.seq > r.seq && x.identity === r.identity).slice(0, 3);
    const rest = next.map((x) => `#${x.seq} +${x.arrivedMs} ms key=${x.idempotencyKey ?? '(none)'} ` +
      `→ ${x.status ?? 'no answer'}`).join('; ');
    return {
      kind: 'note',
      message: `${r.method} ${r.path.split('?')[0]}: #${r.seq} +${r.arrivedMs} ms key=${r.idempotencyKey ?? '(none)'} → ${describeInjection(
        r.injected!,
        r.retryAfterS,
      ).toUpperCase()}${rest ? `; then ${rest}` : '; not re-sent'}`,
    };
  });
}

/**
 * The chaos server is ours, on loopback: a merchant client that honours HTTP_PROXY reaches it
 * directly. Its host joins NO_PROXY / no_proxy (kept for everything else the command reaches).
 */
function directTo(url: string, extra: Record<string, string> | undefined): Record<string, string> {
  const host = new URL(url).hostname;
  const add = (name: string) => {
    const v = extra?.[name] ?? process.env[name];
    return v ? `${v},${host}` : host;
  };
  return { NO_PROXY: add('NO_PROXY'), no_proxy: add('no_proxy') };
}

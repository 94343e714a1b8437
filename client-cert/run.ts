/**
 * `hps-conformance client`: starts the reference server behind the chaos server, runs the
 * merchant's command against it, judges the recorded requests and writes the usual report.
 */
import { randomBytes } from 'node:crypto';
import { rulesOfSide } from '../catalogue/index.ts';
import { redactText } from '../core/redact.ts';
import { exitCodeOf } from '../verdict/exit-code.ts';
import { sideReplayCommand } from '../verdict/replay.ts';
import { startReferenceServer } from '../targets/reference-server.ts';
import { buildSideReport, decideRule, printSideSummary, writeSideReport } from '../receiver/report.ts';
import type { Report } from '../report/model.ts';
import { HOOKS_PATH, startChaosServer } from './chaos-server.ts';
import { runMerchantCommand, type CommandOutcome } from './command.ts';
import { judgeClient } from './judge.ts';
import { describeInjection } from './schedule.ts';
import type { RecordedRequest } from './recorder.ts';

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
    const outcome = await runMerchantCommand(o.command, { ...o.env, HPS_BASE_URL: chaos.url, HPS_API_KEY: key }, o.timeoutMs ?? 120_000, (s) => redactText(s, [key]), o.cwd);
    const judgements = judgeClient(chaos.log);
    const retry = judgements.get('RECV-CLIENT-RETRY')!;
    retry.observed = { command_exit_code: outcome.exitCode, command_timed_out: outcome.timedOut, command_ms: outcome.durationMs, requests: chaos.log.length, unused_failures: chaos.schedule.unused() };
    // The whole run's injected failures, each with what the client did next: shown even when every rule passed.
    const first = retry.checks.find((c) => c.state === 'pass');
    if (first) (first.evidence ??= []).push(...sequenceNotes(chaos.log));
    if (chaos.log.length === 0) for (const j of judgements.values()) j.skipReason = 'the command made 0 requests to HPS_BASE_URL';
    const replay = sideReplayCommand(`hps-conformance client --run ${JSON.stringify(o.command)}`, seed);
    const rules = rulesOfSide('client').map((rule) => decideRule(rule, judgements.get(rule.id) ?? { checks: [] }, replay));
    const report = buildSideReport({ side: 'client', baseUrl: chaos.url, embedded: true, seed, startedAt, rules, requests: chaos.log.length });
    const reportDir = writeSideReport(o.reportDir, report);
    log(`command: exit ${outcome.exitCode ?? 'none'}${outcome.timedOut ? ' (deadline reached, killed)' : ''} after ${(outcome.durationMs / 1000).toFixed(1)} s · ${chaos.log.length} requests · ${chaos.log.filter((r) => r.injected).length} failures injected`);
    printSideSummary(report, reportDir, log);
    const exitCode = chaos.log.length === 0 ? 1 : exitCodeOf(report);
    if (chaos.log.length === 0) log('not a certification: the command made no request to HPS_BASE_URL');
    return { report, exitCode, reportDir, log: chaos.log, command: outcome };
  } finally {
    await reference.close();
    await chaos.close();
  }
}

/** One note per injected failure: the operation's requests, the failure marked. */
function sequenceNotes(log: readonly RecordedRequest[]): Array<{ kind: 'note'; message: string }> {
  return log.filter((r) => r.injected).slice(0, 40).map((r) => {
    const next = log.filter((x) => x.seq > r.seq && x.identity === r.identity).slice(0, 3);
    const rest = next.map((x) => `#${x.seq} +${x.arrivedMs} ms key=${x.idempotencyKey ?? '(none)'} → ${x.status ?? 'no answer'}`).join('; ');
    return { kind: 'note', message: `${r.method} ${r.path.split('?')[0]}: #${r.seq} +${r.arrivedMs} ms key=${r.idempotencyKey ?? '(none)'} → ${describeInjection(r.injected!).toUpperCase()}${rest ? `; then ${rest}` : '; not re-sent'}` };
  });
}

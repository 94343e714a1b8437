/**
 * `hps-conformance proxy`: the validating proxy. The merchant points its application at it; every
 * exchange is relayed to the upstream (staging, or the embedded reference server) unchanged and
 * judged (proxy-app.ts). It stops when told (SIGINT/SIGTERM), at the end of `--duration`, or when
 * the `--run` command ends, and writes DIR/report.json (the application: the client rules),
 * DIR/service/report.json (the service's answers: the ambient response rules), their renderings,
 * and DIR/traffic.har, streamed while it runs.
 */
import { persistReport } from '../../results/verdict/persist-report.ts';
import { join } from 'node:path';
import { inertLine } from '../../core/inert.ts';
import { redactText, registerSecrets, stripUserInfo, userInfoSecrets } from '../../core/redact.ts';
import { EXIT, HarnessError } from '../../core/errors.ts';
import { checkOutputDir } from '../../core/output-path.ts';
import { preflightUpstream } from '../../core/targets/preflight.ts';
import { startReferenceServer, type RunningReference } from '../../core/targets/reference-server.ts';
import { printSideSummary, writeSideReport } from '../../results/verdict/side-report.ts';
import { applySidePolicy, type SidePolicy } from '../../results/verdict/side-policy.ts';
import { HOOKS_PATH } from './chaos-server.ts';
import { commandStatusLine, printCommandTail, runMerchantCommand, type CommandOutcome } from './command.ts';
import { HarWriter } from './har.ts';
import { listenLoopback, type LoopbackServer } from '../../core/loopback-server.ts';
import { ProxyApp } from './proxy-app.ts';
import { notJudgedWords, type QueueBound } from './judge-queue.ts';
import { applicationReport, serviceReport } from './proxy-report.ts';
import { ProxyTraffic } from './proxy-traffic.ts';
import { ProxyMetrics } from './proxy-metrics.ts';
import { MetricsPublisher, type MetricsOutputs } from '../../core/metrics-publish.ts';

export interface ProxyOptions {
  /** The service's base URL (paths are relayed as they come); absent: the embedded reference server. */
  upstream?: string;
  port?: number;
  durationMs?: number;
  /** Run this command with HPS_BASE_URL (the proxy) and, on the embedded reference, HPS_API_KEY; stop when it ends. */
  run?: string;
  cwd?: string;
  env?: Record<string, string>;
  reportDir: string;
  /** traffic.har's bound in bytes (0: none; default DEFAULT_HAR_MAX_BYTES): the oldest entries are dropped and counted. */
  harMaxBytes?: number;
  policy?: SidePolicy;
  log?: (line: string) => void;
  /** The live line (stderr by default); called about once a second. */
  live?: (line: string) => void;
  /** Resolves when the proxy should stop (tests); SIGINT/SIGTERM also stop it. */
  stop?: Promise<void>;
  /** `--metrics-port N` / `--out prometheus-rw=URL`: the proxy's metrics (proxy-metrics.ts). */
  metrics?: MetricsOutputs;
  /** The judging queue's bound (default JUDGE_QUEUE_BOUND; tests make it small). */
  judgeQueue?: QueueBound;
}

export interface ProxyResult {
  exitCode: number;
  serviceExitCode: number;
  reportDir: string;
  exchanges: number;
  harEntries: number;
}

export async function runProxy(o: ProxyOptions): Promise<ProxyResult> {
  const out = o.log ?? ((l: string) => console.log(l));
  // Every line printed is redacted and inert (core/inert.ts): a rule's reason or the command's output may quote the service.
  const log = (l: string) => out(inertLine(redactText(l)));
  // As `run` and `load` do: a --report that cannot be made or written is one line and exit 2, before anything starts.
  const dir = checkOutputDir(o.reportDir);
  checkOutputDir(join(dir, 'service'));
  const appKey = o.env?.HPS_API_KEY ?? process.env.HPS_API_KEY;
  // As `run`'s preflight: one read before anything is relayed (unreachable, garbage, no /v1 route: exit 3; the key refused: exit 2).
  if (o.upstream) await preflightUpstream(o.upstream.replace(/\/+$/, ''), appKey);
  const startedAt = new Date();
  const har = new HarWriter(join(dir, 'traffic.har'), o.harMaxBytes);
  const traffic = new ProxyTraffic();
  if (o.metrics) traffic.metrics = new ProxyMetrics();
  let origin = '';
  const app = new ProxyApp(traffic, har, () => origin, o.judgeQueue);
  const server = await listen(app, o.port ?? 0);
  origin = server.url;
  const reference = o.upstream ? undefined : await startReferenceServer({ webhookBaseUrl: `${origin}${HOOKS_PATH}` }).catch(async (e: unknown) => {
    await server.close();
    throw e;
  });
  const upstream = (o.upstream ?? reference!.url).replace(/\/+$/, '');
  app.upstream = upstream;
  // The embedded reference's key, the application's and --upstream's user-info: redacted wherever they would be printed or written.
  const unregister = registerSecrets([
    ...(reference ? [reference.profile.keys.test] : []), ...(appKey ? [appKey] : []), ...userInfoSecrets(upstream),
  ]);
  log(`hps-conformance proxy: ${origin} → ${redactText(upstream)}${reference ? ' (embedded reference server)' : ''} · traffic.har and ` +
    `the reports in ${dir}`);
  let metrics: MetricsPublisher | null = null;
  let ticks = 0;
  const live = setInterval(
    () => (o.live ?? liveLine(++ticks))(`proxy: ${traffic.exchanges} exchanges · ${traffic.clientCount} client(s) ` +
      `· ${traffic.findingCount} response finding(s) · ${Math.round((Date.now() - startedAt.getTime()) / 1000)} s`),
    1000,
  );
  try {
    if (traffic.metrics) metrics = await MetricsPublisher.start(() => traffic.metrics!.registry, o.metrics!, log);
    const command = await until(o, origin, reference);
    // What still waits is judged before the reports are written; what the full queue turned away is counted in them.
    app.queue.drain();
    traffic.notJudged = { count: app.queue.notJudged, bound: app.queue.bound };
    har.notWritten = app.queue.notJudged;
    // The reports name the upstream without its user-info (as `run` names a base URL).
    return finish(o, { dir, startedAt, upstream: stripUserInfo(upstream), traffic, har, command, log, embedded: reference !== undefined });
  } finally {
    clearInterval(live);
    await metrics?.stop();
    await server.close();
    await app.close();
    har.close();
    await reference?.close();
    unregister();
  }
}

/** Waits for the end: the command's, the duration's, a signal's or the caller's. */
async function until(o: ProxyOptions, origin: string, reference: RunningReference | undefined): Promise<CommandOutcome | undefined> {
  const ends: Array<Promise<CommandOutcome | undefined>> = [];
  let onSignal = () => {};
  ends.push(new Promise((r) => (onSignal = () => r(undefined))));
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  if (o.durationMs !== undefined) ends.push(new Promise((r) => setTimeout(() => r(undefined), o.durationMs).unref()));
  if (o.stop) ends.push(o.stop.then(() => undefined));
  if (o.run) {
    const env = { ...o.env, HPS_BASE_URL: origin, ...(reference ? { HPS_API_KEY: reference.profile.keys.test } : {}) };
    ends.push(runMerchantCommand(o.run, env, o.durationMs ?? 3_600_000, (s) => redactText(s), o.cwd));
  }
  try {
    return await Promise.race(ends);
  } finally {
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
  }
}

interface Finished {
  dir: string; startedAt: Date; upstream: string; traffic: ProxyTraffic; har: HarWriter; command: CommandOutcome | undefined; log: (l: string) => void; embedded: boolean;
}

function finish(o: ProxyOptions, f: Finished): ProxyResult {
  const client = applicationReport(
    f.traffic,
    { baseUrl: f.upstream, embedded: f.embedded, startedAt: f.startedAt, command: o.run, outcome: f.command },
  );
  const t = f.traffic;
  const nothingRelayed = t.exchanges > 0 && t.answered === 0 ? `the upstream answered none of the ${t.exchanges} requests ` +
    `(the first: ${t.firstUpstreamFailure}): nothing could be relayed` : undefined;
  const policyExit = applySidePolicy(
    client,
    o.policy ?? {},
    t.exchanges === 0 ? 'the application made 0 requests through the proxy' : nothingRelayed,
  );
  // The upstream's own failure is never the application's: nothing relayed at all is exit 3, as an unreachable target.
  const exitCode = nothingRelayed ? EXIT.target : policyExit;
  writeSideReport(f.dir, client, o.policy?.signKey);
  const service = serviceReport(t, { baseUrl: f.upstream, embedded: f.embedded, startedAt: f.startedAt });
  const serviceExitCode = applySidePolicy(service, {}, t.answered === 0 ? 'no answer was relayed' : undefined);
  // No certificate: ten response rules on relayed traffic certify no class of the service.
  persistReport(join(f.dir, 'service'), service);
  const harDropped = f.har.droppedEntries ? ` (the oldest ${f.har.droppedEntries} dropped to keep its bound, --har-max-mb)` : '';
  f.log(`proxy: ${t.exchanges} exchanges from ${t.clientCount} client(s) · traffic.har ${f.har.entries} ` +
    `entries${harDropped}${t.dropped ? ` · ${t.dropped} requests past the judge's bound of the log (not judged)` : ''}`);
  if (t.notJudged.count) f.log(`proxy: ${notJudgedWords(t.notJudged, t.exchanges)}, nor written to traffic.har: the response rules ` +
    'they would have exercised not tried (the service\'s answers incomplete)');
  if (t.upstreamFailed) f.log(`proxy: the upstream failed ${t.upstreamFailed} of ${t.exchanges} exchanges itself (the first: ` +
    `${t.firstUpstreamFailure}): never evidence against the application, the rules they would have exercised not tried` +
    `${nothingRelayed ? `; ${nothingRelayed} (exit 3)` : ''}`);
  if (f.command) printCommand(f.command, t.exchanges, f.log);
  // No seed (nothing is drawn) and no command of its own: the requests are whatever came through.
  const words = { unit: 'requests through the proxy', seeded: false };
  f.log('the application (client rules):');
  printSideSummary(client, f.dir, f.log, words);
  f.log('the service\'s answers (response rules):');
  printSideSummary(service, join(f.dir, 'service'), f.log, words);
  return { exitCode, serviceExitCode, reportDir: f.dir, exchanges: f.traffic.exchanges, harEntries: f.har.entries };
}

/** As `client --run` prints it: how the command ended, and its output's tail when it failed, timed out or sent nothing. */
function printCommand(outcome: CommandOutcome, exchanges: number, log: (l: string) => void): void {
  log(`${commandStatusLine(outcome)} · ${exchanges} requests through the proxy`);
  if (outcome.exitCode !== 0 || outcome.timedOut || exchanges === 0) printCommandTail(outcome, log);
}

/** The proxy's server; /_hooks (the embedded reference's own deliveries) is swallowed, never relayed or judged. */
function listen(app: ProxyApp, port: number): Promise<LoopbackServer> {
  return listenLoopback(async (req, res) => {
    if ((req.url ?? '').startsWith(HOOKS_PATH)) return void res.writeHead(200).end();
    await app.handle(req, res);
  }, port).catch((e: unknown) => {
    throw new HarnessError('HPS_ERR_USAGE', `proxy: cannot listen on 127.0.0.1:${port}: ${(e as Error).message}`);
  });
}

/** On a terminal the line is rewritten every second; in a log, one line a minute. */
function liveLine(tick: number): (line: string) => void {
  return (line) => {
    if (process.stderr.isTTY) process.stderr.write(`\r${line}\x1b[K`);
    else if (tick % 60 === 0) process.stderr.write(`${line}\n`);
  };
}

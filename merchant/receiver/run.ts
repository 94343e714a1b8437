/**
 * `hps-conformance receiver`: plays the service against a merchant's webhook endpoint. Sends
 * the probes (probes.ts) one at a time in a seeded order while, when an inspect URL is given, the
 * stateful scenarios run beside them (the redeliveries along the retry schedule: redelivery.ts);
 * then reads the inspection until it settles (bounded), judges, and writes the usual report.
 */
import { randomBytes } from 'node:crypto';
import { request } from '../../core/undici.ts';
import { rulesOfSide, type RuleId } from '../../catalogue/index.ts';
import { HarnessError } from '../../core/errors.ts';
import { sideReplayCommand } from '../../results/verdict/replay.ts';
import type { Report } from '../../catalogue/report/model.ts';
import type { ProfileNetwork } from '../../core/network.ts';
import { deliver, receiverHeaders, receiverRoute, useReceiverNetwork } from './deliver.ts';
import { eventIds } from './events.ts';
import { readSettledInspection, type InspectionResult } from './inspect.ts';
import { inspectionSkip, judgeAnswer, judgeFulfilment, judgeNotProcessed, judgeResponseTime, judgeScenario, type Sent } from './judge.ts';
import { startPaymentsStub, truthAfter, type PaymentsStub } from './payments-stub.ts';
import { PROBES, type Probe, type ProbeKit } from './probes.ts';
import { buildSideReport, decideRule, printSideSummary, writeSideReport, type RuleJudgement } from '../../results/verdict/side-report.ts';
import { buildScenarios, signedDelivery, truthAt, type Scenario } from './scenarios.ts';
import { buildStories, type Story } from './stories.ts';
import { judgeStories } from './judge-stories.ts';
import { DEFAULT_DEDUP, windowStatement, type DedupPlan } from './redelivery.ts';
import { applySidePolicy, type SidePolicy } from '../../results/verdict/side-policy.ts';
import { seededRandom, shuffled } from '../../core/seeded-random.ts';

export interface ReceiverRunOptions {
  url: string;
  secret: string;
  inspectUrl?: string;
  seed?: number;
  reportDir?: string;
  /** How to re-run it, for replay lines (the secret never appears: only its variable's name). */
  replayBase: string;
  /** Serve a getPayment stand-in for the run's Payments on this port (payments-stub.ts). */
  paymentsApiPort?: number;
  /** The embedded reference receiver is the target. */
  embedded?: boolean;
  /** `--strict` / `--min-must-coverage` (results/verdict/side-policy.ts). */
  policy?: SidePolicy;
  /** RECV-DEDUPLICATE's redeliveries along the retry schedule (default: immediately, 30 s, 2 min). */
  dedup?: DedupPlan;
  /** The bound on waiting for the inspection to settle (ms; default 60 s). */
  settleTimeoutMs?: number;
  /** Gateway headers and mutual TLS for the receiver's origin (`--header`, `--client-cert`, `--client-key`, `--ca`). */
  network?: ProfileNetwork;
  log?: (line: string) => void;
}

export interface ReceiverRunResult {
  report: Report;
  exitCode: number;
  reportDir: string;
}

const INSPECT_RULES: readonly RuleId[] = [
  'RECV-DEDUPLICATE', 'RECV-ARRIVAL-ORDER', 'RECV-EVENT-STORIES', 'RECV-FULFIL-ON-PAID', 'RECV-REJECTED-NOT-PROCESSED',
];

export async function runReceiver(o: ReceiverRunOptions): Promise<ReceiverRunResult> {
  const log = o.log ?? ((l: string) => console.log(l));
  const seed = o.seed ?? randomBytes(4).readUInt32BE(0) >>> 1;
  const startedAt = new Date();
  useReceiverNetwork({ proxied: o.embedded !== true, origin: new URL(o.url).origin, ...(o.network ? { network: o.network } : {}) });
  await preflight(o.url);
  const stub = o.paymentsApiPort === undefined ? undefined : await startPaymentsStub(o.paymentsApiPort).catch((e: Error) => {
    throw new HarnessError('HPS_ERR_USAGE', `--payments-api-port ${o.paymentsApiPort}: cannot listen (${e.message})`);
  });
  try {
    return await certify(o, seed, startedAt, log, stub);
  } finally {
    await stub?.close();
  }
}

async function certify(
  o: ReceiverRunOptions,
  seed: number,
  startedAt: Date,
  log: (l: string) => void,
  stub: PaymentsStub | undefined,
): Promise<ReceiverRunResult> {
  const random = seededRandom(seed);
  const kit: ProbeKit = {
    secret: o.secret,
    ids: eventIds(),
    now: () => Math.floor(Date.now() / 1000),
    pick: (n) => Math.floor(random() * n),
  };
  log(`hps-conformance receiver: ${o.url} · seed ${seed} · ${PROBES.length} probes${o.inspectUrl ? ' · inspect_url given' : ' · no ' +
    'inspect_url'}${stub ? ` · getPayment stand-in at ${stub.url}` : ''}`);
  // The scenarios (the redeliveries along the retry schedule among them) go on while the probes are sent.
  const scenarios = o.inspectUrl ? buildScenarios(kit, o.dedup ?? DEFAULT_DEDUP) : [];
  if (scenarios.length) log(`RECV-DEDUPLICATE: the same event redelivered along the retry schedule, ${windowStatement(o.dedup ?? DEFAULT_DEDUP).replace(/^proved for /, 'over ')}; the other deliveries go on meanwhile`);
  const scenarioRun = Promise.all(scenarios.map((sc) => runScenario(o.url, kit, stub, sc)));
  // The stories, each on its own Payment, side by side with the probes and the scenarios.
  const stories = o.inspectUrl ? buildStories(kit.ids) : [];
  const titles = stories.map((st) => st.title).join('; ');
  if (stories.length) log(`RECV-EVENT-STORIES: ${stories.length} stories, each on its own Payment, side by side: ${titles}`);
  const storyRun = Promise.all(stories.map((st) => runScenario(o.url, kit, stub, st)));
  const sent: Sent[] = [];
  for (const probe of shuffled(PROBES, random)) {
    const built = probe.build(kit);
    registerTruth(stub, probe, built.event.value);
    sent.push({
      rule: probe.rule,
      name: probe.name,
      expect: probe.expect,
      paymentId: built.event.paymentId,
      probe,
      result: await deliver(o.url, built.delivery),
    });
  }
  const judgements = new Map<string, RuleJudgement>();
  for (const s of sent) {
    const j = judgements.get(s.rule) ?? judgements.set(s.rule, { checks: [], observed: {} }).get(s.rule)!;
    j.checks.push(judgeAnswer(s));
    if (s.expect === 'observe') j.observed![s.name] = s.result.status ?? s.result.transportError;
  }
  const ran = { scenarios, sent: await scenarioRun, stories, told: await storyRun };
  const processing = await judgeProcessing(o, ran, sent, judgements);
  judgements.set('RECV-RESPONSE-TIME', judgeResponseTime([...sent, ...processing.sent]));
  const order = judgements.get('RECV-ARRIVAL-ORDER');
  if (stub && order) order.observed = { ...order.observed, payments_fetched_from_stand_in: stub.fetched() };

  const replay = sideReplayCommand(o.replayBase, seed);
  const rules = rulesOfSide('receiver').map((rule) => decideRule(rule, judgements.get(rule.id) ?? { checks: [] }, replay));
  const requests = sent.length + processing.sent.length + (processing.inspected ? 1 : 0);
  const report = buildSideReport({ side: 'receiver', baseUrl: o.url, embedded: o.embedded ?? false, seed, startedAt, rules, requests });
  const exitCode = applySidePolicy(report, o.policy ?? {}, sent.length === 0 ? '0 deliveries were made' : undefined);
  const reportDir = writeSideReport(o.reportDir, report, o.policy?.signKey);
  printSideSummary(report, reportDir, log);
  return { report, reportDir, exitCode };
}

/** One scenario's deliveries in order, each after its gap, each signed when sent. */
async function runScenario(url: string, kit: ProbeKit, stub: PaymentsStub | undefined, sc: Scenario): Promise<Sent[]> {
  const mine: Sent[] = [];
  for (const [i, st] of sc.steps.entries()) {
    if (st.gapMs > 0) await new Promise((r) => setTimeout(r, st.gapMs));
    // The service's current state when this step is sent: its most advanced event so far (a late payment.created finds it PAID).
    const truth = truthAt(sc.steps, i);
    if (truth) stub?.set(truth);
    mine.push({
      rule: sc.rule,
      name: st.name,
      expect: 'ack',
      paymentId: sc.paymentId,
      result: await deliver(url, signedDelivery(kit, st)),
    });
  }
  return mine;
}

/** Rules whose failure only grows (a count, an effect shown): a FAIL seen before the inspection settled stands. */
const GROWS_ONLY: ReadonlySet<string> = new Set(['RECV-DEDUPLICATE', 'RECV-FULFIL-ON-PAID', 'RECV-REJECTED-NOT-PROCESSED']);

/** The rules judged through the inspection: the scenarios' deliveries, then inspect_url read until it settles (or SKIP / ERROR). */
async function judgeProcessing(
  o: ReceiverRunOptions,
  ran: { scenarios: Scenario[]; sent: Sent[][]; stories: Story[]; told: Sent[][] },
  sent: readonly Sent[],
  judgements: Map<string, RuleJudgement>,
): Promise<{ sent: Sent[]; inspected: boolean }> {
  const scenarioSent = [...ran.sent.flat(), ...ran.told.flat()];
  let inspection: InspectionResult | undefined;
  if (o.inspectUrl) {
    // Awaited: each scenario's first event, and some trace of each story with a payment.paid (a receiver may ignore the rest).
    const traced = ran.stories.filter((st) => st.final === 'PAID').map((st) => ({
      paymentId: st.paymentId,
      eventIds: st.steps.map((x) => x.event.id),
    }));
    const awaited = ran.scenarios.map((sc) => sc.eventId);
    const read = await readSettledInspection(o.inspectUrl, awaited, o.settleTimeoutMs, traced);
    inspection = read.result;
    if (inspection.ok) {
      const { value } = inspection;
      const plan = o.dedup ?? DEFAULT_DEDUP;
      const proof = { window: windowStatement(plan), timeScale: plan.timeScale };
      ran.scenarios.forEach((sc, i) => judgements.set(sc.rule, judgeScenario(sc, ran.sent[i]!, value, proof)));
      judgements.set('RECV-EVENT-STORIES', judgeStories(ran.stories, ran.told, value));
      judgements.set('RECV-FULFIL-ON-PAID', judgeFulfilment([...sent, ...scenarioSent], inspection.value));
      judgements.set('RECV-REJECTED-NOT-PROCESSED', judgeNotProcessed(sent, inspection.value));
      if (!read.settled) notSettled(judgements, read.waitedMs);
    }
  }
  for (const id of INSPECT_RULES) {
    if (judgements.has(id)) continue;
    judgements.set(id, inspection && !inspection.ok
      ? { checks: [{ name: 'read the inspection', state: 'error', message: inspection.problem }] }
      : { checks: [], skipReason: inspectionSkip(inspection) });
  }
  return { sent: scenarioSent, inspected: inspection !== undefined };
}

/** The inspection still changing when the bound passed: what it shows is not final, so nothing but a FAIL that only grows is judged on it. */
function notSettled(judgements: Map<string, RuleJudgement>, waitedMs: number): void {
  for (const id of INSPECT_RULES) {
    const j = judgements.get(id);
    if (!j || (GROWS_ONLY.has(id) && j.checks.some((c) => c.state === 'fail'))) continue;
    const skipReason = `not settled yet (waited ${Math.round(waitedMs / 1000)} s): the inspection still changed, `
      + 'or did not list every event delivered, when --settle-timeout passed; the receiver may still be processing';
    judgements.set(id, { checks: [], skipReason, ...(j.observed ? { observed: j.observed } : {}) });
  }
}

/** What getPayment answers for a probe's Payment: forged, stale and unknown-type claims leave it PENDING. */
function registerTruth(stub: PaymentsStub | undefined, probe: Probe, event: Record<string, unknown>): void {
  const payment = (event.data as { object?: Record<string, unknown> } | undefined)?.object;
  if (!stub || payment?.object !== 'payment') return;
  stub.set(truthAfter(payment, !probe.mustNotFulfil || probe.rule === 'RECV-ACK-EVERY-TYPE'));
}

/** One GET before anything is sent: an endpoint that cannot be reached stops with exit 3 (any HTTP answer will do). */
async function preflight(url: string): Promise<void> {
  try {
    const res = await request(
      url,
      {
        method: 'GET',
        headers: receiverHeaders(url),
        signal: AbortSignal.timeout(10_000),
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
        ...receiverRoute(url),
      },
    );
    await res.body.dump({ limit: 64 * 1024 });
  } catch (e) {
    throw new HarnessError('HPS_ERR_TARGET_UNREACHABLE', `receiver ${url} could not be reached: ${(e as Error).message}`);
  }
}


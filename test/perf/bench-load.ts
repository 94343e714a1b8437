/**
 * npm run bench:load — ratios measured interleaved (A B A B) in one run, on a shared machine:
 *
 *  (wrk, taskset and nginx — NGINX=path to override — must be installed.)
 *
 *  generator  the generator (closed model, every correctness check on) vs wrk, same path and
 *             connections, one core each (taskset), against nginx answering a Payment's exact bytes;
 *  engines    the generator vs its own connections driven bare, bare undici and bare autocannon
 *             on the same path (same pinning);
 *  workers    --workers 2 vs --workers 1 (unpinned: two cores for the generator, nginx competing),
 *             with the arithmetic of what this machine allows (cores, nginx's and the others' CPU),
 *             then both at the same load per worker thread (open model): the split's own cost;
 *  reference  the reference server vs a bare node:http server sending the same bytes (wrk on core 0,
 *             the server on core 1), GET /v1/payments/{id}.
 *
 * Each ratio is the median of the per-round ratios (round i of A over round i of B), with their
 * range; CPU shares (cores, from /proc) are medians too.
 *
 *   tsx test/perf/bench-load.ts [--seconds S per phase, default 3] [--rounds N, default 5]
 *                          [--connections N, default 10] [--only generator,engines,workers,reference]
 */
import { parseArgs } from 'node:util';
import { Client, closeAllPools } from '../../core/client.ts';
import { startReferenceProcess } from '../../core/targets/reference-process.ts';
import { CORES, median, workersCeiling } from './bench-cpu.ts';
import { interleave, k, ratioLine, range, type Results } from './bench-ratios.ts';
import {
  childPhase, freshReference, HAS_PROC, PIN_SERVER, startBareNode, startNginx, WARM_S, wrkPhase, type FreshServer, type PhaseResult, type Server,
} from './bench-targets.ts';

const SECTIONS = ['generator', 'engines', 'workers', 'reference'] as const;

/**
 * The project's goals ("fast and light"): the generator, every check on, at three quarters of wrk
 * on one core; the reference at least as fast as a bare node:http server sending the same bytes,
 * although it authenticates, rate-limits, routes and looks the Payment up where the bare one
 * does none of it (docs/design.md, "Load: where the time goes", says where the rest goes).
 */
const GOALS = { generator: 0.75, reference: 1.0 } as const;
type Section = (typeof SECTIONS)[number];

/**
 * Requests per generator CPU second, --workers 2 over --workers 1: what the second worker cost per
 * request, apart from the cores it could not get.
 */
function perCpuLine(r: Results): string {
  const xs = r.workers2!.map((w2, i) => {
    const w1 = r.workers1![i]!;
    return w2.cpu.client && w1.cpu.client ? w2.rps / w2.cpu.client / (w1.rps / w1.cpu.client) : null;
  }).filter((x): x is number => x !== null);
  if (!xs.length) return '    (no /proc: the generator CPU per request is not available here)';
  return `    per generator CPU second, --workers 2 answered ${(100 * median(xs)).toFixed(0)}% of what --workers 1 answered (100%: splitting the work cost nothing; below it: the split, and three busy parties sharing ${CORES} cores)`;
}

/** The fixed rate of the workers section's second pair, as a share of what --workers 1 reached closed. */
const FIXED_RATE_SHARE = 0.4;

/**
 * --workers 2 at a rate neither saturates, --workers 1 at half of it (open model): each worker
 * thread carries the same load, so the generator's CPU per request compares the split's own cost
 * (the main thread, the merge, the threads' coexistence), apart from the cores the machine lacks
 * and apart from how busy one thread is (a thread at a lower rate pays more per request for each
 * wake-up). With it, what two workers would give with a core each: a projection, said as one.
 */
function fixedRateLine(f: Results, rate: number): string {
  const perReq = (x: PhaseResult): number | null => (x.cpu.client && x.rps ? (x.cpu.client / x.rps) * 1e6 : null);
  const rounds = f.fixed1!.map((
    a,
    i,
  ) => ({
    a: perReq(a),
    b: perReq(f.fixed2![i]!),
    reached: Math.min((2 * a.rps) / rate, f.fixed2![i]!.rps / rate),
  })).filter((x): x is { a: number; b: number; reached: number } => x.a !== null && x.b !== null);
  if (!rounds.length) return '    (no /proc: the fixed-rate comparison is not available here)';
  const [one, two] = [median(rounds.map((x) => x.a)), median(rounds.map((x) => x.b))];
  const eff = median(rounds.map((x) => x.a / x.b));
  return [
    `    at the same load per worker thread (open model: --workers 2 at ${k(rate)} req/s, ${(100 * FIXED_RATE_SHARE).toFixed(0)}% of --workers 1 closed, --workers 1 at half; reached ${(100 * median(rounds.map((x) => x.reached))).toFixed(0)}%): generator CPU per request --workers 1 ${one.toFixed(1)} µs, --workers 2 ${two.toFixed(1)} µs (ratio range ${range(rounds.map((x) => x.a / x.b))})`,
    `    so the split itself costs ${(100 * (1 / eff - 1)).toFixed(0)}% per request; with a core for each worker and a target elsewhere, two workers would answer about ${(2 * eff).toFixed(2)}× one (a projection from CPU per request, not a measured rate)`,
  ].join('\n');
}

function workersArithmetic(r: Results): string {
  const rounds = r.workers1!.map((w1, i) => ({ w1, w2: r.workers2![i]!, c: workersCeiling(w1, r.workers2![i]!, CORES) }));
  const ok = rounds.filter((x): x is typeof x & { c: NonNullable<typeof x.c> } => x.c !== null);
  if (!ok.length) return '    (no /proc: the CPU arithmetic is not available here)';
  const med = (f: (c: (typeof ok)[number]) => number): number => median(ok.map(f));
  const [g, n, i] = [med((x) => x.c.g) * 1e6, med((x) => x.c.n) * 1e6, med((x) => x.c.i) * 1e6];
  const free = med((x) => x.c.free);
  const reached = med((x) => x.w2.rps / x.w1.rps / x.c.ceiling);
  return [
    `    CPU per request at --workers 1: generator ${g.toFixed(1)} µs, nginx ${n.toFixed(1)} µs, interrupts ${i.toFixed(1)} µs: nginx + interrupts take ${((100 * (n + i)) / (g + n + i)).toFixed(0)}% of each request's CPU`,
    `    had --workers 1 a whole core (and every core been free): at most ${CORES} × ${g.toFixed(1)} / ${(g + n + i).toFixed(1)} = ${med((x) => x.c.wholeCoreCeiling).toFixed(2)}×; in this run other jobs left ${free.toFixed(2)} cores: at most ${med((x) => x.c.ceiling).toFixed(2)}×, of which --workers 2 reached ${(100 * reached).toFixed(0)}%`,
    perCpuLine(r),
    `    1.7× needs ${med((x) => x.c.coresFor17).toFixed(2)} cores, or nginx + interrupts at ≤ ${(med((x) => x.c.targetFor17) * 1e6).toFixed(1)} µs per request on ${CORES} (measured ${(n + i).toFixed(1)} µs)`,
  ].join('\n');
}

/** A word when other jobs held much of the machine: then the ratios say more about scheduling than code. */
function busyNote(all: Results[]): string | null {
  const others = all.flatMap((r) => Object.values(r).flatMap((rs) => rs.map((x) => x.cpu.others))).filter((x): x is number => x !== null);
  if (!others.length) return null;
  const m = median(others);
  return m > 0.25 ? `(busy machine: other jobs used a median ${m.toFixed(2)} of ${CORES} cores during the phases; pinned phases shared their cores with them, so the rates and their ratios carry that noise: the per-CPU-second ratios and the arithmetic above are steadier)` : null;
}

interface Target {
  nginx: Server;
  /** What the bare server answers: the reference's answer to the read, bytes and headers. */
  bareBody: string;
  bareHeaders: Record<string, string>;
  id: string;
  key: string;
}

/** One section's phases, interleaved; the printed lines and the results (for the busy note). */
async function runSection(
  s: Section,
  t: Target,
  rounds: number,
  seconds: number,
  connections: number,
): Promise<{ text: string; r: Results }> {
  const path = `/v1/payments/${t.id}`;
  const phase = (
    engine: string,
    extra: Record<string, unknown> = {},
  ) => ({ engine, url: t.nginx.url, id: t.id, key: t.key, connections, seconds, ...extra });
  const gen = () => childPhase(phase('generator'), true, t.nginx.pid);
  if (s === 'generator') {
    const r = await interleave(
      rounds,
      { generator: gen, wrk: () => wrkPhase(t.nginx.url + path, t.key, connections, seconds, t.nginx.pid) },
    );
    return { r, text: ratioLine('generator vs wrk (nginx, one core each)', r, 'generator', 'wrk', GOALS.generator, 'client') };
  }
  if (s === 'engines') {
    const bare = (engine: string) => () => childPhase(phase(engine), true, t.nginx.pid);
    const r = await interleave(rounds, { generator: gen, http1: bare('http1'), undici: bare('undici'), autocannon: bare('autocannon') });
    const lines = [
      ratioLine(
        "generator vs its own connections driven bare (what checks, histograms and request building cost; nginx, one core each)",
        r,
        'generator',
        'http1',
        0.8,
        'client',
      ),
      ratioLine('generator vs bare undici (nginx, one core each)', r, 'generator', 'undici', 0.8, 'client'),
      ratioLine('generator vs bare autocannon (nginx, one core each)', r, 'generator', 'autocannon', 0.8, 'client'),
    ];
    return { r, text: lines.join('\n') };
  }
  if (s === 'workers') {
    const r = await interleave(rounds, { workers2: () => childPhase(phase('workers', { workers: 2 }), false, t.nginx.pid), workers1: () => childPhase(phase('workers', { workers: 1 }), false, t.nginx.pid) });
    // The same split below saturation: at a fixed rate both can reach, what a request costs the generator.
    const rate = Math.round((FIXED_RATE_SHARE * median(r.workers1!.map((x) => x.rps))) / 1000) * 1000;
    // Each worker gets the same load in both: --workers 2 at the rate, --workers 1 at half of it.
    const f = await interleave(rounds, { fixed2: () => childPhase(phase('workers', { workers: 2, rate }), false, t.nginx.pid), fixed1: () => childPhase(phase('workers', { workers: 1, rate: rate / 2 }), false, t.nginx.pid) });
    return { r: { ...r, ...f }, text: `${ratioLine('--workers 2 vs 1 (generator unpinned, nginx on core 1)', r, 'workers2', 'workers1', 1.7)}\n${workersArithmetic(r)}\n${fixedRateLine(f, rate)}` };
  }
  // Each round starts both servers afresh and warms them up unmeasured: how fast one node
  // process runs the same code varies from process to process (62–88k req/s seen for the
  // reference, whatever ran before), so one long-lived process would count its luck in
  // every round; fresh ones make it one sample per round, and the median sees through it.
  const fresh = (start: () => Promise<FreshServer>) => async (): Promise<PhaseResult> => {
    const server = await start();
    try {
      await wrkPhase(server.url + server.path, server.key, connections, WARM_S, server.pid);
      return await wrkPhase(server.url + server.path, server.key, connections, seconds, server.pid);
    } finally {
      await server.stop();
    }
  };
  const r = await interleave(rounds, { reference: fresh(freshReference), bare: fresh(async () => ({ ...(await startBareNode(t.bareBody, t.bareHeaders)), path, key: t.key })) });
  const label = 'reference vs bare node:http (wrk on core 0, server on core 1)';
  return { r, text: ratioLine(label, r, 'reference', 'bare', GOALS.reference, 'server') };
}

function parseOptions(): { seconds: number; rounds: number; connections: number; only: Section[] } | null {
  const { values } = parseArgs({
    options: { seconds: { type: 'string' }, rounds: { type: 'string' }, connections: { type: 'string' }, only: { type: 'string' } },
    strict: true,
  });
  const seconds = Number(values.seconds ?? 3);
  const rounds = Number(values.rounds ?? 5);
  const connections = Number(values.connections ?? 10);
  const only = (values.only ?? SECTIONS.join(',')).split(',') as Section[];
  if (![seconds, rounds, connections].every((x) => Number.isInteger(x) && x >= 1 && x <= 60) || !only.every((s) => SECTIONS.includes(s))) {
    console.error(`bench:load: --seconds, --rounds and --connections are integers from 1 to 60; --only takes ${SECTIONS.join(',')}`);
    return null;
  }
  return { seconds, rounds, connections, only };
}

async function main(): Promise<number> {
  const o = parseOptions();
  if (o === null) return 2;
  const reference = await startReferenceProcess(PIN_SERVER);
  let nginx: Server | null = null;
  try {
    const key = reference.profile.keys.test;
    const client = new Client({ baseUrl: reference.profile.base_url, secrets: [key] });
    const created = await client.createPayment(key, { amount: '100.00', metadata: { conformance_run: 'bench-load' } });
    if (created.status !== 201) throw new Error(`could not create the payment to read (${created.status})`);
    const id = created.json.id as string;
    const got = await client.getPayment(key, id);
    const headers: Record<string, string> = {};
    for (const h of ['content-type', 'cache-control', 'request-id']) if (got.headers[h]) headers[h] = String(got.headers[h]);
    nginx = await startNginx(got.text, { 'cache-control': 'no-store', 'request-id': headers['request-id'] ?? 'req_x' });
    const t: Target = { nginx, bareBody: got.text, bareHeaders: headers, id, key };
    console.log(`bench:load · ${o.rounds} rounds × ${o.seconds} s per phase, interleaved · ${o.connections} connections · GET /v1/payments/{id} · pinned phases: client on core 0, server on core 1 (taskset)`);
    if (!HAS_PROC) console.log('(no /proc here: CPU shares are not measured)');
    const all: Results[] = [];
    for (const s of o.only) {
      const { text, r } = await runSection(s, t, o.rounds, o.seconds, o.connections);
      console.log(text);
      all.push(r);
    }
    const busy = busyNote(all);
    if (busy) console.log(busy);
    console.log('(a shared, noisy machine: ratios of interleaved phases, not absolute numbers; cores = CPU seconds per second from /proc; interrupts = irq + softirq, mostly loopback TCP; others = every other process)');
    return 0;
  } finally {
    nginx?.stop();
    await closeAllPools();
    await reference.close();
  }
}

process.exitCode = await main();

/**
 * The flags of `hps-conformance load`, checked before anything starts: every bad value is one
 * usage line (exit 2). Every run is bounded in time (--duration), concurrency (--connections)
 * and total requests (--max-requests, hard cap MAX_REQUESTS_CAP).
 */
import { HarnessError } from '../core/errors.ts';
import { remoteWriteUrl, type MetricsOutputs } from '../core/metrics-publish.ts';
import type { Profile } from '../core/profile.ts';
import type { Arrivals } from './arrivals.ts';
import { parseThresholdExpression } from './threshold-expressions.ts';
import { MIXES, parseMix, SCENARIO_NAMES, type Op, type ScenarioName } from './scenarios.ts';
import { defaultWorkers } from './workers.ts';

export const LIMITS = {
  durationDefault: 10,
  durationMax: 300,
  connectionsDefault: 10,
  connectionsMax: 256,
  rateMax: 1_000_000,
  warmupDefault: 1,
  warmupMax: 60,
  workersMax: 64,
  shardsMax: 1000,
  /** Hard cap on the requests of one run, whatever the flags say. */
  maxRequestsCap: 1_000_000,
} as const;

export const THRESHOLD_DEFAULTS = { maxP99Ms: 250, minRps: 0, maxErrorRate: 0.01 } as const;

export interface Thresholds {
  /** Overall p99 latency must not exceed this (ms). */
  maxP99Ms: number;
  /** Mean throughput must reach this (req/s); 0 = off. */
  minRps: number;
  /** (non-2xx + time-outs + connection errors) / attempts must not exceed this. */
  maxErrorRate: number;
  /** The open model's rate shortfall is reported but does not fail the run. */
  allowShort: boolean;
  /** `--threshold EXPR`, each checked (threshold-expressions.ts); absent in older load.json. */
  expressions?: string[];
}

export interface LoadOptions {
  profilePath?: string;
  /** A target built from flags (`--base-url --key-env`), instead of a profile file. */
  profile?: Profile;
  scenario: ScenarioName;
  durationS: number;
  connections: number;
  /** Open model: requests due per second over all connections (this shard's share of it with --shard); undefined = closed model. */
  rate?: number;
  arrivals: Arrivals;
  mix: Record<Op, number>;
  warmupS: number;
  workers: number;
  /** `--shard i/N` (1-based i). */
  shard?: { index: number; count: number };
  /** Prefix of every key of the run (default: a fresh run id). */
  runId?: string;
  maxRequests: number;
  /** Closed model: after a 429, a connection waits its Retry-After before the next request. */
  honourRetryAfter: boolean;
  reportDir?: string;
  thresholds: Thresholds;
  /** Seconds per interval of the live line and of `--out ndjson` (default 1). */
  intervalS: number;
  /** `--out ndjson=FILE`: one line per interval while the run goes. */
  ndjsonFile?: string;
  /** `--metrics-port N`, `--out prometheus-rw=URL`, `--metrics-hold DUR` (core/metrics-publish.ts); absent: no metrics. */
  metrics?: MetricsOutputs & { holdS: number };
}

type Raw = Record<string, string | boolean | string[] | undefined>;

function usage(message: string): HarnessError {
  return new HarnessError('HPS_ERR_USAGE', message);
}

function str(o: Raw, name: string): string | undefined {
  const v = o[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v.length === 0) throw usage(`--${name}: needs a value`);
  return v;
}

function int(o: Raw, name: string, min: number, max: number): number | undefined {
  const v = str(o, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
    throw usage(`--${name} ${JSON.stringify(v)}: must be an integer from ${min} to ${max}`);
  }
  return Number(v);
}

function num(o: Raw, name: string, min: number, max: number): number | undefined {
  const v = str(o, name);
  if (v === undefined) return undefined;
  if (!/^\d+(\.\d+)?(e\d+)?$/i.test(v) || !Number.isFinite(Number(v)) || Number(v) < min || Number(v) > max) {
    throw usage(`--${name} ${JSON.stringify(v)}: must be a number from ${min} to ${max}`);
  }
  return Number(v);
}

/**
 * A duration as k6 users write it: `30s`, `5m`, `1500ms`, `1m30s`, or a bare number of seconds
 * (as before); within [min, max] seconds. Returns seconds (fractional for ms).
 */
export function durationOption(o: Raw, name: string, min: number, max: number): number | undefined {
  const v = str(o, name);
  if (v === undefined) return undefined;
  const bad = () => usage(`--${name} ${JSON.stringify(v)}: must be a duration from ${min} s to ${max} s, like 30s, 5m, 1500ms, 1m30s or ` +
    `a number of seconds`);
  let seconds = 0;
  if (/^\d+(\.\d+)?$/.test(v)) seconds = Number(v);
  else {
    const parts = /^(?:(\d+)h)?(?:(\d+)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+)ms)?$/.exec(v);
    if (!parts || parts.slice(1).every((p) => p === undefined)) throw bad();
    seconds = Number(parts[1] ?? 0) * 3600 + Number(parts[2] ?? 0) * 60 + Number(parts[3] ?? 0) + Number(parts[4] ?? 0) / 1000;
  }
  if (!Number.isFinite(seconds) || seconds < min || seconds > max) throw bad();
  return seconds;
}

export function parseLoadOptions(o: Raw): LoadOptions {
  const scenario = str(o, 'scenario') ?? 'mixed';
  if (!(SCENARIO_NAMES as readonly string[]).includes(scenario)) {
    throw usage(`--scenario ${JSON.stringify(scenario)}: must be one of ${SCENARIO_NAMES.join(', ')}`);
  }
  const durationS = durationOption(o, 'duration', 1, LIMITS.durationMax) ?? LIMITS.durationDefault;
  const connections = int(o, 'connections', 1, LIMITS.connectionsMax) ?? LIMITS.connectionsDefault;
  const rate = num(o, 'rate', 0.1, LIMITS.rateMax);
  const arrivals = str(o, 'arrivals') ?? 'constant';
  if (arrivals !== 'constant' && arrivals !== 'poisson') throw usage(`--arrivals ${JSON.stringify(arrivals)}: must be constant or poisson`);
  if (o.arrivals !== undefined && rate === undefined) throw usage('--arrivals: needs --rate (the open model)');
  const mixText = str(o, 'mix');
  const mix = mixText === undefined ? MIXES[scenario as ScenarioName] : parseMix(mixText);
  if (!mix) throw usage(`--mix ${JSON.stringify(mixText)}: must be like create=20,read=70,list=10`);
  if (mixText !== undefined && scenario !== 'mixed') throw usage('--mix: only with --scenario mixed');
  const shard = parseShard(str(o, 'shard'));
  const runId = str(o, 'run-id');
  if (runId !== undefined && !/^[A-Za-z0-9_-]{1,40}$/.test(runId)) throw usage(`--run-id ${JSON.stringify(runId)}: 1 to 40 of A-Z a-z ` +
    `0-9 _ -`);
  if (shard && runId === undefined) throw usage('--shard: needs --run-id ID, the same on every shard of the run (load merge merges the ' +
    'shards of one run)');
  const maxRequests = int(o, 'max-requests', 1, LIMITS.maxRequestsCap) ?? LIMITS.maxRequestsCap;
  if (maxRequests < connections) {
    throw usage(`--max-requests ${maxRequests}: must be at least --connections (${connections})`);
  }
  const honourRetryAfter = o['honour-retry-after'] === true;
  if (honourRetryAfter && rate !== undefined) throw usage('--honour-retry-after: only in the closed model (without --rate); the open ' +
    'model offers its rate whatever the answers, and reports the 429s');
  const thresholds: Thresholds = {
    maxP99Ms: num(o, 'max-p99-ms', 0, 600_000) ?? THRESHOLD_DEFAULTS.maxP99Ms,
    minRps: num(o, 'min-rps', 0, 1e12) ?? THRESHOLD_DEFAULTS.minRps,
    maxErrorRate: num(o, 'max-error-rate', 0, 1) ?? THRESHOLD_DEFAULTS.maxErrorRate,
    allowShort: o['allow-short'] === true,
    ...expressionsOf(o),
  };
  return {
    profilePath: str(o, 'profile'),
    scenario: scenario as ScenarioName,
    durationS,
    connections,
    ...(rate !== undefined ? { rate: shard ? rate / shard.count : rate } : {}),
    arrivals,
    mix,
    warmupS: durationOption(o, 'warmup', 0, LIMITS.warmupMax) ?? LIMITS.warmupDefault,
    workers: int(o, 'workers', 1, LIMITS.workersMax) ?? defaultWorkers(),
    ...(shard ? { shard } : {}),
    ...(runId ? { runId } : {}),
    maxRequests,
    honourRetryAfter,
    reportDir: str(o, 'report'),
    thresholds,
    intervalS: durationOption(o, 'interval', 0.1, 60) ?? 1,
    ...outputsOf(o),
  };
}

/** `--out ndjson=FILE` and `--out prometheus-rw=URL` (repeatable, each kind once), `--metrics-port N`, `--metrics-hold DUR`. */
function outputsOf(o: Raw): Pick<LoadOptions, 'ndjsonFile' | 'metrics'> {
  const given = o.out === undefined ? [] : Array.isArray(o.out) ? o.out : [String(o.out)];
  const kinds = new Map<string, string>();
  for (const v of given) {
    const m = /^(ndjson|prometheus-rw)=(.+)$/.exec(v);
    if (!m) throw usage(`--out ${JSON.stringify(v)}: must be ndjson=FILE or prometheus-rw=URL`);
    if (kinds.has(m[1]!)) throw usage(`--out ${m[1]}: given twice`);
    kinds.set(m[1]!, m[2]!);
  }
  const port = int(o, 'metrics-port', 0, 65535);
  const remoteWrite = kinds.has('prometheus-rw') ? remoteWriteUrl(kinds.get('prometheus-rw')!) : undefined;
  const holdS = durationOption(o, 'metrics-hold', 0, 300);
  if (holdS !== undefined && port === undefined) throw usage('--metrics-hold: needs --metrics-port (it keeps the endpoint up after the ' +
    'run)');
  const metrics = port !== undefined || remoteWrite !== undefined ? {
    metrics: { ...(port !== undefined ? { port } : {}), ...(remoteWrite ? { remoteWrite } : {}), holdS: holdS ?? 0 },
  } : {};
  return { ...(kinds.has('ndjson') ? { ndjsonFile: kinds.get('ndjson')! } : {}), ...metrics };
}

/** `--threshold EXPR` (repeatable): each parsed now, so a bad one is a usage error before anything starts. */
function expressionsOf(o: Raw): { expressions?: string[] } {
  const given = o.threshold;
  if (given === undefined) return {};
  const list = (Array.isArray(given) ? given : [String(given)]).map((t) => parseThresholdExpression(t).text);
  if (list.length > 50) throw usage('--threshold: at most 50');
  return { expressions: list };
}

/** `i/N`, 1 ≤ i ≤ N; `JOB_COMPLETION_INDEX` style 0-based indexes are mapped by the caller. */
export function parseShard(text: string | undefined): { index: number; count: number } | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(text);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || count > LIMITS.shardsMax || index < 1 || index > count) {
    throw usage(`--shard ${JSON.stringify(text)}: must be i/N with 1 ≤ i ≤ N ≤ ${LIMITS.shardsMax}`);
  }
  return { index, count };
}

/**
 * The flags of `hps-conformance load`, checked before anything starts: every bad value is one
 * usage line (exit 2). Every run is bounded in time (--duration), concurrency (--connections)
 * and total requests (--max-requests, hard cap MAX_REQUESTS_CAP).
 */
import { HarnessError } from '../harness/errors.ts';
import { SCENARIO_NAMES, type ScenarioName } from './scenarios.ts';

export const LIMITS = {
  durationDefault: 10,
  durationMax: 300,
  connectionsDefault: 10,
  connectionsMax: 256,
  rateMax: 100_000,
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
}

export interface LoadOptions {
  profilePath?: string;
  scenario: ScenarioName;
  durationS: number;
  connections: number;
  /** Requests per second over all connections (autocannon overallRate); undefined = as fast as it goes. */
  rate?: number;
  maxRequests: number;
  reportDir?: string;
  thresholds: Thresholds;
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

export function parseLoadOptions(o: Raw): LoadOptions {
  const scenario = str(o, 'scenario') ?? 'mixed';
  if (!(SCENARIO_NAMES as readonly string[]).includes(scenario)) {
    throw usage(`--scenario ${JSON.stringify(scenario)}: must be one of ${SCENARIO_NAMES.join(', ')}`);
  }
  const durationS = int(o, 'duration', 1, LIMITS.durationMax) ?? LIMITS.durationDefault;
  const connections = int(o, 'connections', 1, LIMITS.connectionsMax) ?? LIMITS.connectionsDefault;
  const rate = int(o, 'rate', 1, LIMITS.rateMax);
  const maxRequests = int(o, 'max-requests', 1, LIMITS.maxRequestsCap) ?? LIMITS.maxRequestsCap;
  if (maxRequests < connections) {
    throw usage(`--max-requests ${maxRequests}: must be at least --connections (${connections})`);
  }
  const thresholds: Thresholds = {
    maxP99Ms: num(o, 'max-p99-ms', 0, 600_000) ?? THRESHOLD_DEFAULTS.maxP99Ms,
    minRps: num(o, 'min-rps', 0, 1e12) ?? THRESHOLD_DEFAULTS.minRps,
    maxErrorRate: num(o, 'max-error-rate', 0, 1) ?? THRESHOLD_DEFAULTS.maxErrorRate,
  };
  return {
    profilePath: str(o, 'profile'),
    scenario: scenario as ScenarioName,
    durationS,
    connections,
    rate,
    maxRequests,
    reportDir: str(o, 'report'),
    thresholds,
  };
}

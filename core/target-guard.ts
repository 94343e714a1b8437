/**
 * Load against a target that is not this machine: before any request, state the target and the
 * rate, and require `--rate` or `--yes` when the host is neither loopback nor a reserved test
 * address (RFC 5737 / RFC 3849 documentation ranges, RFC 6761 `.test` / `.localhost` names).
 */
import { isIP } from 'node:net';
import { HarnessError } from './errors.ts';
import { stripUserInfo } from './redact.ts';

export interface LoadPlan {
  baseUrl: string;
  /** Requests per second; undefined = as fast as the connections go. */
  rate?: number;
  durationS: number;
  connections: number;
  /** `--yes`: the operator confirmed an unbounded rate against a remote host. */
  yes: boolean;
}

/** Loopback or reserved-for-testing host: load may run there without confirmation. */
export function isLocalOrTestHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.test')) return true;
  if (isIP(h) === 4) return /^127\./.test(h) || /^192\.0\.2\./.test(h) || /^198\.51\.100\./.test(h) || /^203\.0\.113\./.test(h);
  if (isIP(h) === 6) return h === '::1' || /^2001:0?db8:/.test(h) || /^::ffff:127\./.test(h);
  return false;
}

/** The line stating what is about to happen. */
export function describeLoadPlan(p: LoadPlan): string {
  const rate = p.rate !== undefined ? `${p.rate} req/s` : `unbounded (as fast as ${p.connections} connections go)`;
  return `load: target ${stripUserInfo(p.baseUrl)} · rate ${rate} · ${p.durationS} s · ${p.connections} connections`;
}

/** States the plan (through `say`) and refuses an unbounded rate against a remote host without --yes. */
export function guardLoadTarget(p: LoadPlan, say: (line: string) => void): void {
  let host: string;
  try {
    host = new URL(p.baseUrl).hostname;
  } catch {
    throw new HarnessError('HPS_ERR_PROFILE', 'base_url: not a URL');
  }
  say(describeLoadPlan(p));
  if (isLocalOrTestHost(host)) return;
  if (p.rate === undefined && !p.yes) {
    throw new HarnessError(
      'HPS_ERR_USAGE',
      `load: ${host} is not a loopback or test address: give --rate R (requests per second) or --yes to confirm an unbounded rate`,
    );
  }
}

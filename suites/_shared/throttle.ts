/**
 * Bursts on a key until it is throttled (429), the count bound (probes.rate_limit_max_requests,
 * default 200) or the time bound, and the Retry-After they carry: the rate-limit file's probes and
 * MODEL-SEQUENCES' throttled create both use keys.test_rate_limited (A, Test), never a shared key.
 */
import type { ApiResponse } from '../../core/client.ts';
import type { RuleContext } from '../../service/harness/worker/rule-test.ts';

/** Requests in flight at once during a burst. */
const WAVE = 8;
/** A burst stops after this long, whatever the count. */
const BURST_MS = 15_000;

export interface Burst {
  sent: number;
  /** 200 answers before the first 429 (in waves, so within WAVE - 1 of the threshold). */
  ok: number;
  /** Every 429 answered (the burst stops at the wave holding the first). */
  limited: ApiResponse[];
  /** Answers that are neither 200 nor 429 (a valid list request must get one of those). */
  unexpected: ApiResponse[];
  elapsedMs: number;
}

export function maxRequests(t: RuleContext): number {
  return t.profile.probes?.rate_limit_max_requests ?? 200;
}

/** A cheap valid request: GET /payments?limit=1 (payments:read). */
export function probe(t: RuleContext, key: string): Promise<ApiResponse> {
  // acceptThrottle: these probes look for the 429 on purpose (never waited out by the client).
  return t.client.request({ method: 'GET', path: '/v1/payments?limit=1', key, acceptThrottle: true, noRetry: true });
}

/** Requests on `key`, `wave` at a time, until a 429 (or an unexpected answer), the count bound or the time bound. */
export async function burst(t: RuleContext, key: string, wave = WAVE): Promise<Burst> {
  const max = maxRequests(t);
  const started = Date.now();
  const b: Burst = { sent: 0, ok: 0, limited: [], unexpected: [], elapsedMs: 0 };
  while (b.sent < max && Date.now() - started < BURST_MS && b.limited.length === 0 && b.unexpected.length === 0) {
    const n = Math.min(wave, max - b.sent);
    const answers = await Promise.all(Array.from({ length: n }, () => probe(t, key)));
    b.sent += n;
    for (const r of answers) {
      if (r.status === 429) b.limited.push(r);
      else if (r.status === 200) {
        if (b.limited.length === 0) b.ok++;
      } else b.unexpected.push(r);
    }
  }
  b.elapsedMs = Date.now() - started;
  return b;
}

/** The Retry-After of a 429 as whole seconds, or null when it is missing or not a non-negative integer. */
export function retryAfter(res: ApiResponse): number | null {
  const v = res.headers['retry-after'];
  return typeof v === 'string' && /^[0-9]+$/.test(v.trim()) ? Number(v.trim()) : null;
}


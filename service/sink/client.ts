/**
 * A small client for suites in other processes: reads a running sink's `/_sink/` API over HTTP.
 * Every call has a time-out; waitFor polls a bounded number of times within a bounded time.
 */
import { request } from '../../core/undici.ts';
import { filterToSearchParams, type DeliveryFilter } from './delivery-filter.ts';
import { SinkWaitTimeoutError } from './delivery-store.ts';
import type { Delivery, RedirectHit, SinkStats } from './types.ts';
import type { SinkErrorCode } from '../../core/error-codes.ts';

export interface SinkClientOptions {
  /** Sent as `Authorization: Bearer <token>` when the sink has a queryToken. */
  token?: string;
  /** Time-out of each HTTP call, in ms. Default 5 000. */
  requestTimeoutMs?: number;
}

export interface ClientWaitForOptions {
  count: number;
  timeoutMs: number;
  /** Pause between polls, in ms. Default 200. */
  pollMs?: number;
}

export interface SinkClient {
  deliveries(filter?: DeliveryFilter): Promise<Delivery[]>;
  /** Resolves with every matching delivery once there are `count`; rejects with SinkWaitTimeoutError. */
  waitFor(filter: DeliveryFilter, options: ClientWaitForOptions): Promise<Delivery[]>;
  redirectHits(): Promise<RedirectHit[]>;
  health(): Promise<{ ok: boolean } & SinkStats>;
}

/** The sink could not be queried (unreachable, or it answered something else than 200 JSON). */
export class SinkClientError extends Error {
  readonly code = 'SINK_QUERY_FAILED' satisfies SinkErrorCode;
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'SinkClientError';
  }
}

export function sinkClient(baseUrl: string, options: SinkClientOptions = {}): SinkClient {
  const base = baseUrl.replace(/\/+$/, '');
  const timeout = options.requestTimeoutMs ?? 5_000;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;

  async function get<T>(path: string): Promise<T> {
    let response;
    try {
      response = await request(`${base}${path}`, { method: 'GET', headers, headersTimeout: timeout, bodyTimeout: timeout });
    } catch (error) {
      throw new SinkClientError(`GET ${base}${path} failed: ${(error as Error).message}`);
    }
    const text = await response.body.text();
    if (response.statusCode !== 200) {
      throw new SinkClientError(`GET ${base}${path} answered ${response.statusCode}: ${text.slice(0, 200)}`, response.statusCode);
    }
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new SinkClientError(`GET ${base}${path} answered a body that is not JSON`, response.statusCode);
    }
  }

  const deliveries = async (filter: DeliveryFilter = {}): Promise<Delivery[]> => {
    const query = filterToSearchParams(filter).toString();
    const answer = await get<{ deliveries: Delivery[] }>(`/_sink/deliveries${query ? `?${query}` : ''}`);
    return answer.deliveries;
  };

  return {
    deliveries,
    async waitFor(filter, { count, timeoutMs, pollMs = 200 }) {
      const wanted = Math.max(1, count);
      const deadline = Date.now() + timeoutMs;
      const maxPolls = Math.ceil(timeoutMs / Math.max(1, pollMs)) + 1;
      let found: Delivery[] = [];
      for (let poll = 0; poll < maxPolls; poll++) {
        found = await deliveries(filter);
        if (found.length >= wanted) return found;
        const left = deadline - Date.now();
        if (left <= 0) break;
        await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, left)));
      }
      throw new SinkWaitTimeoutError(filter, wanted, found, timeoutMs);
    },
    async redirectHits() {
      return (await get<{ redirectHits: RedirectHit[] }>('/_sink/redirect-hits')).redirectHits;
    },
    health() {
      return get<{ ok: boolean } & SinkStats>('/_sink/health');
    },
  };
}

/**
 * A small Hosted Payment Service API client on undici that follows the spec's client retry
 * guidance (Errors): a create is retried after a network failure, a 429 (after Retry-After) or a
 * 502/503/504, always with the same Idempotency-Key; reads likewise; a cancel only after a 429;
 * other 4xx are final (409 idempotency_in_progress says "retry shortly", so it is retried).
 */
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import type { ClientFaultName } from './faults.ts';

/** A request with no answer after 2 s is given up and retried (a network failure). */
const TIMEOUT_MS = 2_000;
const MAX_ATTEMPTS = 4;
const BACKOFF_MS = 100;
const MAX_RETRY_AFTER_S = 60;

export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string | undefined) {
    super(`HPS API answered ${status}${code ? ` ${code}` : ''}`);
  }
}

type Kind = 'create' | 'read' | 'cancel';

export class HpsClient {
  constructor(private readonly baseUrl: string, private readonly apiKey: string, private readonly faults: ReadonlySet<ClientFaultName> = new Set()) {}

  createPayment(body: Record<string, unknown>): Promise<any> {
    const key = this.faults.has('no-idempotency-key') ? undefined : randomUUID();
    return this.call('create', 'POST', '/v1/payments', (attempt) => JSON.stringify(this.faults.has('changes-body-on-retry') ? { ...body, metadata: { attempt: String(attempt) } } : body), key);
  }

  getPayment(id: string): Promise<any> {
    return this.call('read', 'GET', `/v1/payments/${encodeURIComponent(id)}`);
  }

  listPayments(limit: number): Promise<any> {
    return this.call('read', 'GET', `/v1/payments?limit=${limit}`);
  }

  cancelPayment(id: string): Promise<any> {
    return this.call('cancel', 'POST', `/v1/payments/${encodeURIComponent(id)}/cancel`);
  }

  private async call(kind: Kind, method: string, path: string, bodyOf?: (attempt: number) => string, key?: string): Promise<any> {
    for (let attempt = 1; ; attempt++) {
      const body = bodyOf?.(attempt);
      const attemptKey = key && this.faults.has('new-key-per-retry') && attempt > 1 ? randomUUID() : key;
      let res: { status: number; retryAfter?: string; json: any } | undefined;
      try {
        res = await this.send(method, path, body, attemptKey);
      } catch (e) {
        if (attempt >= MAX_ATTEMPTS || !this.retriesNetworkFailure(kind)) throw e;
        await sleep(BACKOFF_MS * attempt);
        continue;
      }
      if (res.status < 400) return res.json;
      const code = res.json?.error?.code as string | undefined;
      if (attempt >= MAX_ATTEMPTS || !this.retries(kind, res.status, code)) throw new ApiError(res.status, code);
      await sleep(this.delayAfter(res, attempt));
    }
  }

  private delayAfter(res: { status: number; retryAfter?: string }, attempt: number): number {
    if (res.status !== 429 || this.faults.has('ignores-retry-after')) return BACKOFF_MS * attempt;
    return this.faults.has('backs-off-1s-ignoring-retry-after') ? 1000 : retryAfterMs(res.retryAfter);
  }

  private retriesNetworkFailure(kind: Kind): boolean {
    return kind !== 'cancel' || this.faults.has('retries-cancel-on-503');
  }

  private retries(kind: Kind, status: number, code: string | undefined): boolean {
    if (status === 429) return true;
    if (this.faults.has('retries-400') && status === 400) return true;
    if (kind === 'cancel') return (this.faults.has('retries-cancel-on-503') && status >= 500) || (this.faults.has('retries-cancel-on-500') && status === 500);
    if (status === 409 && code === 'idempotency_in_progress') return kind === 'create';
    if (status === 502 && this.faults.has('gives-up-after-first-502')) return false;
    return status === 502 || status === 503 || status === 504;
  }

  private async send(method: string, path: string, body: string | undefined, key: string | undefined) {
    const headers: Record<string, string> = { authorization: `Bearer ${this.apiKey}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (key) headers['idempotency-key'] = key;
    const res = await request(`${this.baseUrl}${path}`, { method, headers, body, signal: AbortSignal.timeout(TIMEOUT_MS), headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS });
    const text = await res.body.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const ra = res.headers['retry-after'];
    return { status: res.statusCode, retryAfter: Array.isArray(ra) ? ra[0] : ra, json };
  }
}

function retryAfterMs(value: string | undefined): number {
  const s = value !== undefined && /^\d+$/.test(value) ? Number(value) : 1;
  return Math.min(s, MAX_RETRY_AFTER_S) * 1000;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

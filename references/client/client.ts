/**
 * A small Hosted Payment Service API client on undici that follows the spec's client retry
 * guidance (Errors): a create is retried after a network failure, a 429 (after Retry-After) or a
 * 502/503/504, always with the same Idempotency-Key; reads likewise; a cancel only after a 429;
 * other 4xx are final (409 idempotency_in_progress says "retry shortly", so it is retried).
 *
 * Each retry decision is a small named step (its `check` is what a correct client does); the
 * planted faults of faults.ts are overrides in the step's `faulty` table (steps.ts).
 */
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { checkOf, type ClientFaultName, type PlantingStep, type Step } from './steps.ts';

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

/** The Idempotency-Key of a create: one per create, kept by all its attempts. */
const CREATE_KEY: Step<void, string | undefined> = {
  name: 'every create carries an Idempotency-Key',
  check: () => randomUUID(),
  faulty: {
    'no-idempotency-key': {
      does: 'Creates carry no Idempotency-Key at all (it is optional), so a retry after a lost answer creates a second Payment.',
      breaks: ['CLIENT-CREATE-HAS-KEY'],
      violates: ['endpoints.op.createPayment#key-recommended'],
      plant: () => undefined,
    },
  },
};

/** The body of one attempt of a create: the same bytes every time. */
const CREATE_BODY: Step<{ readonly body: Record<string, unknown>; readonly attempt: number }, string> = {
  name: 'every attempt of a create sends the same body',
  check: ({ body }) => JSON.stringify(body),
  faulty: {
    'changes-body-on-retry': {
      does: 'Each attempt of a create stamps metadata.attempt with its number, so a retry under the same key is another body (409 idempotency_conflict).',
      breaks: ['CLIENT-SAME-IDEMPOTENCY-KEY'],
      violates: ['errors.retry.create#same-key'],
      plant: ({ body, attempt }) => JSON.stringify({ ...body, metadata: { attempt: String(attempt) } }),
    },
  },
};

/** The Idempotency-Key of one attempt. */
const ATTEMPT_KEY: Step<{ readonly key: string | undefined; readonly attempt: number }, string | undefined> = {
  name: 'a retry keeps the Idempotency-Key of the first attempt',
  check: ({ key }) => key,
  faulty: {
    'new-key-per-retry': {
      does: 'Each attempt of a create generates a fresh Idempotency-Key, so a retry after a lost answer creates a second Payment.',
      breaks: ['CLIENT-RETRY-TRANSIENT'],
      violates: ['errors.retry.create#same-key'],
      plant: ({ key, attempt }) => (key && attempt > 1 ? randomUUID() : key),
    },
  },
};

/** How long to wait before the next attempt (faults outermost last: the last listed decides first). */
const DELAY: Step<{ readonly res: { status: number; retryAfter?: string }; readonly attempt: number }, number> = {
  name: 'a 429 waits Retry-After; anything else the growing back-off',
  check: ({ res, attempt }) => (res.status === 429 ? retryAfterMs(res.retryAfter) : BACKOFF_MS * attempt),
  faulty: {
    'backs-off-1s-ignoring-retry-after': {
      does: 'A 429 is retried after a fixed 1 s back-off (the first step of common retry libraries), Retry-After never read.',
      breaks: ['CLIENT-HONOUR-RETRY-AFTER'],
      violates: ['errors.retry.create#after-retry-after'],
      plant: (input, next) => (input.res.status === 429 ? 1000 : next(input)),
    },
    'ignores-retry-after': {
      does: 'A 429 is retried after the ordinary 100 ms back-off, not after Retry-After.',
      breaks: ['CLIENT-HONOUR-RETRY-AFTER'],
      violates: ['errors.retry.create#after-retry-after'],
      plant: ({ attempt }) => BACKOFF_MS * attempt,
    },
  },
};

/** Whether this operation is retried at all (the kind's own decisions below say after what). */
const RETRIED_OPERATION: Step<{ readonly kind: Kind; readonly path: string }, boolean> = {
  name: 'a list read is retried like any other read',
  check: () => true,
  faulty: {
    'never-retries-list': {
      does: 'A list read is never retried (a 429, a time-out or a 503 ends it); the next flow lists the same path later, after other requests.',
      breaks: ['CLIENT-RETRY-TRANSIENT'],
      violates: ['errors.retry.reads'],
      plant: (input, next) => !(input.kind === 'read' && input.path.startsWith('/v1/payments?')) && next(input),
    },
  },
};

/** Whether a network failure (or time-out) is retried. */
const RETRIED_FAILURE: Step<Kind, boolean> = {
  name: 'a cancel is not retried after a network failure',
  check: (kind) => kind !== 'cancel',
  faulty: {
    'retries-cancel-on-503': {
      does: 'Cancels go through the same retry policy as creates, so a cancel is re-sent after a 503.',
      breaks: ['CLIENT-CANCEL-RETRY-ONLY-429'],
      violates: ['errors.retry.cancel-only-429'],
      plant: () => true,
    },
  },
};

/** Whether an error answer is retried (faults outermost last: the last listed decides first). */
const RETRIED_ANSWER: Step<{ readonly kind: Kind; readonly status: number; readonly code: string | undefined }, boolean> = {
  name: 'retried: a 429; a create or read after 502/503/504; a create after 409 idempotency_in_progress',
  check: ({ kind, status, code }) => {
    if (status === 429) return true;
    if (kind === 'cancel') return false;
    if (status === 409 && code === 'idempotency_in_progress') return kind === 'create';
    return status === 502 || status === 503 || status === 504;
  },
  faulty: {
    'gives-up-after-first-502': {
      does: '502 is treated as final (only 503 and 504 are retried).',
      breaks: ['CLIENT-RETRY-TRANSIENT'],
      violates: ['errors.retry.create#retried'],
      plant: (input, next) => (input.kind !== 'cancel' && input.status === 502 ? false : next(input)),
    },
    'retries-cancel-on-500': {
      does: 'A cancel answered 500 internal_error is retried (the error table says "retry"), though a cancel is retried only after a 429.',
      breaks: ['CLIENT-CANCEL-RETRY-ONLY-429'],
      violates: ['errors.retry.cancel-only-429'],
      plant: (input, next) => (input.kind === 'cancel' && input.status === 500) || next(input),
    },
    /* cancels go through the same retry policy as creates, so a cancel is re-sent after a 5xx */
    'retries-cancel-on-503': (input, next) => (input.kind === 'cancel' && input.status >= 500) || next(input),
    'retries-400': {
      does: 'Every error status is retried, 400 included.',
      breaks: ['CLIENT-NO-RETRY-4XX'],
      violates: ['errors.retry.no-other-4xx'],
      plant: (input, next) => input.status === 400 || next(input),
    },
  },
};

export class HpsClient {
  private readonly decide;

  constructor(private readonly baseUrl: string, private readonly apiKey: string, faults: ReadonlySet<ClientFaultName> = new Set()) {
    this.decide = {
      createKey: checkOf(CREATE_KEY, faults),
      createBody: checkOf(CREATE_BODY, faults),
      attemptKey: checkOf(ATTEMPT_KEY, faults),
      delay: checkOf(DELAY, faults),
      retriedOperation: checkOf(RETRIED_OPERATION, faults),
      retriedFailure: checkOf(RETRIED_FAILURE, faults),
      retriedAnswer: checkOf(RETRIED_ANSWER, faults),
    };
  }

  createPayment(body: Record<string, unknown>): Promise<any> {
    return this.call('create', 'POST', '/v1/payments', (attempt) => this.decide.createBody({ body, attempt }), this.decide.createKey());
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
      let res: { status: number; retryAfter?: string; json: any } | undefined;
      try {
        res = await this.send(method, path, body, this.decide.attemptKey({ key, attempt }));
      } catch (e) {
        if (attempt >= MAX_ATTEMPTS || !this.decide.retriedOperation({ kind, path }) || !this.decide.retriedFailure(kind)) throw e;
        await sleep(BACKOFF_MS * attempt);
        continue;
      }
      if (res.status < 400) return res.json;
      const code = res.json?.error?.code as string | undefined;
      if (attempt >= MAX_ATTEMPTS || !this.decide.retriedOperation({ kind, path }) || !this.decide.retriedAnswer({ kind, status: res.status, code })) throw new ApiError(res.status, code);
      await sleep(this.decide.delay({ res, attempt }));
    }
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

/** The steps of this file that plant faults (references/client/faults.ts reads their declarations). */
export const FAULTY_STEPS: readonly PlantingStep[] = [CREATE_KEY, CREATE_BODY, ATTEMPT_KEY, DELAY, RETRIED_OPERATION, RETRIED_FAILURE, RETRIED_ANSWER];

/**
 * The reference receiver: a small, correct merchant webhook endpoint (spec, Events) with the
 * test-mode inspection contract of docs/merchant-side.md.
 *
 *   POST /webhooks   verify (raw bytes, 5-minute window) → 400 on failure; dedupe on event.id;
 *                    payment.* moves the held status forward only; payment.paid fulfils once;
 *                    unknown types are acknowledged and ignored.
 *   (fetch mode: a payment event's Payment is read from the API first and its current status used)
 *   GET  /inspect    {"events":{id:count},"fulfilled":{payment:count},"payments":{payment:status}}
 *
 * The planted faults here are overrides in the `faulty` table of the step they break (steps.ts).
 */
import http from 'node:http';
import { request } from 'undici';
import type { AddressInfo, Socket } from 'node:net';
import { toReceiverFaultSet } from './faults.ts';
import { PAYMENT_EVENTS, ReceiverRecords } from './records.ts';
import { ACKNOWLEDGEMENT, BAD_SIGNATURE, DUPLICATE, UNHANDLED, UNVERIFIED, type ParsedEvent } from './handling-steps.ts';
import { sleep } from './sleep.ts';
import { checkOf, type ReceiverFaultName } from './steps.ts';
import { signatureAccepted } from './verify.ts';

const MAX_BODY_BYTES = 1024 * 1024;

export interface ReferenceReceiverOptions {
  /** The endpoint's signing secret (whsec_…). */
  secret: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  faults?: Iterable<string>;
  /**
   * Fetch mode (spec, Delivery rules 4): act on the Payment's current status read from this API
   * base URL (GET /v1/payments/{id}) instead of the event's snapshot. Needs `apiKey`.
   */
  paymentsApi?: { baseUrl: string; apiKey: string };
  /** Acknowledge first and process this many ms later (a queue-backed receiver). Default 0: in line. */
  processDelayMs?: number;
  /** Clock in ms since the epoch. */
  now?: () => number;
  /** Under the fault `dedups-for-a-minute-only`: how long an event id is remembered (ms; default 60 s). */
  dedupForgetMs?: number;
}

export interface RunningReceiver {
  /** The webhook endpoint URL (…/webhooks). */
  url: string;
  /** The inspection URL (…/inspect). */
  inspectUrl: string;
  records: ReceiverRecords;
  close(): Promise<void>;
}

export async function startReferenceReceiver(opts: ReferenceReceiverOptions): Promise<RunningReceiver> {
  const faults = toReceiverFaultSet(opts.faults);
  const records = new ReceiverRecords(faults);
  const now = opts.now ?? Date.now;
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    handle(req, res, { secret: opts.secret, faults, records, now, timers, paymentsApi: opts.paymentsApi, processDelayMs: opts.processDelayMs ?? 0, dedupForgetMs: opts.dedupForgetMs ?? 60_000 }).catch(() => answer(res, 500, { error: 'internal' }));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port, address } = server.address() as AddressInfo;
  const base = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  return {
    url: `${base}/webhooks`,
    inspectUrl: `${base}/inspect`,
    records,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface Ctx {
  secret: string;
  paymentsApi?: { baseUrl: string; apiKey: string };
  processDelayMs: number;
  dedupForgetMs: number;
  faults: ReadonlySet<ReceiverFaultName>;
  records: ReceiverRecords;
  now: () => number;
  timers: Set<NodeJS.Timeout>;
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse, ctx: Ctx): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  if (req.method === 'GET' && path === '/inspect') return answer(res, 200, ctx.records.inspection());
  if (req.method !== 'POST' || path !== '/webhooks') return answer(res, 404, { error: 'not_found' });
  const raw = await readBody(req);
  if (raw === null) return answer(res, 413, { error: 'too_large' });
  const header = req.headers['service-signature'];
  const event = parseEvent(raw);
  checkOf(UNVERIFIED, ctx.faults)({ records: ctx.records, event });
  if (!signatureAccepted(typeof header === 'string' ? header : undefined, raw, ctx.secret, ctx.now() / 1000, ctx.faults)) {
    return answer(res, checkOf(BAD_SIGNATURE, ctx.faults)(), { error: 'signature_invalid' });
  }
  if (!event) return answer(res, 400, { error: 'not_an_event' });
  if (checkOf(DUPLICATE, ctx.faults)({ records: ctx.records, event, now: ctx.now(), forgetMs: ctx.dedupForgetMs })) return answer(res, 200, { received: true, duplicate: true });
  if (ctx.processDelayMs > 0 && PAYMENT_EVENTS.has(event.type)) {
    answer(res, 200, { received: true, queued: true });
    await sleep(ctx.processDelayMs, ctx.timers);
    if (!ctx.records.seen(event.id)) ctx.records.apply(event, ctx.now());
    return;
  }
  if (ctx.paymentsApi && PAYMENT_EVENTS.has(event.type)) {
    const current = await fetchPayment(ctx.paymentsApi, event.data?.object?.id);
    // Cannot act without the current status: fail the delivery, the service will retry.
    if (!current) return answer(res, 503, { error: 'payment_unavailable' });
    event.data = { object: current };
  }
  const outcome = ctx.records.apply(event, ctx.now());
  const unhandled = outcome === 'ignored' ? checkOf(UNHANDLED, ctx.faults)(event) : null;
  if (unhandled !== null) return answer(res, unhandled.status, unhandled.body);
  await checkOf(ACKNOWLEDGEMENT, ctx.faults)({ event, timers: ctx.timers });
  answer(res, 200, { received: true });
}


function parseEvent(raw: Buffer): ParsedEvent | null {
  try {
    const v = JSON.parse(raw.toString('utf8')) as Partial<ParsedEvent> | null;
    return v && typeof v.id === 'string' && typeof v.type === 'string' ? (v as ParsedEvent) : null;
  } catch {
    return null;
  }
}

async function fetchPayment(api: { baseUrl: string; apiKey: string }, id: unknown): Promise<{ id?: unknown; status?: unknown } | null> {
  if (typeof id !== 'string') return null;
  try {
    const res = await request(`${api.baseUrl}/v1/payments/${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${api.apiKey}` }, signal: AbortSignal.timeout(5000) });
    const text = await res.body.text();
    return res.statusCode === 200 ? (JSON.parse(text) as { id?: unknown; status?: unknown }) : null;
  } catch {
    return null;
  }
}

function readBody(req: http.IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        resolve(null);
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function answer(res: http.ServerResponse, status: number, body: unknown): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}


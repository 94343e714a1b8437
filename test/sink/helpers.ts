/** Shared by the sink's tests: a sink on port 0 with a temp log, and signed deliveries sent with undici. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { signPayload, startSink, type RunningSink, type SinkEndpoint, type SinkOptions } from '../../service/sink/index.ts';

export const SECRETS = {
  testAll: 'whsec_test_all_0123456789',
  testPaid: 'whsec_test_paid_0123456789',
  liveAll: 'whsec_live_all_0123456789',
  disabled: 'whsec_disabled_0123456789',
} as const;

export const ENDPOINTS: SinkEndpoint[] = [
  { path: '/hooks/test-all', livemode: false, events: '*', secret: SECRETS.testAll },
  { path: '/hooks/test-paid', livemode: false, events: ['payment.paid'], secret: SECRETS.testPaid },
  { path: '/hooks/live-all', livemode: true, events: '*', secret: SECRETS.liveAll },
  { path: '/hooks/test-disabled', livemode: false, events: '*', secret: SECRETS.disabled, enabled: false },
];

export function tempDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'hps-sink-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function startTestSink(dir: string, options: Partial<SinkOptions> = {}): Promise<RunningSink> {
  return startSink({ listen: '127.0.0.1:0', endpoints: ENDPOINTS, logFile: join(dir, 'sink.jsonl'), fsync: false, ...options });
}

let counter = 0;

/** A payment event body like a target would send, with an optional `metadata.sink` marker. */
export function paymentEvent(
  options: {
    marker?: string | number; type?: string; livemode?: boolean; eventId?: string; paymentId?: string;
    /** Extra metadata, e.g. per-endpoint plans `sink@<path>`. */
    metadata?: Record<string, unknown>;
  } = {},
): { eventId: string; paymentId: string; body: Buffer } {
  counter++;
  const eventId = options.eventId ?? `evt_test_${process.pid}_${counter}`;
  const paymentId = options.paymentId ?? `pay_test_${process.pid}_${counter}`;
  const livemode = options.livemode ?? false;
  const metadata: Record<string, unknown> = { conformance_run: 'sink-tests' };
  if (options.marker !== undefined) metadata.sink = options.marker;
  Object.assign(metadata, options.metadata);
  const event = {
    id: eventId,
    object: 'event',
    api_version: 'v1',
    type: options.type ?? 'payment.created',
    livemode,
    created_at: '2025-01-01T00:00:00Z',
    data: {
      object: { id: paymentId, object: 'payment', livemode, status: 'PENDING', amount: '10.00', currency: 'BDT', metadata },
    },
  };
  return { eventId, paymentId, body: Buffer.from(JSON.stringify(event)) };
}

export interface SendOptions {
  secret?: string;
  /** Header value to send instead of a correct signature; null sends none. */
  signature?: string | null;
  t?: number;
  method?: string;
  /** Give up (abort, closing the connection) after this many ms. */
  abortAfterMs?: number;
}

/** POSTs `body` to `path` of the sink, signed like the spec's delivery request. */
export async function deliver(sink: RunningSink, path: string, body: Buffer, options: SendOptions = {}) {
  const t = options.t ?? Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'Service-Webhooks/1.0',
  };
  const signature = options.signature === undefined ? signPayload(options.secret ?? SECRETS.testAll, t, body) : options.signature;
  if (signature !== null) headers['service-signature'] = signature;
  const response = await request(`${sink.url}${path}`, {
    method: (options.method ?? 'POST') as 'POST',
    headers,
    body: options.method === 'GET' ? undefined : body,
    headersTimeout: 5_000,
    bodyTimeout: 5_000,
    ...(options.abortAfterMs === undefined ? {} : { signal: AbortSignal.timeout(options.abortAfterMs) }),
  });
  const text = await response.body.text();
  return { status: response.statusCode, headers: response.headers, text };
}

/**
 * One delivery to the receiver under test, as the service sends it (spec, Events › Delivery
 * request): POST, JSON body, Service-Event-ID, Service-Signature, User-Agent Service-Webhooks/1.0.
 * Deadline: the spec's 10-second time-out; the answer's body is capped. Redirects are never followed.
 */
import { request, type Dispatcher } from '../../core/undici.ts';
import { dispatcherFor, dispatcherKey, targetHeaders, viaEnvironmentProxy, type ProfileNetwork } from '../../core/network.ts';
import type { Exchange } from '../../core/client.ts';

export const RESPONSE_TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 64 * 1024;
const MAX_EVIDENCE_BODY = 4096;

export interface Delivery {
  eventId: string;
  body: Buffer;
  /** undefined: no Service-Signature header at all. */
  signature: string | undefined;
}

export interface DeliveryResult {
  status?: number;
  /** Milliseconds from sending to the end of the answer (or to the time-out). */
  ms: number;
  timedOut: boolean;
  transportError?: string;
  exchange: Exchange;
}

let seq = 0;

/**
 * How the receiver under test is reached. A merchant's receiver goes through the environment's proxy
 * (HTTPS_PROXY / HTTP_PROXY / NO_PROXY); our embedded one on loopback is reached directly. Its
 * gateway headers and mutual TLS (`--header`, `--client-cert`, `--client-key`, `--ca`: core/network.ts)
 * go to the receiver's own origin (deliveries, inspection) and nowhere else.
 */
interface ReceiverNetwork {
  readonly proxied: boolean;
  readonly origin?: string;
  readonly network?: ProfileNetwork;
}
let route: ReceiverNetwork = { proxied: true };
let pool: { key: string; dispatcher: Dispatcher } | undefined;

export function useReceiverNetwork(r: ReceiverNetwork): void {
  route = r;
}

/** The dispatcher for a request to `url`: the receiver's own (its TLS material, its proxy headers) on its origin. */
export function receiverRoute(url: string): { dispatcher?: Dispatcher } {
  if (!route.proxied) return {};
  const origin = new URL(url).origin;
  if (route.network === undefined || origin !== route.origin) return viaEnvironmentProxy();
  const key = dispatcherKey(origin, route.network);
  if (pool?.key !== key) pool = { key, dispatcher: dispatcherFor(origin, route.network, 8) };
  return { dispatcher: pool.dispatcher };
}

/** The gateway headers for a request to `url` (lower-case names): on the receiver's origin only. */
export function receiverHeaders(url: string): Record<string, string> {
  return route.network !== undefined && new URL(url).origin === route.origin ? targetHeaders(route.network) : {};
}

export async function deliver(url: string, d: Delivery): Promise<DeliveryResult> {
  const u = new URL(url);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'Service-Webhooks/1.0',
    'service-event-id': d.eventId,
  };
  if (d.signature !== undefined) headers['service-signature'] = d.signature;
  const started = performance.now();
  const exchange: Exchange = {
    seq: ++seq, at: new Date().toISOString(), durationMs: 0,
    request: { method: 'POST', path: `${u.pathname}${u.search}`, headers, body: clip(d.body.toString('utf8')) },
  };
  const signal = AbortSignal.timeout(RESPONSE_TIMEOUT_MS);
  try {
    // The gateway's headers go with the delivery; the evidence records the service's own (a gateway value may be a secret).
    const sent = { ...receiverHeaders(url), ...headers };
    const res = await request(
      url,
      {
        method: 'POST',
        headers: sent,
        body: d.body,
        signal,
        headersTimeout: RESPONSE_TIMEOUT_MS,
        bodyTimeout: RESPONSE_TIMEOUT_MS,
        ...receiverRoute(url),
      },
    );
    const text = await readCapped(res.body);
    const ms = performance.now() - started;
    exchange.durationMs = Math.round(ms);
    exchange.response = { status: res.statusCode, headers: flatHeaders(res.headers), body: clip(text) };
    return { status: res.statusCode, ms, timedOut: false, exchange };
  } catch (e) {
    const ms = performance.now() - started;
    const timedOut = signal.aborted || /timeout/i.test((e as Error).name + (e as Error).message);
    exchange.durationMs = Math.round(ms);
    exchange.transportError = timedOut ? `no answer within ${RESPONSE_TIMEOUT_MS / 1000} s` : (e as Error).message;
    return { ms, timedOut, transportError: exchange.transportError, exchange };
  }
}

async function readCapped(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of body) {
    size += c.length;
    if (size > MAX_ANSWER_BYTES) {
      body.destroy();
      break;
    }
    chunks.push(c);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined).map(([k, v]) => [
    k,
    Array.isArray(v) ? v.join(', ') : v!,
  ]));
}

function clip(s: string): string {
  return s.length > MAX_EVIDENCE_BODY ? `${s.slice(0, MAX_EVIDENCE_BODY)}…` : s;
}

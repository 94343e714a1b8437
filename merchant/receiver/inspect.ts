/**
 * The inspection contract (docs/merchant-side.md): in test mode the merchant exposes a GET URL
 * answering {"events":{id:count},"fulfilled":{payment_id:count},"payments":{payment_id:status}}.
 * Read after the deliveries until it settles (bounded), each read with a deadline and a size cap.
 */
import { request } from '../../core/undici.ts';
import { receiverHeaders, receiverRoute } from './deliver.ts';

const TIMEOUT_MS = 10_000;
const MAX_BYTES = 4 * 1024 * 1024;

export interface Inspection {
  events: Record<string, number>;
  fulfilled: Record<string, number>;
  payments: Record<string, string>;
}

export type InspectionResult = { ok: true; value: Inspection } | { ok: false; problem: string };

export async function readInspection(url: string): Promise<InspectionResult> {
  let text: string;
  try {
    const res = await request(
      url,
      {
        method: 'GET',
        headers: receiverHeaders(url),
        signal: AbortSignal.timeout(TIMEOUT_MS),
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
        ...receiverRoute(url),
      },
    );
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of res.body as AsyncIterable<Buffer>) {
      size += c.length;
      if (size > MAX_BYTES) return { ok: false, problem: `inspect_url answered more than ${MAX_BYTES} bytes` };
      chunks.push(c);
    }
    text = Buffer.concat(chunks).toString('utf8');
    if (res.statusCode !== 200) return { ok: false, problem: `inspect_url answered ${res.statusCode}, not 200` };
  } catch (e) {
    return { ok: false, problem: `inspect_url could not be read: ${(e as Error).message}` };
  }
  return parseInspection(text);
}

export function parseInspection(text: string): InspectionResult {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'inspect_url did not answer JSON' };
  }
  const o = v as Record<string, unknown>;
  for (const [field, kind] of [['events', 'number'], ['fulfilled', 'number'], ['payments', 'string']] as const) {
    const m = o?.[field];
    if (!m || typeof m !== 'object' || Array.isArray(m) || Object.values(m).some((x) => typeof x !== kind)) {
      return { ok: false, problem: `inspect_url's answer lacks "${field}" as an object of ${kind}s (see docs/merchant-side.md)` };
    }
  }
  return { ok: true, value: o as unknown as Inspection };
}

const SETTLE_INTERVAL_MS = 300;
/** The inspection has settled when it lists the events awaited and has not changed for this long. */
export const SETTLE_QUIET_MS = 2_000;
/** The default bound on the wait (`receiver --settle-timeout`). */
export const SETTLE_DEFAULT_MS = 60_000;

export interface SettledInspection {
  result: InspectionResult;
  /** false: the bound passed while the inspection still changed or lacked an event awaited. */
  settled: boolean;
  waitedMs: number;
}

/**
 * A receiver may acknowledge first and process in the background (a queue): the inspection is
 * re-read until it lists `eventIds`, shows some trace of each of `payments` (a status, a fulfilment
 * or one of the events named with it), and has not changed for SETTLE_QUIET_MS, or `boundMs` has
 * passed; the last read is returned, with whether it settled and how long was waited.
 */
export async function readSettledInspection(
  url: string,
  eventIds: readonly string[],
  boundMs = SETTLE_DEFAULT_MS,
  payments: Traced = [],
): Promise<SettledInspection> {
  const started = Date.now();
  let last = await readInspection(url);
  let unchangedSince = Date.now();
  const done = (settled: boolean): SettledInspection => ({ result: last, settled, waitedMs: Date.now() - started });
  while (last.ok) {
    const listed = awaitedShown((last as { value: Inspection }).value, eventIds, payments);
    if (listed && Date.now() - unchangedSince >= SETTLE_QUIET_MS) return done(true);
    if (Date.now() - started >= boundMs) return done(false);
    await new Promise((r) => setTimeout(r, SETTLE_INTERVAL_MS));
    const next = await readInspection(url);
    if (!next.ok) return { result: next, settled: false, waitedMs: Date.now() - started };
    if (JSON.stringify(next.value) !== JSON.stringify(last.value)) unchangedSince = Date.now();
    last = next;
  }
  return done(false);
}

type Traced = ReadonlyArray<{ paymentId: string; eventIds: readonly string[] }>;

function awaitedShown(v: Inspection, eventIds: readonly string[], payments: Traced): boolean {
  const traced = (p: { paymentId: string; eventIds: readonly string[] }) => p.paymentId in v.payments || p.paymentId in v.fulfilled ||
    p.eventIds.some((id) => id in v.events);
  return eventIds.every((id) => id in v.events) && payments.every(traced);
}

/**
 * An optional stand-in for the service's getPayment during a receiver run (`--payments-api-port N`).
 * The spec tells order-sensitive receivers to fetch the Payment and act on its current status; the
 * run's Payments are synthetic, so a receiver configured (in test mode) with this base URL can do
 * that. It answers `GET /v1/payments/{id}` with the Payment's true current state: PENDING for a
 * Payment only forged or stale events claimed paid, the latest validly signed snapshot otherwise.
 * Any `Bearer pt_test_sk_…` key is accepted (the merchant's own test key: nothing is checked or kept).
 */
import { listenLoopback } from '../../core/loopback-server.ts';

export interface PaymentsStub {
  url: string;
  /** Sets the Payment getPayment returns for its id. */
  set(payment: Record<string, unknown>): void;
  /** How many getPayment requests were answered. */
  fetched(): number;
  close(): Promise<void>;
}

const MAX_PAYMENTS = 1000;

export async function startPaymentsStub(port: number): Promise<PaymentsStub> {
  const payments = new Map<string, Record<string, unknown>>();
  let fetched = 0;
  const server = await listenLoopback(async (req, res) => {
    const m = /^\/v1\/payments\/([^/?]+)$/.exec(req.url ?? '');
    const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const error = (status: number, code: string) => send(status, { error: { code, message: code, request_id: `req_stub${fetched}` } });
    req.resume();
    if (req.method !== 'GET' || !m) return void error(404, 'not_found');
    if (!/^Bearer pt_test_sk_\S+$/.test(req.headers.authorization ?? '')) return void error(401, 'invalid_api_key');
    fetched++;
    const p = payments.get(decodeURIComponent(m[1]!));
    return void (p ? send(200, p) : error(404, 'payment_not_found'));
  }, port);
  return {
    url: server.url,
    set: (p) => {
      if (payments.size < MAX_PAYMENTS || payments.has(String(p.id))) payments.set(String(p.id), p);
    },
    fetched: () => fetched,
    close: () => server.close(),
  };
}

/** The Payment as the service holds it after a probe: forged/stale/unknown-type claims leave it PENDING. */
export function truthAfter(snapshot: Record<string, unknown>, trusted: boolean): Record<string, unknown> {
  return trusted ? snapshot : { ...snapshot, status: 'PENDING', paid_at: null, cancelled_at: null };
}

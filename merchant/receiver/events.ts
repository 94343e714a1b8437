/**
 * Events the receiver command sends, shaped as the spec's Event envelope with a Payment
 * snapshot in data.object. Ids carry a per-run nonce so a receiver that keeps state across runs
 * never sees an earlier run's ids (which it would rightly deduplicate).
 */
import { randomBytes } from 'node:crypto';

export const EVENT_TYPES = ['payment.created', 'payment.paid', 'payment.cancelled', 'payment.reversed', 'endpoint.test'] as const;

const STATUS_OF: Record<string, string> = {
  'payment.created': 'PENDING', 'payment.paid': 'PAID', 'payment.cancelled': 'CANCELLED', 'payment.reversed': 'REVERSED',
};

export interface EventIds {
  /** A fresh event id (evt_…). */
  event(): string;
  /** A fresh payment id (pay_…). */
  payment(): string;
}

export function eventIds(): EventIds {
  const nonce = randomBytes(4).toString('hex');
  let n = 0;
  const next = () => `${nonce}${(n++).toString(36).padStart(4, '0')}`;
  return { event: () => `evt_rc${next()}`, payment: () => `pay_rc${next()}` };
}

export interface BuiltEvent {
  id: string;
  type: string;
  /** The Payment id in data.object (none for endpoint.test). */
  paymentId?: string;
  value: Record<string, unknown>;
}

/** An Event of `type`; payment.* and unknown types carry a Payment snapshot whose status follows the type. */
export function buildEvent(
  type: string,
  ids: EventIds,
  opts: { paymentId?: string; eventId?: string; status?: string; createdAtMs?: number } = {},
): BuiltEvent {
  const id = opts.eventId ?? ids.event();
  const at = new Date(opts.createdAtMs ?? Date.now()).toISOString();
  if (type === 'endpoint.test') {
    return {
      id,
      type,
      value: {
        id,
        object: 'event',
        api_version: 'v1',
        type,
        livemode: false,
        created_at: at,
        data: { object: { id: `test_${id}`, object: 'endpoint_test' } },
      },
    };
  }
  const paymentId = opts.paymentId ?? ids.payment();
  const status = opts.status ?? STATUS_OF[type] ?? 'PAID';
  const payment: Record<string, unknown> = {
    id: paymentId, object: 'payment', livemode: false, status, amount: '1000.00', currency: 'BDT',
    description: 'Order 1042', merchant_reference: null, external_id: `ord_${paymentId}`, metadata: {},
    return_url: 'https://merchant.example/return', checkout_url: `https://checkout.example/${paymentId}`,
    created_at: at, paid_at: status === 'PAID' || status === 'REVERSED' ? at : null, cancelled_at: status === 'CANCELLED' ? at : null,
  };
  return {
    id,
    type,
    paymentId,
    value: { id, object: 'event', api_version: 'v1', type, livemode: false, created_at: at, data: { object: payment } },
  };
}

/** The ordinary wire form: compact JSON. */
export function compact(e: BuiltEvent): Buffer {
  return Buffer.from(JSON.stringify(e.value), 'utf8');
}

/** Legal JSON that re-serialises to other bytes: the RECV-RAW-BODY variants. */
export const UNUSUAL_FORMATS: ReadonlyArray<{ name: string; render(e: BuiltEvent): Buffer }> = [
  { name: 'pretty-printed with a trailing newline', render: (e) => Buffer.from(`${JSON.stringify(e.value, null, 2)}\n`, 'utf8') },
  {
    name: 'spaces around colons and commas',
    render: (e) => Buffer.from(JSON.stringify(e.value).replace(/":/g, '" : ').replace(/,"/g, ' , "'), 'utf8'),
  },
  { name: 'keys in reverse order, pretty-printed', render: (e) => Buffer.from(JSON.stringify(reverseKeys(e.value), null, 1), 'utf8') },
  {
    name: 'non-ASCII as \\u escapes',
    render: (e) => Buffer.from(
      JSON.stringify({
        ...e.value,
        data: withDescription(e.value, 'Caf\u00e9 \u09f3500'),
      }).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
      'utf8',
    ),
  },
];

function reverseKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reverseKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reverseKeys(x)]));
  return v;
}

function withDescription(value: Record<string, unknown>, description: string): unknown {
  const data = value.data as { object: Record<string, unknown> };
  return { object: { ...data.object, description } };
}

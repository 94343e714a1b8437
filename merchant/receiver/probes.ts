/**
 * The receiver command's deliveries, as data: each names its rule, what a conformant receiver
 * answers (`ack` 2xx, `reject` 400, `observe` anything), and how the delivery is built. Probes
 * that carry a Payment a receiver must NOT fulfil are marked `mustNotFulfil` (RECV-FULFIL-ON-PAID).
 */
import { createHmac } from 'node:crypto';
import type { RuleId } from '../../catalogue/index.ts';
import { buildEvent, compact, EVENT_TYPES, UNUSUAL_FORMATS, type BuiltEvent, type EventIds } from './events.ts';
import type { Delivery } from './deliver.ts';

export type Expectation = 'ack' | 'reject' | 'observe';

export interface ProbeKit {
  secret: string;
  ids: EventIds;
  /** Current unix time, whole seconds. */
  now(): number;
  /** A seeded integer in [0, n). */
  pick(n: number): number;
}

export interface BuiltProbe {
  event: BuiltEvent;
  delivery: Delivery;
}

export interface Probe {
  rule: RuleId;
  name: string;
  expect: Expectation;
  /** Its Payment must not be fulfilled (forged, stale, not payment.paid). */
  mustNotFulfil?: boolean;
  /** Its signature check fails (MUST): the event must not be processed at all (RECV-REJECTED-NOT-PROCESSED). */
  mustNotProcess?: boolean;
  /** Its Payment must be fulfilled: the positive control of RECV-FULFIL-ON-PAID. */
  fulfils?: boolean;
  build(k: ProbeKit): BuiltProbe;
}

export function hmacHex(secret: string, t: number | string, body: Buffer): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${t}.`, 'utf8').update(body).digest('hex');
}

/** A payment.paid (unless `type`) signed correctly, then altered by `header(t, sig)`. */
function signed(
  k: ProbeKit,
  header: (t: number, sig: string, body: Buffer) => string | undefined,
  opts: { type?: string; age?: number; body?: (e: BuiltEvent) => Buffer } = {},
): BuiltProbe {
  const event = buildEvent(opts.type ?? 'payment.paid', k.ids);
  const body = (opts.body ?? compact)(event);
  const t = k.now() - (opts.age ?? 0);
  return { event, delivery: { eventId: event.id, body, signature: header(t, hmacHex(k.secret, t, body), body) } };
}

const ok = (t: number, sig: string) => `t=${t},v1=${sig}`;
const forged = (name: string, header: (t: number, sig: string, body: Buffer) => string | undefined): Probe => ({
  rule: 'RECV-VERIFY-SIGNATURE', name, expect: 'reject', mustNotFulfil: true, mustNotProcess: true, build: (k) => signed(k, header),
});

const NOT_HEX = 'zx'.repeat(32);

export const PROBES: readonly Probe[] = [
  ...EVENT_TYPES.map((type): Probe => ({
    rule: 'RECV-ACK-EVERY-TYPE', name: `${type}, correctly signed`, expect: 'ack',
    fulfils: type === 'payment.paid', mustNotFulfil: type === 'payment.created' || type === 'payment.cancelled',
    build: (k) => signed(k, ok, { type }),
  })),
  forged('signed with another secret', (t, _s, body) => `t=${t},v1=${hmacHex('whsec_not_the_endpoint_secret', t, body)}`),
  { rule: 'RECV-VERIFY-SIGNATURE', name: 'one body byte changed after signing', expect: 'reject', mustNotFulfil: true, mustNotProcess: true,
    build: (k) => {
      const p = signed(k, ok);
      const text = p.delivery.body.toString('utf8');
      const at = text.indexOf('"1000.00"') + 1 + k.pick(4); // a digit of the amount: the JSON stays valid
      const body = Buffer.from(p.delivery.body);
      body[at] = body[at] === 0x39 ? 0x38 : body[at]! + 1;
      return { event: p.event, delivery: { ...p.delivery, body } };
    } },
  forged('t changed after signing', (t, sig) => `t=${t - 1},v1=${sig}`),
  forged('Service-Signature header missing', () => undefined),
  forged('Service-Signature header empty', () => ''),
  forged('malformed header (no t=, scheme sha256=)', (_t, sig) => `sha256=${sig}`),
  forged('v1 not hex', (t) => `t=${t},v1=${NOT_HEX}`),
  forged('only an unknown scheme (v0=)', (t, sig) => `t=${t},v0=${sig}`),
  forged('two v1 entries, none valid', (t, _s, body) => `t=${t},v1=${hmacHex('whsec_old', t, body)},v1=${hmacHex('whsec_older', t, body)}`),
  {
    rule: 'RECV-SIGNATURE-STRICT',
    name: 'v1 in upper-case hex',
    expect: 'reject',
    build: (k) => signed(k, (t, sig) => `t=${t},v1=${sig.toUpperCase()}`),
  },
  {
    rule: 'RECV-REPEATED-T',
    name: 't given twice (same value), correctly signed',
    expect: 'observe',
    build: (k) => signed(k, (t, sig) => `t=${t},t=${t},v1=${sig}`, { type: 'payment.created' }),
  },
  ...UNUSUAL_FORMATS.map((f): Probe => ({
    rule: 'RECV-RAW-BODY', name: `correctly signed, ${f.name}`, expect: 'ack', build: (k) => signed(
      k,
      ok,
      { type: 'payment.created', body: f.render },
    ),
  })),
  {
    rule: 'RECV-TIMESTAMP-TOLERANCE',
    name: 'payment.paid, t 5 min 10 s old',
    expect: 'reject',
    mustNotFulfil: true,
    mustNotProcess: true,
    build: (k) => signed(k, ok, { age: 310 }),
  },
  {
    rule: 'RECV-TIMESTAMP-TOLERANCE',
    name: 'payment.paid, t 1 h old',
    expect: 'reject',
    mustNotFulfil: true,
    mustNotProcess: true,
    build: (k) => signed(k, ok, { age: 3600 }),
  },
  {
    rule: 'RECV-TIMESTAMP-EDGE',
    name: 'payment.created, t 4 min 50 s old',
    expect: 'ack',
    build: (k) => signed(k, ok, { type: 'payment.created', age: 290 }),
  },
  ...['payment.disputed', 'invoice.finalized'].map((type): Probe => ({
    rule: 'RECV-IGNORE-UNKNOWN-TYPES', name: `unknown type ${type} (PAID snapshot), correctly signed`, expect: 'ack', mustNotFulfil: true,
    build: (k) => signed(k, ok, { type }),
  })),
  { rule: 'RECV-MULTIPLE-V1', name: 'two v1 entries, the second valid', expect: 'observe',
    build: (k) => signed(
      k,
      (t, sig, body) => `t=${t},v1=${hmacHex('whsec_rotated_out', t, body)},v1=${sig}`,
      { type: 'payment.created' },
    ) },
  {
    rule: 'RECV-FUTURE-TIMESTAMP',
    name: 'payment.created, t 10 min in the future',
    expect: 'observe',
    build: (k) => signed(k, ok, { type: 'payment.created', age: -600 }),
  },
];

/**
 * Payments: the store, the representation, and the transitions of the spec's table
 * (section "States and transitions").
 */
import { REFERENCE_DECISIONS, type Decisions } from './decisions.ts';
import { ApiError } from './errors.ts';
import { randomString } from './ids.ts';
import { formatNullableTimestamp, formatTimestamp } from './time.ts';
import type { Environment, PaymentRecord, PaymentResource, PaymentStatus } from './types.ts';

/** Total order of the list: created_at, then id (both ascending here; the list reads it backwards). */
export function compareAscending(a: PaymentRecord, b: PaymentRecord): number {
  if (a.createdAt !== b.createdAt) return a.createdAt - b.createdAt;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

interface ScopeIndex {
  /** Payments of one business and environment, ascending by compareAscending once sorted. */
  list: PaymentRecord[];
  sorted: boolean;
  byExternalId: Map<string, PaymentRecord>;
}

/** All payments, indexed per (business, environment): the unit of visibility of a key. */
export class PaymentStore {
  readonly #byId = new Map<string, PaymentRecord>();
  readonly #scopes = new Map<string, ScopeIndex>();

  insert(payment: PaymentRecord): void {
    this.#byId.set(payment.id, payment);
    const scope = this.#scope(payment.businessId, payment.env);
    const last = scope.list[scope.list.length - 1];
    if (last !== undefined && compareAscending(last, payment) > 0) scope.sorted = false;
    scope.list.push(payment);
    if (payment.externalId !== null) scope.byExternalId.set(payment.externalId, payment);
  }

  /** Any payment by id, whatever its business and environment (control API only). */
  getAny(id: string): PaymentRecord | undefined {
    return this.#byId.get(id);
  }

  /** The payment `id` if it belongs to this business and environment (Rule 5, Rule 7). */
  findVisible(businessId: string, env: Environment, id: string): PaymentRecord | undefined {
    const payment = this.#byId.get(id);
    if (payment === undefined || payment.businessId !== businessId || payment.env !== env) return undefined;
    return payment;
  }

  findByExternalId(businessId: string, env: Environment, externalId: string): PaymentRecord | undefined {
    return this.#scopes.get(scopeKey(businessId, env))?.byExternalId.get(externalId);
  }

  /** The payments of one business and environment, ascending by compareAscending. */
  ascending(businessId: string, env: Environment): readonly PaymentRecord[] {
    const scope = this.#scopes.get(scopeKey(businessId, env));
    if (scope === undefined) return [];
    if (!scope.sorted) {
      scope.list.sort(compareAscending);
      scope.sorted = true;
    }
    return scope.list;
  }

  get size(): number {
    return this.#byId.size;
  }

  #scope(businessId: string, env: Environment): ScopeIndex {
    const key = scopeKey(businessId, env);
    let scope = this.#scopes.get(key);
    if (scope === undefined) {
      scope = { list: [], sorted: true, byExternalId: new Map() };
      this.#scopes.set(key, scope);
    }
    return scope;
  }
}

function scopeKey(businessId: string, env: Environment): string {
  return `${businessId}\u0000${env}`;
}

/** The spec's Payment representation, field for field; what GET /payments/{id} answers. */
export function toPaymentResource(p: PaymentRecord, d: Decisions = REFERENCE_DECISIONS): PaymentResource {
  const offset = d.timestampOffset;
  const resource: PaymentResource = {
    id: p.id,
    object: 'payment',
    livemode: p.env === 'live',
    status: p.status,
    amount: p.amount,
    currency: 'BDT',
    description: p.description,
    merchant_reference: p.merchantReference,
    external_id: p.externalId,
    metadata: { ...p.metadata },
    return_url: p.returnUrl,
    checkout_url: d.checkoutUrl === 'session-until-final' && p.status !== 'PENDING' ? null : p.checkoutUrl,
    created_at: formatTimestamp(p.createdAt, offset),
    paid_at: formatNullableTimestamp(p.paidAt, offset),
    cancelled_at: formatNullableTimestamp(p.cancelledAt, offset),
  };
  if (p.allowedMethods !== undefined) resource.allowed_methods = [...p.allowedMethods];
  if (p.allowedChannels !== undefined) resource.allowed_channels = [...p.allowedChannels];
  return reorder(resource);
}

/** The JSON of a Payment and the state it was made from (every field that changes after creation). */
interface SerialisedPayment {
  status: PaymentStatus;
  paidAt: number | null;
  cancelledAt: number | null;
  decisions: Decisions;
  bytes: Buffer;
}

const serialised = new WeakMap<PaymentRecord, SerialisedPayment>();

/**
 * The bytes of `JSON.stringify(toPaymentResource(p, d))`, kept per Payment so that the read
 * path serialises nothing. A Payment's other fields are fixed once it is stored; the copy is
 * made again whenever its status, paid_at or cancelled_at (or the decisions) differ from
 * those it was made from, so every state change invalidates it, whatever code path made it.
 */
export function paymentJson(p: PaymentRecord, d: Decisions = REFERENCE_DECISIONS): Buffer {
  const c = serialised.get(p);
  if (c !== undefined && c.status === p.status && c.paidAt === p.paidAt && c.cancelledAt === p.cancelledAt && c.decisions === d) return c.bytes;
  const bytes = Buffer.from(JSON.stringify(toPaymentResource(p, d)), 'utf8');
  serialised.set(p, { status: p.status, paidAt: p.paidAt, cancelledAt: p.cancelledAt, decisions: d, bytes });
  return bytes;
}

const FIELD_ORDER: readonly (keyof PaymentResource)[] = [
  'id', 'object', 'livemode', 'status', 'amount', 'currency', 'description',
  'merchant_reference', 'external_id', 'metadata', 'allowed_methods', 'allowed_channels',
  'return_url', 'checkout_url', 'created_at', 'paid_at', 'cancelled_at',
];

function reorder(resource: PaymentResource): PaymentResource {
  const out: Record<string, unknown> = {};
  for (const field of FIELD_ORDER) if (field in resource) out[field] = resource[field];
  return out as unknown as PaymentResource;
}

export const CHECKOUT_BASE = 'https://checkout.hps-reference.test/c/';

export const SESSION_CHECKOUT_BASE = 'https://pay.hps-alt.test/checkout?session=';

/** checkoutUrl decision: a path naming the payment, or an opaque session token in a query. */
export function checkoutUrlFor(paymentId: string, d: Decisions = REFERENCE_DECISIONS): string {
  if (d.checkoutUrl === 'session-until-final') return `${SESSION_CHECKOUT_BASE}cs_${randomString(32)}`;
  return `${CHECKOUT_BASE}${paymentId}`;
}

/** The transitions of the spec's table, other than creation. */
export const TRANSITIONS = {
  cancel: { from: 'PENDING', to: 'CANCELLED', event: 'payment.cancelled' },
  succeed: { from: 'PENDING', to: 'PAID', event: 'payment.paid' },
  reverse: { from: 'PAID', to: 'REVERSED', event: 'payment.reversed' },
} as const satisfies Record<string, { from: PaymentStatus; to: PaymentStatus; event: string }>;

export type TransitionName = keyof typeof TRANSITIONS;

/** "A cancel or simulate operation on a Payment that is not PENDING answers 409 invalid_transition." */
export function assertTransitionAllowed(payment: PaymentRecord, name: TransitionName): void {
  const t = TRANSITIONS[name];
  if (payment.status !== t.from) {
    throw new ApiError('invalid_transition', {
      message: `Cannot ${name} a payment whose status is ${payment.status}; it must be ${t.from}.`,
    });
  }
}

/** Applies the move and its timestamps. The caller emits the event. */
export function applyTransition(payment: PaymentRecord, name: TransitionName, at: number): void {
  const t = TRANSITIONS[name];
  payment.status = t.to;
  if (t.to === 'PAID') payment.paidAt = at;
  if (t.to === 'CANCELLED') payment.cancelledAt = at;
}

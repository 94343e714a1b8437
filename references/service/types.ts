/**
 * Domain types of the reference server: what the spec calls resources, plus the
 * dashboard-side objects (businesses, keys, customers, orders, endpoints) that the
 * spec leaves out of band and the seed creates.
 */

export type Environment = 'test' | 'live';
export type Scope = 'payments:read' | 'payments:write';

/** Spec, "Enumerations". Kept here, not imported from catalogue/schemas/: the reference is written apart from the suite's oracle. */
export const PAYMENT_STATUSES = ['PENDING', 'PAID', 'CANCELLED', 'REVERSED'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export const PAYMENT_METHODS = ['BKASH', 'NAGAD'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const COLLECTION_CHANNELS = ['SEND_MONEY', 'PAYMENT', 'CASH_IN', 'BANK_TRANSFER'] as const;
export type CollectionChannel = (typeof COLLECTION_CHANNELS)[number];

/** Spec, "Event types". */
export const EVENT_TYPES = [
  'payment.created',
  'payment.paid',
  'payment.cancelled',
  'payment.reversed',
  'endpoint.test',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface WindowSpec {
  limit: number;
  windowMs: number;
}

/** A receiving number of a business's Live side (dashboard object). */
export interface Receiver {
  method: PaymentMethod;
  channels: CollectionChannel[];
  enabled: boolean;
  bridgeReady: boolean;
}

export interface Business {
  id: string;
  name: string;
  /** Live-side readiness: receiving numbers and Service Credit. */
  receivers: Receiver[];
  creditCents: bigint;
  nextFeeCents: bigint;
}

export interface ApiKeyRecord {
  key: string;
  /** The profile name of the key (`test`, `live`, ...), for diagnostics only. */
  label: string;
  businessId: string;
  env: Environment;
  scopes: ReadonlySet<Scope>;
  revoked: boolean;
  rateLimit: WindowSpec;
}

export interface Customer {
  id: string;
  businessId: string;
  env: Environment;
}

export interface Order {
  id: string;
  businessId: string;
  env: Environment;
  customerId: string;
  /** The amount due when the order was placed, in cents. */
  dueCents: bigint;
  /** Sum of the amounts of this order's payments that are PAID, in cents. */
  paidCents: bigint;
  cancelled: boolean;
}

export interface WebhookEndpoint {
  path: string;
  businessId: string;
  env: Environment;
  events: '*' | EventType[];
  secret: string;
  enabled: boolean;
}

/** The stored Payment; `toPaymentResource` turns it into the spec's representation. */
export interface PaymentRecord {
  id: string;
  businessId: string;
  env: Environment;
  status: PaymentStatus;
  /** As received, or normalised (amountEcho decision). */
  amount: string;
  amountCents: bigint;
  description: string | null;
  merchantReference: string | null;
  externalId: string | null;
  metadata: Record<string, string>;
  allowedMethods: string[] | undefined;
  allowedChannels: string[] | undefined;
  returnUrl: string | null;
  checkoutUrl: string;
  customerId: string | null;
  orderId: string | null;
  createdAt: number;
  paidAt: number | null;
  cancelledAt: number | null;
}

/** The spec's Payment resource (field order as in the spec's table). */
export interface PaymentResource {
  id: string;
  object: 'payment';
  livemode: boolean;
  status: PaymentStatus;
  amount: string;
  currency: 'BDT';
  description: string | null;
  merchant_reference: string | null;
  external_id: string | null;
  metadata: Record<string, string>;
  allowed_methods?: string[];
  allowed_channels?: string[];
  return_url: string | null;
  checkout_url: string | null;
  created_at: string;
  paid_at: string | null;
  cancelled_at: string | null;
}

/** An event as created at the moment of its cause: the body bytes are serialised once. */
export interface StoredEvent {
  id: string;
  type: EventType;
  livemode: boolean;
  createdAt: number;
  businessId: string;
  env: Environment;
  /** Payment id for payment.* events, null for endpoint.test. */
  paymentId: string | null;
  body: Buffer;
}

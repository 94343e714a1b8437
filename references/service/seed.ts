/**
 * The dashboard side, set up out of band (spec: keys, endpoints, customers, orders and
 * Live readiness are dashboard objects): businesses, keys, fixtures and webhook endpoints,
 * and the profile (docs/profile.md) that declares them to the suite.
 *
 * - Business A: the business under test. Test and Live; Live ready (BKASH on SEND_MONEY
 *   and PAYMENT), with Service Credit. Its Live side also has a disabled NAGAD number and a
 *   BKASH number whose bridge is not ready, neither of which counts.
 * - Business B: any other business (Test and Live, ready, with credit).
 * - Business C: Live not ready (its only number's bridge is not ready).
 * - Business D: Live ready but without Service Credit.
 */
import { newApiKey, newObjectId, newSigningSecret, randomString } from './ids.ts';
import { liveReceiving } from './live-readiness.ts';
import { formatCents } from './decimal.ts';
import type { ProfileKeyName, ReferenceProfile } from './profile.ts';
import type {
  ApiKeyRecord,
  Business,
  Customer,
  Environment,
  EventType,
  Order,
  Scope,
  WebhookEndpoint,
  WindowSpec,
} from './types.ts';

export interface RateLimitOptions {
  default: WindowSpec;
  limitedKey: WindowSpec;
}

export const DEFAULT_RATE_LIMITS: RateLimitOptions = {
  default: { limit: 1_000_000, windowMs: 1000 },
  limitedKey: { limit: 20, windowMs: 2000 },
};

export interface SeedHandles {
  businessA: string;
  businessB: string;
  keys: Record<ProfileKeyName, string>;
  customerId: string;
  foreignCustomerId: string;
  orderId: string;
  cancelledOrderId: string;
  foreignOrderId: string;
  liveCustomerId: string;
  liveOrderId: string;
}

export interface SeedData {
  businesses: Map<string, Business>;
  keys: Map<string, ApiKeyRecord>;
  customers: Map<string, Customer>;
  orders: Map<string, Order>;
  endpoints: WebhookEndpoint[];
  controlToken: string;
  handles: SeedHandles;
}

const READ: Scope = 'payments:read';
const WRITE: Scope = 'payments:write';

export function seed(rateLimits: RateLimitOptions = DEFAULT_RATE_LIMITS): SeedData {
  const [a, b, c, d] = seedBusinesses();
  const { keys, names } = seedKeys({ a, b, c, d }, rateLimits);
  const customerA: Customer = { id: newObjectId('cus'), businessId: a.id, env: 'test' };
  const customerB: Customer = { id: newObjectId('cus'), businessId: b.id, env: 'test' };
  // The orders belong to a second customer of A, so the profile's customer_id is one of the
  // business's own that is not the order's: a customer mismatch can be shown with its own code.
  const orderCustomer: Customer = { id: newObjectId('cus'), businessId: a.id, env: 'test' };
  const order: Order = order_(a, orderCustomer, 100_000n, false);
  const cancelledOrder: Order = order_(a, orderCustomer, 50_000n, true);
  const foreignOrder: Order = order_(b, customerB, 100_000n, false);
  // A's Live environment has a customer and an open order of its own: invisible to A's Test keys.
  const liveCustomer: Customer = { id: newObjectId('cus'), businessId: a.id, env: 'live' };
  const liveOrder: Order = { ...order_(a, liveCustomer, 100_000n, false), env: 'live' };

  const endpoints: WebhookEndpoint[] = [
    endpoint(a, '/hooks/test-all', 'test', '*', true),
    endpoint(a, '/hooks/test-paid', 'test', ['payment.paid'], true),
    endpoint(a, '/hooks/live-all', 'live', '*', true),
    endpoint(a, '/hooks/test-disabled', 'test', '*', false),
  ];

  return {
    businesses: new Map([a, b, c, d].map((x) => [x.id, x])),
    keys,
    customers: new Map([customerA, customerB, orderCustomer, liveCustomer].map((x) => [x.id, x])),
    orders: new Map([order, cancelledOrder, foreignOrder, liveOrder].map((x) => [x.id, x])),
    endpoints,
    controlToken: randomString(32),
    handles: {
      businessA: a.id,
      businessB: b.id,
      keys: names,
      customerId: customerA.id,
      foreignCustomerId: customerB.id,
      orderId: order.id,
      cancelledOrderId: cancelledOrder.id,
      foreignOrderId: foreignOrder.id,
      liveCustomerId: liveCustomer.id,
      liveOrderId: liveOrder.id,
    },
  };
}

/** Businesses A (under test), B (another), C (Live not ready), D (no Service Credit). */
function seedBusinesses(): [Business, Business, Business, Business] {
  const a = business('Business A', {
    receivers: [
      { method: 'BKASH', channels: ['SEND_MONEY', 'PAYMENT'], enabled: true, bridgeReady: true },
      { method: 'NAGAD', channels: ['CASH_IN'], enabled: false, bridgeReady: true },
      { method: 'BKASH', channels: ['BANK_TRANSFER'], enabled: true, bridgeReady: false },
    ],
    creditCents: 500_000n,
  });
  const b = business('Business B', {
    receivers: [
      { method: 'BKASH', channels: ['SEND_MONEY', 'PAYMENT', 'CASH_IN', 'BANK_TRANSFER'], enabled: true, bridgeReady: true },
      { method: 'NAGAD', channels: ['SEND_MONEY', 'PAYMENT', 'CASH_IN', 'BANK_TRANSFER'], enabled: true, bridgeReady: true },
    ],
    creditCents: 500_000n,
  });
  const c = business('Business C (not ready)', {
    receivers: [{ method: 'BKASH', channels: ['SEND_MONEY'], enabled: true, bridgeReady: false }],
    creditCents: 500_000n,
  });
  const d = business('Business D (no credit)', {
    receivers: [{ method: 'BKASH', channels: ['SEND_MONEY', 'PAYMENT'], enabled: true, bridgeReady: true }],
    creditCents: 0n,
  });
  return [a, b, c, d];
}

/** One key of the profile: its owner (a business letter), environment, scopes, and whether revoked or rate-limited. */
type KeyRow = readonly [ProfileKeyName, 'a' | 'b' | 'c' | 'd', Environment, Scope[], { revoked?: true; limited?: true }?];

const KEY_ROWS: readonly KeyRow[] = [
  ['test', 'a', 'test', [READ, WRITE]],
  ['test_read_only', 'a', 'test', [READ]],
  ['test_write_only', 'a', 'test', [WRITE]],
  ['test_revoked', 'a', 'test', [READ, WRITE], { revoked: true }],
  ['test_rate_limited', 'a', 'test', [READ, WRITE], { limited: true }],
  ['live', 'a', 'live', [READ, WRITE]],
  ['other_test', 'b', 'test', [READ, WRITE]],
  ['other_live', 'b', 'live', [READ, WRITE]],
  ['live_not_ready', 'c', 'live', [READ, WRITE]],
  ['live_no_credit', 'd', 'live', [READ, WRITE]],
];

function seedKeys(owners: Readonly<Record<KeyRow[1], Business>>, rateLimits: RateLimitOptions): { keys: Map<string, ApiKeyRecord>; names: Record<ProfileKeyName, string> } {
  const keys = new Map<string, ApiKeyRecord>();
  const names = {} as Record<ProfileKeyName, string>;
  for (const [label, owner, env, scopes, extra] of KEY_ROWS) {
    const key = newApiKey(env);
    keys.set(key, {
      key,
      label,
      businessId: owners[owner].id,
      env,
      scopes: new Set(scopes),
      revoked: extra?.revoked ?? false,
      rateLimit: extra?.limited ? rateLimits.limitedKey : rateLimits.default,
    });
    names[label] = key;
  }
  return { keys, names };
}

function business(name: string, live: { receivers: Business['receivers']; creditCents: bigint }): Business {
  return {
    id: newObjectId('biz'),
    name,
    receivers: live.receivers,
    creditCents: live.creditCents,
    nextFeeCents: 2_000n,
  };
}

function order_(owner: Business, customer: Customer, dueCents: bigint, cancelled: boolean): Order {
  return {
    id: newObjectId('ord'),
    businessId: owner.id,
    env: 'test',
    customerId: customer.id,
    dueCents,
    paidCents: 0n,
    cancelled,
  };
}

function endpoint(
  owner: Business,
  path: string,
  env: Environment,
  events: '*' | EventType[],
  enabled: boolean,
): WebhookEndpoint {
  return { path, businessId: owner.id, env, events, secret: newSigningSecret(), enabled };
}

export interface ProfileInputs {
  baseUrl: string;
  webhookBaseUrl: string;
  timeScale: number;
}

/** The profile declaring the seed to the suite (every field of docs/profile.md). */
export function buildProfile(data: SeedData, inputs: ProfileInputs): ReferenceProfile {
  const h = data.handles;
  const businessA = data.businesses.get(h.businessA);
  const order = data.orders.get(h.orderId);
  if (businessA === undefined || order === undefined) throw new Error('seed is incomplete');
  return {
    base_url: inputs.baseUrl,
    keys: { ...h.keys },
    live_receiving: liveReceiving(businessA),
    fixtures: {
      customer_id: h.customerId,
      foreign_customer_id: h.foreignCustomerId,
      order: { id: order.id, customer_id: order.customerId, remaining_due: formatCents(order.dueCents - order.paidCents) },
      cancelled_order_id: h.cancelledOrderId,
      foreign_order_id: h.foreignOrderId,
      live_customer_id: h.liveCustomerId,
      live_order_id: h.liveOrderId,
    },
    webhooks: {
      listen: listenOf(inputs.webhookBaseUrl),
      public_url: inputs.webhookBaseUrl,
      endpoints: data.endpoints
        .filter((e) => e.businessId === h.businessA)
        .map((e) => ({
          path: e.path,
          livemode: e.env === 'live',
          events: e.events === '*' ? '*' : [...e.events],
          secret: e.secret,
          ...(e.enabled ? {} : { enabled: false }),
        })),
      time_scale: inputs.timeScale,
    },
    control: { url: `${inputs.baseUrl}/_control`, token: data.controlToken },
    probes: { rate_limit_max_requests: 200, live_writes: true },
  };
}

/** `host:port` of a URL (the port defaulted from the scheme). */
export function listenOf(url: string): string {
  const u = new URL(url);
  const port = u.port !== '' ? u.port : u.protocol === 'https:' ? '443' : '80';
  return `${u.hostname}:${port}`;
}

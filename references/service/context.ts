/** The state of one reference server and the context every handler receives. */
import type { Decisions } from './decisions.ts';
import type { FaultSet } from './faults.ts';
import type { IdempotencyStore } from './idempotency.ts';
import type { PaymentStore } from './payments.ts';
import type { FixedWindowLimiter } from './rate-limit.ts';
import type { SeedHandles } from './seed.ts';
import type {
  ApiKeyRecord,
  Business,
  Customer,
  Order,
  StoredEvent,
  WebhookEndpoint,
} from './types.ts';
import type { WebhookDispatcher } from './webhooks/dispatcher.ts';

export interface ReferenceState {
  businesses: Map<string, Business>;
  keys: Map<string, ApiKeyRecord>;
  customers: Map<string, Customer>;
  orders: Map<string, Order>;
  endpoints: WebhookEndpoint[];
  payments: PaymentStore;
  idempotency: IdempotencyStore;
  limiter: FixedWindowLimiter;
  /** Every event created, in creation order. */
  events: StoredEvent[];
  controlToken: string;
  /** Names of what the seed created, for the profile. */
  seed: SeedHandles;
}

export interface AppContext {
  readonly state: ReferenceState;
  readonly faults: FaultSet;
  /** The variant's decisions on points the spec leaves open (decisions.ts). */
  readonly decisions: Decisions;
  readonly now: () => number;
  /** Artificial processing time inside createPayment, so concurrent identical requests overlap. */
  readonly createDelayMs: number;
  readonly dispatcher: WebhookDispatcher;
  /** Unexpected errors (answered 500 internal_error) are reported here, never to the client. */
  readonly onError: (err: unknown) => void;
}

/**
 * The reference server: a faithful, in-memory implementation of the whole Hosted Payment
 * Service API v1, with a control API and a scaled webhook retry clock. Used as the
 * suite's default target and as the oracle that the suite raises no false alarm.
 *
 *   const ref = await startReference({ webhookBaseUrl: sink.url, timeScale: 600 });
 *   // ref.url, ref.profile (docs/profile.md), await ref.close()
 *
 * `buildReference` gives the node:http server before it listens, for tests.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppContext, ReferenceState } from './context.ts';
import { decisionsFor, type Decisions, type VariantName } from './decisions.ts';
import { toFaultSet } from './fault-registry.ts';
import type { FaultSet } from './faults.ts';
import { frontServer } from './front-end.ts';
import { IdempotencyStore } from './idempotency.ts';
import { PaymentStore } from './payments.ts';
import type { ReferenceProfile } from './profile.ts';
import { FixedWindowLimiter } from './rate-limit.ts';
import { buildProfile, DEFAULT_RATE_LIMITS, seed, type RateLimitOptions, type SeedData } from './seed.ts';
import { seedPayments } from './seed-payments.ts';
import { WebhookDispatcher } from './webhooks/dispatcher.ts';

export type { ReferenceProfile, ProfileEndpoint, ProfileKeyName } from './profile.ts';
export type { AppContext, ReferenceState } from './context.ts';
export type { FaultName, FaultSet } from './faults.ts';
export type { Decisions, VariantName } from './decisions.ts';
export { ALT_DECISIONS, REFERENCE_DECISIONS, VARIANTS, decisionsFor } from './decisions.ts';
export { REFERENCE_FAULTS, FAULT_NAMES, isFaultName, toFaultSet } from './fault-registry.ts';
export type { RateLimitOptions } from './seed.ts';
export type { AttemptRecord, DeliveryRecord } from './webhooks/dispatcher.ts';
export { WebhookDispatcher } from './webhooks/dispatcher.ts';
export { RETRY_GAPS_MS, MAX_ATTEMPTS } from './webhooks/delivery-steps.ts';
export { computeSignature, signatureHeader, verifySignature } from './webhooks/sign.ts';

export interface ReferenceOptions {
  /** Interface to listen on (startReference). Default 127.0.0.1. */
  host?: string;
  /** Port to listen on (startReference); 0 picks a free one. Default 0. */
  port?: number;
  /** The sink's public URL; each endpoint's URL is this + its path. Default http://127.0.0.1:4020. */
  webhookBaseUrl?: string;
  /** The retry schedule is divided by this; the 10 s response time-out never is. Default 1. */
  timeScale?: number;
  /** Names of planted faults to switch on (faults.ts). Default none. */
  faults?: Iterable<string>;
  /** Per-key fixed windows. Default: 1 000 000 per 1000 ms; test_rate_limited 20 per 2000 ms. */
  rateLimit?: RateLimitOptions;
  /** Artificial processing time inside createPayment, in ms. Default 5. */
  createDelayMs?: number;
  /** Webhook response time-out, in ms. Default 10 000. */
  webhookTimeoutMs?: number;
  /** The clock (ms since the epoch). Default Date.now. */
  now?: () => number;
  /** The decisions on points the spec leaves open (decisions.ts, README "Variants"). Default 'reference'. */
  variant?: VariantName;
  /** Where unexpected errors (answered 500) are reported. Default: one line on stderr. */
  onError?: (err: unknown) => void;
}

export interface BuiltReference {
  /** Not yet listening. */
  server: http.Server;
  context: AppContext;
  state: ReferenceState;
  dispatcher: WebhookDispatcher;
  faults: FaultSet;
  decisions: Decisions;
  /** The profile for the server once it is reachable at `baseUrl`. */
  profileFor(baseUrl: string): ReferenceProfile;
  /** Cancels webhook timers and in-flight deliveries, closes the server and its connections. */
  close(): Promise<void>;
}

export interface RunningReference {
  /** {base_url}, e.g. http://127.0.0.1:PORT */
  url: string;
  profile: ReferenceProfile;
  close(): Promise<void>;
  /** The server's internals, for the project's own tests. */
  built: BuiltReference;
}

export const DEFAULT_WEBHOOK_BASE_URL = 'http://127.0.0.1:4020';

export function buildReference(opts: ReferenceOptions = {}): BuiltReference {
  const timeScale = opts.timeScale ?? 1;
  if (!(Number.isFinite(timeScale) && timeScale > 0)) throw new Error(`timeScale must be a positive number, got ${timeScale}`);
  const webhookBaseUrl = opts.webhookBaseUrl ?? DEFAULT_WEBHOOK_BASE_URL;
  new URL(webhookBaseUrl); // throws early on a bad URL
  const now = opts.now ?? Date.now;
  const faults = toFaultSet(opts.faults);
  const decisions = decisionsFor(opts.variant);
  const seeded: SeedData = seed(opts.rateLimit ?? DEFAULT_RATE_LIMITS);
  const dispatcher = new WebhookDispatcher({
    baseUrl: webhookBaseUrl,
    timeScale,
    timeoutMs: opts.webhookTimeoutMs ?? 10_000,
    now,
    faults,
    gapFrom: decisions.retryGapFrom,
    connections: decisions.deliveryConnections,
  });
  const state = initialState(seeded, decisions, now());
  const context: AppContext = {
    state,
    faults,
    decisions,
    now,
    createDelayMs: opts.createDelayMs ?? 5,
    dispatcher,
    onError: opts.onError ?? ((err) => process.stderr.write(`reference: internal error: ${describeError(err)}\n`)),
  };
  const server = frontServer(context);
  return {
    server,
    context,
    state,
    dispatcher,
    faults,
    decisions,
    profileFor: (baseUrl) => buildProfile(seeded, { baseUrl, webhookBaseUrl, timeScale }),
    close: closer(dispatcher, server),
  };
}

/** The seeded dashboard objects, empty stores, and (seedPayments decision) the seeded Payments. */
function initialState(seeded: SeedData, decisions: Decisions, now: number): ReferenceState {
  const state: ReferenceState = {
    businesses: seeded.businesses,
    keys: seeded.keys,
    customers: seeded.customers,
    orders: seeded.orders,
    endpoints: seeded.endpoints,
    payments: new PaymentStore(),
    idempotency: new IdempotencyStore(),
    limiter: new FixedWindowLimiter(),
    events: [],
    controlToken: seeded.controlToken,
    seed: seeded.handles,
  };
  if (decisions.seedPayments === 'present') seedPayments(state.payments, [seeded.handles.businessA, seeded.handles.businessB], now, decisions);
  return state;
}

/** Closes once: webhook timers and deliveries first, then the server and its connections. */
function closer(dispatcher: WebhookDispatcher, server: http.Server): () => Promise<void> {
  let closing: Promise<void> | null = null;
  return () => {
    closing ??= (async () => {
      await dispatcher.close();
      if (server.listening) {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      }
    })();
    return closing;
  };
}

export async function startReference(opts: ReferenceOptions = {}): Promise<RunningReference> {
  const built = buildReference(opts);
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    built.server.once('error', reject);
    built.server.listen(opts.port ?? 0, host, () => {
      built.server.off('error', reject);
      resolve();
    });
  });
  const { port } = built.server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return { url, profile: built.profileFor(url), close: built.close, built };
}

function describeError(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}

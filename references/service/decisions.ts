/**
 * The reference's decisions on points the spec leaves open, as named switches. The default
 * variant (`reference`) takes the first choice of each; `alt` flips every one, so the suite
 * can be shown to raise no false alarm on a conformant service that decided otherwise.
 * Each switch is documented with both choices in references/service/README.md ("Variants").
 */

export type VariantName = 'reference' | 'alt';

export interface Decisions {
  readonly variant: VariantName;
  /** listPayments order: created_at desc then id desc, or created_at asc then id asc. */
  readonly listOrder: 'newest-first' | 'oldest-first';
  /** amount echoed exactly as received ("007"), or normalised to two decimals ("7.00"). */
  readonly amountEcho: 'as-received' | 'two-decimals';
  /** an idempotent replay answers the stored bytes, or the Payment's current representation. */
  readonly replayBody: 'original-snapshot' | 'current-state';
  /** only a 201 is remembered under an Idempotency-Key, or 400s are remembered and replayed too. */
  readonly idempotentErrors: 'released' | 'stored';
  /** a different body while the first request is processing: in_progress wins, or conflict wins. */
  readonly idempotencyClash: 'in-progress-wins' | 'conflict-wins';
  /** unknown createPayment fields are ignored, or rejected with 400 invalid_request + param. */
  readonly unknownFields: 'ignored' | 'rejected';
  /** unknown listPayments query parameters are ignored, or rejected with 400 invalid_request + param. */
  readonly unknownQueryParams: 'ignored' | 'rejected';
  /** next_cursor is the page's last Payment id, or an opaque token (accepted back as starting_after). */
  readonly cursor: 'payment-id' | 'opaque';
  /** after authentication: scope (403) then rate limit (403s not counted), or rate limit then scope. */
  readonly scopeVsRateLimit: 'scope-first' | 'rate-limit-first';
  /** createPayment field rules when several are broken: context_items, amount, ... first; or the reverse. */
  readonly fieldPrecedence: 'amount-first' | 'amount-last';
  /** checkout_url: fixed per payment, or an opaque session URL with a query, null once not PENDING. */
  readonly checkoutUrl: 'stable-path' | 'session-until-final';
  /** allowed_methods / allowed_channels when not given: omitted, or filled with every value. */
  readonly omittedDefaults: 'omitted' | 'all-values';
  /** timestamps: UTC with "Z", or with a "+00:00" offset. */
  readonly timestampOffset: 'Z' | '+00:00';
  /** payment ids: increasing with creation order, or wholly random. */
  readonly paymentIds: 'sequential' | 'random';
  /** Retry-After: seconds left in the window (rounded up), or the whole window's length. */
  readonly retryAfter: 'remaining' | 'whole-window';
  /** webhook retry gaps measured from the end of the failed attempt, or from its start. */
  readonly retryGapFrom: 'attempt-end' | 'attempt-start';
  /** seeded Payments: none (every list starts empty), or some in every environment of A and B. */
  readonly seedPayments: 'none' | 'present';
  /** requests node:http cannot parse: 400 with the error envelope, or Node's own defaults (empty 400/431). */
  readonly malformedHttp: 'envelope' | 'node-default';
  /** node:http's request-header limit: raised to 96 KiB (a 70 000-character key reaches authentication), or Node's 16 KiB. */
  readonly headerLimit: 'raised' | 'node-default';
  /** HEAD on a GET route: 405, or served as GET without the body. */
  readonly head: 'not-allowed' | 'as-get';
  /** a path with one trailing slash: no route (404), or the same route. */
  readonly trailingSlash: 'not-found' | 'same-route';
  /** the Content-Type of a createPayment body: must be application/json, or not looked at (the body is parsed as JSON). */
  readonly contentType: 'json-required' | 'ignored';
  /** JSON null for an optional createPayment field: not given, or a wrong type (the field's code). */
  readonly nullFields: 'absent' | 'rejected';
  /** maximum lengths (code points) of description / merchant_reference / external_id: 1000/255/255, or 500/100/64. */
  readonly maxLengths: 'long' | 'short';
  /** createPayment bodies above this are refused with 400 invalid_request: 1 MiB, or 64 KiB. */
  readonly bodyLimit: '1MiB' | '64KiB';
  /** "identical body" for idempotency: equal canonical JSON, or equal bytes. */
  readonly bodyIdentity: 'canonical-json' | 'raw-bytes';
  /** longest Idempotency-Key accepted: 255 characters, or 64. */
  readonly idempotencyKeyMax: 255 | 64;
  /** starting_after naming no visible Payment: 400 invalid_request, or an empty page. */
  readonly unknownCursor: 'rejected' | 'empty-page';
  /** an order's remaining due: less its PAID payments, or less its PAID and PENDING ones. */
  readonly orderDue: 'paid-only' | 'pending-reserves';
  /** payment.created: dispatched before the 201 is written, or just after. */
  readonly createdEventTiming: 'before-response' | 'after-response';
  /** webhook attempts: a fresh connection each, or a kept-alive connection per endpoint. */
  readonly deliveryConnections: 'fresh' | 'keep-alive';
  /** the control API's Send test event: 202 naming the event id it sent, or a bare 202 (PROFILE fixes the status only). */
  readonly testEventAnswer: 'names-event' | 'bare';
}

export const REFERENCE_DECISIONS: Decisions = Object.freeze({
  variant: 'reference',
  listOrder: 'newest-first',
  amountEcho: 'as-received',
  replayBody: 'original-snapshot',
  idempotentErrors: 'released',
  idempotencyClash: 'in-progress-wins',
  unknownFields: 'ignored',
  unknownQueryParams: 'ignored',
  cursor: 'payment-id',
  scopeVsRateLimit: 'scope-first',
  fieldPrecedence: 'amount-first',
  checkoutUrl: 'stable-path',
  omittedDefaults: 'omitted',
  timestampOffset: 'Z',
  paymentIds: 'sequential',
  retryAfter: 'remaining',
  retryGapFrom: 'attempt-end',
  seedPayments: 'none',
  malformedHttp: 'envelope',
  headerLimit: 'raised',
  head: 'not-allowed',
  trailingSlash: 'not-found',
  contentType: 'json-required',
  nullFields: 'absent',
  maxLengths: 'long',
  bodyLimit: '1MiB',
  bodyIdentity: 'canonical-json',
  idempotencyKeyMax: 255,
  unknownCursor: 'rejected',
  orderDue: 'paid-only',
  createdEventTiming: 'before-response',
  deliveryConnections: 'fresh',
  testEventAnswer: 'names-event',
});

export const ALT_DECISIONS: Decisions = Object.freeze({
  variant: 'alt',
  listOrder: 'oldest-first',
  amountEcho: 'two-decimals',
  replayBody: 'current-state',
  idempotentErrors: 'stored',
  idempotencyClash: 'conflict-wins',
  unknownFields: 'rejected',
  unknownQueryParams: 'rejected',
  cursor: 'opaque',
  scopeVsRateLimit: 'rate-limit-first',
  fieldPrecedence: 'amount-last',
  checkoutUrl: 'session-until-final',
  omittedDefaults: 'all-values',
  timestampOffset: '+00:00',
  paymentIds: 'random',
  retryAfter: 'whole-window',
  retryGapFrom: 'attempt-start',
  seedPayments: 'present',
  malformedHttp: 'node-default',
  headerLimit: 'node-default',
  head: 'as-get',
  trailingSlash: 'same-route',
  contentType: 'ignored',
  nullFields: 'rejected',
  maxLengths: 'short',
  bodyLimit: '64KiB',
  bodyIdentity: 'raw-bytes',
  idempotencyKeyMax: 64,
  unknownCursor: 'empty-page',
  orderDue: 'pending-reserves',
  createdEventTiming: 'after-response',
  deliveryConnections: 'keep-alive',
  testEventAnswer: 'bare',
});

/** headerLimit 'raised': room for the longest key a client is likely to send by mistake, plus the usual headers. */
export const RAISED_MAX_HEADER_SIZE = 96 * 1024;

/** maxLengths: the limits of each choice, in code points. */
export const MAX_LENGTHS = {
  long: { description: 1000, merchantReference: 255, externalId: 255 },
  short: { description: 500, merchantReference: 100, externalId: 64 },
} as const;

/** bodyLimit: bytes of each choice. */
export const BODY_LIMIT_BYTES = { '1MiB': 1024 * 1024, '64KiB': 64 * 1024 } as const;

export const VARIANTS: Readonly<Record<VariantName, Decisions>> = { reference: REFERENCE_DECISIONS, alt: ALT_DECISIONS };

/** The decisions of a variant name; an unknown name is an error. */
export function decisionsFor(variant: string | undefined): Decisions {
  if (variant === undefined) return REFERENCE_DECISIONS;
  if (variant !== 'reference' && variant !== 'alt') throw new Error(`unknown variant "${variant}" (reference, alt)`);
  return VARIANTS[variant];
}

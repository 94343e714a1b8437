/**
 * The error table of the spec (section "Errors"), as data.
 * `code` is a stable string; clients treat the set as open, so a code a target
 * returns that is not listed here is tolerated where the spec allows it.
 */
export const ERROR_TABLE = {
  invalid_api_key: 401,
  insufficient_scope: 403,
  rate_limit_exceeded: 429,
  invalid_request: 400,
  invalid_amount: 400,
  invalid_external_id: 400,
  invalid_metadata: 400,
  invalid_return_url: 400,
  invalid_allowed_method: 400,
  invalid_allowed_channel: 400,
  description_too_long: 400,
  reference_too_long: 400,
  invalid_customer: 400,
  order_not_found: 400,
  order_customer_mismatch: 400,
  exceeds_order_due: 400,
  context_items_not_accepted: 400,
  payment_not_found: 404,
  not_found: 404,
  method_not_allowed: 405,
  external_id_conflict: 409,
  idempotency_conflict: 409,
  idempotency_in_progress: 409,
  invalid_transition: 409,
  order_cancelled: 409,
  payment_method_unavailable: 409,
  payment_channel_unavailable: 409,
  payment_detection_not_ready: 409,
  insufficient_credit: 409,
  internal_error: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_TABLE;
export const ERROR_CODES = Object.keys(ERROR_TABLE) as ErrorCode[];

/** The four 409s that only Live creation may answer. */
export const LIVE_ONLY_CODES = [
  'payment_method_unavailable',
  'payment_channel_unavailable',
  'payment_detection_not_ready',
  'insufficient_credit',
] as const satisfies readonly ErrorCode[];

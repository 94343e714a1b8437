/**
 * The error envelope of the spec (section "Errors"):
 * `{ error: { code, message, param?, request_id } }`, status from the error table.
 */
/**
 * The spec's error table (section "Errors"), kept here rather than imported from catalogue/: the
 * reference is written apart from the suite's oracle, so a slip in one is not copied into the other.
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

const DEFAULT_MESSAGES: Record<ErrorCode, string> = {
  invalid_api_key: 'The API key is missing, malformed, unknown or revoked.',
  insufficient_scope: 'The API key lacks the scope this operation requires.',
  rate_limit_exceeded: 'Too many requests for this API key; retry after the Retry-After delay.',
  invalid_request: 'The request body or a parameter is malformed.',
  invalid_amount: 'amount must be a positive decimal string with at most two decimals.',
  invalid_external_id: 'external_id is invalid or too long.',
  invalid_metadata: 'metadata exceeds its limits.',
  invalid_return_url: 'return_url must be an absolute https URL or a native deep link.',
  invalid_allowed_method: 'allowed_methods may only name BKASH or NAGAD.',
  invalid_allowed_channel: 'allowed_channels may only name SEND_MONEY, PAYMENT, CASH_IN or BANK_TRANSFER.',
  description_too_long: 'description is too long.',
  reference_too_long: 'merchant_reference is too long.',
  invalid_customer: 'customer_id does not belong to this business.',
  order_not_found: 'order_id does not exist for this business.',
  order_customer_mismatch: "The payment's customer differs from the order's customer.",
  exceeds_order_due: "amount exceeds the order's remaining due.",
  context_items_not_accepted: 'context_items are not accepted.',
  payment_not_found: 'No hosted payment with this id for this business and environment.',
  not_found: 'No such API route.',
  method_not_allowed: 'Method not allowed for this route.',
  external_id_conflict: 'external_id is already used in this business and environment.',
  idempotency_conflict: 'Idempotency-Key was reused with a different request.',
  idempotency_in_progress: 'A request with this Idempotency-Key is still processing; retry shortly.',
  invalid_transition: "The payment's state does not allow this action.",
  order_cancelled: 'The referenced order is cancelled.',
  payment_method_unavailable: 'None of the allowed payment methods is usable.',
  payment_channel_unavailable: 'No ready receiving number accepts the requested payment type.',
  payment_detection_not_ready: 'The business has no enabled, ready receiving method.',
  insufficient_credit: 'Not enough Service Credit for the next fee.',
  internal_error: 'Internal server error; retry and quote request_id if it persists.',
};

/** A failure that answers with the error envelope. Thrown by any step; caught once in app.ts. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly param: string | undefined;
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    code: ErrorCode,
    options: { message?: string; param?: string; headers?: Record<string, string> } = {},
  ) {
    super(options.message ?? DEFAULT_MESSAGES[code]);
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_TABLE[code];
    this.param = options.param;
    this.headers = options.headers ?? {};
  }
}

export function apiError(code: ErrorCode, param?: string, message?: string): ApiError {
  return new ApiError(code, { param, message });
}

export interface ErrorEnvelope {
  error: { code: string; message: string; param?: string; request_id: string };
}

export function errorEnvelope(err: ApiError, requestId: string): ErrorEnvelope {
  return {
    error: {
      code: err.code,
      message: err.message,
      ...(err.param !== undefined ? { param: err.param } : {}),
      request_id: requestId,
    },
  };
}

export function internalError(): ApiError {
  return new ApiError('internal_error');
}

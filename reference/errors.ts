/**
 * The error envelope of the spec (section "Errors"):
 * `{ error: { code, message, param?, request_id } }`, status from the error table.
 */
import { ERROR_TABLE, type ErrorCode } from '../catalogue/error-codes.ts';

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

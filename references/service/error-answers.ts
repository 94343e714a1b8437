/**
 * The row of the error table an API error is answered by: its code (in the envelope) and its
 * status. The check is the table itself (errors.ts); each planted fault here answers one row
 * another way while the envelope stays well-formed: the condition gets a plausible other code
 * (the generic `invalid_request`, a near synonym, a neighbouring row's code) with the row's
 * status, or the row's code with another status. One fault per row, so each row of the error
 * table is shown checked by the rules citing it (catalogue/obligations.ts, `run --dry-run --clauses`).
 */
import type { Override } from '../seams/steps.ts';
import type { PlantingStep, Step } from './steps.ts';

/** How one error is answered: the code in its envelope and the HTTP status. */
export interface ErrorAnswer {
  readonly code: string;
  readonly status: number;
}

/** The condition of `code` answered with `other` (same status). */
function codeAs(code: string, other: string): Override<ErrorAnswer, ErrorAnswer> {
  return (answer, next) => {
    const row = next(answer);
    return row.code === code ? { ...row, code: other } : row;
  };
}

/** `code` answered with `status` instead of its own. */
function statusAs(code: string, status: number): Override<ErrorAnswer, ErrorAnswer> {
  return (answer, next) => {
    const row = next(answer);
    return row.code === code ? { ...row, status } : row;
  };
}

/** An error code answered with the generic invalid_request, a create rule catching it, the row's obligation. */
function generic(code: string, rules: readonly string[]) {
  return {
    does: `The condition of ${code} is answered with the generic invalid_request (status 400 kept), not its own code.`,
    breaks: rules,
    violates: [`errors.code.${code}`],
    plant: codeAs(code, 'invalid_request'),
  };
}

export const ERROR_ANSWER: Step<ErrorAnswer, ErrorAnswer> = {
  name: "the error table's row for the condition: its code and its status",
  check: (answer) => answer,
  faulty: {
    'invalid-api-key-answered-unauthorized': {
      does: 'A missing, malformed, unknown or revoked key is answered 401 with the code unauthorized, not invalid_api_key.',
      breaks: ['AUTH-MISSING-KEY', 'AUTH-UNKNOWN-KEY'],
      violates: ['errors.code.invalid_api_key#code'],
      plant: codeAs('invalid_api_key', 'unauthorized'),
    },
    'invalid-api-key-status-403': {
      does: 'invalid_api_key is answered with status 403 (the framework\'s "forbidden"), not 401.',
      breaks: ['AUTH-MISSING-KEY', 'AUTH-UNKNOWN-KEY'],
      violates: ['errors.code.invalid_api_key#status'],
      plant: statusAs('invalid_api_key', 403),
    },
    'insufficient-scope-answered-forbidden': {
      does: 'A key without the needed scope is answered 403 with the code forbidden, not insufficient_scope.',
      breaks: ['AUTH-READ-SCOPE-REQUIRED', 'AUTH-WRITE-SCOPE-REQUIRED'],
      violates: ['errors.code.insufficient_scope', 'auth.insufficient-scope-403'],
      plant: codeAs('insufficient_scope', 'forbidden'),
    },
    'rate-limit-answered-too-many-requests': {
      does: 'A key over its limit is answered 429 with the code too_many_requests, not rate_limit_exceeded.',
      breaks: ['LIMIT-RATE-429'],
      violates: ['errors.code.rate_limit_exceeded'],
      plant: codeAs('rate_limit_exceeded', 'too_many_requests'),
    },
    'invalid-amount-answered-generic': generic('invalid_amount', ['CREATE-AMOUNT-INVALID']),
    'invalid-metadata-answered-generic': generic('invalid_metadata', ['CREATE-METADATA-TOO-MANY-KEYS', 'CREATE-METADATA-KEY-TOO-LONG', 'CREATE-METADATA-VALUE-TOO-LONG']),
    'invalid-return-url-answered-generic': generic('invalid_return_url', ['CREATE-RETURN-URL-FORBIDDEN-SCHEME', 'CREATE-RETURN-URL-NOT-HTTPS']),
    'invalid-allowed-method-answered-generic': generic('invalid_allowed_method', ['CREATE-ALLOWED-METHODS-INVALID']),
    'invalid-allowed-channel-answered-generic': generic('invalid_allowed_channel', ['CREATE-ALLOWED-CHANNELS-INVALID']),
    'context-items-answered-generic': generic('context_items_not_accepted', ['CREATE-CONTEXT-ITEMS-REJECTED']),
    'order-not-found-answered-generic': generic('order_not_found', ['ORDER-NOT-FOUND']),
    'order-customer-mismatch-answered-generic': generic('order_customer_mismatch', ['ORDER-CUSTOMER-MISMATCH']),
    'invalid-amount-status-422': {
      does: 'A bad amount is answered 422 invalid_amount (Unprocessable Entity, as some frameworks answer validation), a status createPayment does not list.',
      breaks: ['RESP-STATUS-LISTED', 'CREATE-AMOUNT-INVALID'],
      violates: ['statuses.createPayment', 'errors.code.invalid_amount'],
      plant: statusAs('invalid_amount', 422),
    },
    'invalid-customer-answered-customer-not-found': {
      does: 'A customer_id of another business is answered 400 with the code customer_not_found, not invalid_customer.',
      breaks: ['ORDER-INVALID-CUSTOMER'],
      violates: ['errors.code.invalid_customer'],
      plant: codeAs('invalid_customer', 'customer_not_found'),
    },
    'exceeds-order-due-answered-invalid-amount': {
      does: 'An amount over the order\'s remaining due is answered 400 invalid_amount (the amount check\'s code), not exceeds_order_due.',
      breaks: ['ORDER-EXCEEDS-DUE'],
      violates: ['errors.code.exceeds_order_due'],
      plant: codeAs('exceeds_order_due', 'invalid_amount'),
    },
    'not-found-answered-route-not-found': {
      does: 'An unknown route is answered 404 with the code route_not_found, not not_found.',
      breaks: ['ROUTE-UNKNOWN-404'],
      violates: ['errors.code.not_found'],
      plant: codeAs('not_found', 'route_not_found'),
    },
    'method-not-allowed-answered-generic': {
      does: 'A wrong method on a route is answered 405 with the code invalid_request, not method_not_allowed.',
      breaks: ['ROUTE-WRONG-METHOD-405'],
      violates: ['errors.code.method_not_allowed'],
      plant: codeAs('method_not_allowed', 'invalid_request'),
    },
    'external-id-conflict-answered-duplicate': {
      does: 'A used external_id is answered 409 with the code duplicate_external_id, not external_id_conflict.',
      breaks: ['IDEM-EXTERNAL-ID-CONFLICT'],
      violates: ['errors.code.external_id_conflict#code'],
      plant: codeAs('external_id_conflict', 'duplicate_external_id'),
    },
    'idempotency-conflict-answered-key-reused': {
      does: 'An Idempotency-Key reused with another body is answered 409 with the code idempotency_key_reused, not idempotency_conflict.',
      breaks: ['IDEM-CONFLICT'],
      violates: ['errors.code.idempotency_conflict#code'],
      plant: codeAs('idempotency_conflict', 'idempotency_key_reused'),
    },
    'idempotency-conflict-status-422': {
      does: 'idempotency_conflict is answered with status 422 (as some frameworks answer a reused key), not 409.',
      breaks: ['IDEM-CONFLICT'],
      violates: ['errors.code.idempotency_conflict#status'],
      plant: statusAs('idempotency_conflict', 422),
    },
    'in-progress-answered-conflict': {
      does: 'A request whose key is still processing is answered 409 idempotency_conflict (the neighbouring row), not idempotency_in_progress.',
      breaks: ['IDEM-IN-PROGRESS'],
      violates: ['errors.code.idempotency_in_progress'],
      plant: codeAs('idempotency_in_progress', 'idempotency_conflict'),
    },
    'invalid-transition-answered-not-pending': {
      does: 'An action the state does not allow is answered 409 with the code payment_not_pending, not invalid_transition.',
      breaks: ['TRANS-ILLEGAL'],
      violates: ['errors.code.invalid_transition#code'],
      plant: codeAs('invalid_transition', 'payment_not_pending'),
    },
    'invalid-transition-status-400': {
      does: 'invalid_transition is answered with status 400, not 409.',
      breaks: ['TRANS-ILLEGAL'],
      violates: ['errors.code.invalid_transition#status'],
      plant: statusAs('invalid_transition', 400),
    },
    'order-cancelled-answered-invalid-transition': {
      does: 'A cancelled order is answered 409 invalid_transition (the state code), not order_cancelled.',
      breaks: ['ORDER-CANCELLED'],
      violates: ['errors.code.order_cancelled'],
      plant: codeAs('order_cancelled', 'invalid_transition'),
    },
  },
};

export const FAULTY_STEPS: readonly PlantingStep[] = [ERROR_ANSWER];

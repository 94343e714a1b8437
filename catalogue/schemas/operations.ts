/**
 * The operations of the spec ("Endpoints", "Error statuses per operation", "Operations that emit
 * events"), as data. This table is the single source for "the status is one the operation lists"
 * (DESIGN, oracle principle 3), for routing tests, and for the paths of the OpenAPI document.
 */
import type { WebhookEventType } from './enums.ts';

/** The spec's operationIds ("Endpoints"); a typo in one does not compile. */
export const OPERATION_IDS = [
  'createPayment',
  'listPayments',
  'getPayment',
  'cancelPayment',
  'simulatePaymentSucceeded',
  'simulatePaymentCancelled',
] as const;
export type OperationId = (typeof OPERATION_IDS)[number];

export type Scope = 'payments:read' | 'payments:write';
export type HttpMethod = 'GET' | 'POST';

export interface Operation {
  readonly operationId: OperationId;
  readonly method: HttpMethod;
  /** Path template relative to `{base_url}/v1`, with `{id}` for the path parameter. */
  readonly path: string;
  readonly scope: Scope;
  /** The statuses the spec lists for the operation: its error statuses plus the success status. */
  readonly statuses: readonly number[];
  readonly success: number;
  /** A `/test_helpers` operation: Test secret keys only (a Live key gets 404 as if no route). */
  readonly testOnly: boolean;
  /** Schema of the success body. */
  readonly response: 'Payment' | 'PaymentList';
  /** Schema of the JSON request body, when the operation has one. */
  readonly requestBody: 'CreatePaymentRequest' | null;
  /** Events the operation emits ("Operations that emit events"). */
  readonly emits: readonly WebhookEventType[];
  /**
   * Statuses outside the spec's list that a ruling of DESIGN ("Spec gaps and contradictions")
   * requires: listPayments answers 400 `invalid_request` to a strict filter it rejects (unknown
   * `status`, `limit` outside 1..100) although its row lists no 400.
   */
  readonly rulingStatuses: readonly number[];
  /** One line for the OpenAPI summary. */
  readonly summary: string;
}

export const OPERATIONS = [
  {
    operationId: 'createPayment',
    method: 'POST',
    path: '/payments',
    scope: 'payments:write',
    statuses: [201, 400, 401, 403, 409, 429],
    success: 201,
    testOnly: false,
    response: 'Payment',
    requestBody: 'CreatePaymentRequest',
    emits: ['payment.created'],
    rulingStatuses: [],
    summary: 'Create a hosted checkout Payment (status PENDING, with checkout_url)',
  },
  {
    operationId: 'listPayments',
    method: 'GET',
    path: '/payments',
    scope: 'payments:read',
    statuses: [200, 401, 403, 429],
    success: 200,
    testOnly: false,
    response: 'PaymentList',
    requestBody: null,
    emits: [],
    rulingStatuses: [400],
    summary: 'List Payments',
  },
  {
    operationId: 'getPayment',
    method: 'GET',
    path: '/payments/{id}',
    scope: 'payments:read',
    statuses: [200, 401, 403, 404, 429],
    success: 200,
    testOnly: false,
    response: 'Payment',
    requestBody: null,
    emits: [],
    rulingStatuses: [],
    summary: 'Retrieve a Payment',
  },
  {
    operationId: 'cancelPayment',
    method: 'POST',
    path: '/payments/{id}/cancel',
    scope: 'payments:write',
    statuses: [200, 401, 403, 404, 409, 429],
    success: 200,
    testOnly: false,
    response: 'Payment',
    requestBody: null,
    emits: ['payment.cancelled'],
    rulingStatuses: [],
    summary: 'Cancel a PENDING Payment',
  },
  {
    operationId: 'simulatePaymentSucceeded',
    method: 'POST',
    path: '/test_helpers/payments/{id}/succeed',
    scope: 'payments:write',
    statuses: [200, 401, 403, 404, 409, 429],
    success: 200,
    testOnly: true,
    response: 'Payment',
    requestBody: null,
    emits: ['payment.paid'],
    rulingStatuses: [],
    summary: 'Test mode: complete a PENDING Test Payment (PAID)',
  },
  {
    operationId: 'simulatePaymentCancelled',
    method: 'POST',
    path: '/test_helpers/payments/{id}/cancel',
    scope: 'payments:write',
    statuses: [200, 401, 403, 404, 409, 429],
    success: 200,
    testOnly: true,
    response: 'Payment',
    requestBody: null,
    emits: ['payment.cancelled'],
    rulingStatuses: [],
    summary: 'Test mode: cancel a PENDING Test Payment (CANCELLED)',
  },
] as const satisfies readonly Operation[];

/** Any operation may fail with 500 `internal_error` (error table; DESIGN principle 3: "plus 500"). */
export const ALWAYS_ACCEPTED_STATUSES = [500] as const;

export function operation(operationId: OperationId): Operation {
  const op = OPERATIONS.find((o) => o.operationId === operationId);
  if (op === undefined) throw new Error(`unknown operationId ${operationId}`);
  return op;
}

/**
 * The statuses a response of the operation may have without failing the "listed status" check:
 * the listed ones, the DESIGN rulings, and 500.
 */
export function acceptedStatuses(operationId: OperationId): number[] {
  const op = operation(operationId);
  return [...new Set([...op.statuses, ...op.rulingStatuses, ...ALWAYS_ACCEPTED_STATUSES])].sort(
    (a, b) => a - b,
  );
}

/** The names of the path parameters of a template, in order: "/payments/{id}/cancel" -> ["id"]. */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
}

/**
 * Fills a path template with the values AS GIVEN: expandPath("/payments/{id}", { id: "pay_1" }) ->
 * "/payments/pay_1". Values are not percent-encoded here, so a probe can send a raw path on purpose;
 * callers encode ordinary ids themselves (`encodeURIComponent(id)`), as the suites do.
 */
export function expandPath(path: string, params: Readonly<Record<string, string>>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`missing path parameter ${name} for ${path}`);
    return v;
  });
}

/**
 * The examples of the OpenAPI document: one message per operation's success, per error status
 * and for the create request. They are what a mock server built from the document (Prism) answers,
 * so each is a message the spec allows, and test/schemas/openapi-mock.test.ts validates every one
 * against its schema. Placeholder hosts only (`.example`).
 */
import { ERROR_TABLE, type ErrorCode } from '../error-codes.ts';
import type { Operation, OperationId } from './operations.ts';

const CREATED_AT = '2026-03-01T10:15:30Z';
const MOVED_AT = '2026-03-01T10:16:00Z';

function examplePayment(status: 'PENDING' | 'PAID' | 'CANCELLED'): Record<string, unknown> {
  return {
    id: 'pay_01HZX0R3',
    object: 'payment',
    livemode: false,
    status,
    amount: '1250.50',
    currency: 'BDT',
    description: 'Order #1042',
    merchant_reference: 'INV-1042',
    external_id: 'order-1042',
    metadata: { order: '1042' },
    allowed_methods: ['BKASH', 'NAGAD'],
    allowed_channels: ['SEND_MONEY', 'PAYMENT'],
    return_url: 'https://shop.example/return',
    checkout_url: 'https://checkout.example/c/pay_01HZX0R3',
    created_at: CREATED_AT,
    paid_at: status === 'PAID' ? MOVED_AT : null,
    cancelled_at: status === 'CANCELLED' ? MOVED_AT : null,
  };
}

const SUCCESS_STATUS: Readonly<Record<OperationId, 'PENDING' | 'PAID' | 'CANCELLED' | 'list'>> = {
  createPayment: 'PENDING',
  listPayments: 'list',
  getPayment: 'PENDING',
  cancelPayment: 'CANCELLED',
  simulatePaymentSucceeded: 'PAID',
  simulatePaymentCancelled: 'CANCELLED',
};

/** The example body of an operation's success response. */
export function successExample(op: Operation): Record<string, unknown> {
  const kind = SUCCESS_STATUS[op.operationId];
  if (kind !== 'list') return examplePayment(kind);
  return { object: 'list', data: [examplePayment('PENDING'), examplePayment('PAID')], has_more: false, next_cursor: null };
}

/** The example body of an error response carrying `code`. */
export function errorExample(code: ErrorCode): Record<string, unknown> {
  return { error: { code, message: `${code.replace(/_/g, ' ')} (HTTP ${ERROR_TABLE[code]})`, request_id: 'req_01HZX0R5' } };
}

/** The example body of createPayment's request. */
export const CREATE_REQUEST_EXAMPLE: Readonly<Record<string, unknown>> = {
  amount: '1250.50',
  description: 'Order #1042',
  merchant_reference: 'INV-1042',
  external_id: 'order-1042',
  return_url: 'https://shop.example/return',
  metadata: { order: '1042' },
  allowed_methods: ['BKASH', 'NAGAD'],
};

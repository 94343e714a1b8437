/** Spec-shaped example messages shared by the schema tests. */
import type { CreatePaymentRequest, ErrorBody, Event, Payment, PaymentList } from '../../catalogue/schemas/index.ts';

export const payment = (over: Record<string, unknown> = {}): Payment => ({
  id: 'pay_01HZX0R3',
  object: 'payment',
  livemode: false,
  status: 'PENDING',
  amount: '1250.50',
  currency: 'BDT',
  description: 'Order #1042',
  merchant_reference: 'INV-1042',
  external_id: 'run42-0001',
  metadata: { conformance_run: 'run42', sink: 'fail:500x2' },
  allowed_methods: ['BKASH', 'NAGAD'],
  allowed_channels: ['SEND_MONEY', 'PAYMENT', 'CASH_IN', 'BANK_TRANSFER'],
  return_url: 'https://shop.example/return',
  checkout_url: 'https://checkout.example/c/pay_01HZX0R3',
  created_at: '2025-03-01T10:15:30Z',
  paid_at: null,
  cancelled_at: null,
  ...over,
});

/** Only the required members. */
export const minimalPayment = (): Payment => ({
  id: 'pay_2',
  object: 'payment',
  livemode: true,
  status: 'PAID',
  amount: '12345678901234567.89',
  currency: 'BDT',
  created_at: '2025-03-01T10:15:30.123+06:00',
});

export const paymentList = (data: unknown[] = [payment(), minimalPayment()]): PaymentList =>
  ({ object: 'list', data, has_more: true, next_cursor: 'pay_2' }) as PaymentList;

export const errorBody = (over: Record<string, unknown> = {}): ErrorBody => ({
  error: { code: 'invalid_amount', message: 'amount must be a decimal string', param: 'amount', request_id: 'req_9', ...over },
});

export const paymentEvent = (over: Record<string, unknown> = {}): Event => ({
  id: 'evt_01HZX0R4',
  object: 'event',
  api_version: 'v1',
  type: 'payment.paid',
  livemode: false,
  created_at: '2025-03-01T10:16:00Z',
  data: { object: payment({ status: 'PAID', paid_at: '2025-03-01T10:16:00Z' }) },
  ...over,
});

export const testEvent = (): Event => ({
  id: 'evt_test_1',
  object: 'event',
  api_version: 'v1',
  type: 'endpoint.test',
  livemode: false,
  created_at: '2025-03-01T10:16:00Z',
  data: { object: { note: 'synthetic, non-financial' } },
});

export const fullCreateRequest = (): CreatePaymentRequest => ({
  amount: '1250.50',
  description: 'Order #1042',
  merchant_reference: 'INV-1042',
  external_id: 'run42-0001',
  return_url: 'https://shop.example/return',
  metadata: { conformance_run: 'run42' },
  allowed_methods: ['BKASH'],
  allowed_channels: ['SEND_MONEY', 'BANK_TRANSFER'],
  customer_id: 'cus_1',
  order_id: 'ord_1',
});

/**
 * Open enumerations (spec: "Clients must tolerate unknown values ... when reading responses";
 * "Versioning"): an unknown value passes validation, and unknownEnumValues lists it for a WARN.
 */
import { describe, expect, it } from 'vitest';
import {
  COLLECTION_CHANNELS,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  WEBHOOK_EVENT_TYPES,
  unknownEnumValues,
  validate,
} from '../../catalogue/schemas/index.ts';
import { errorBody, payment, paymentEvent, paymentList, testEvent } from './fixtures.ts';

describe('known values are not reported', () => {
  it.each([
    ['Payment', payment()],
    ['PaymentList', paymentList()],
    ['Event', paymentEvent()],
    ['Event', testEvent()],
    ['Error', errorBody()],
  ] as const)('%s', (name, data) => {
    expect(unknownEnumValues(name, data)).toEqual([]);
  });

  it.each(PAYMENT_STATUSES)('status %s', (status) => {
    expect(unknownEnumValues('Payment', payment({ status }))).toEqual([]);
  });
  it.each(WEBHOOK_EVENT_TYPES)('event type %s', (type) => {
    expect(unknownEnumValues('Event', paymentEvent({ type }))).toEqual([]);
  });
});

describe('unknown values validate and are listed with their path and the known values', () => {
  it('Payment: status, a method and a channel', () => {
    const data = payment({ status: 'DISPUTED', allowed_methods: ['BKASH', 'ROCKET'], allowed_channels: ['QR'] });
    expect(validate('Payment', data).valid).toBe(true);
    expect(unknownEnumValues('Payment', data)).toEqual([
      { path: '/status', value: 'DISPUTED', known: [...PAYMENT_STATUSES] },
      { path: '/allowed_methods/1', value: 'ROCKET', known: [...PAYMENT_METHODS] },
      { path: '/allowed_channels/0', value: 'QR', known: [...COLLECTION_CHANNELS] },
    ]);
  });

  it('PaymentList: inside data[]', () => {
    const data = paymentList([payment(), payment({ status: 'ON_HOLD' })]);
    expect(validate('PaymentList', data).valid).toBe(true);
    expect(unknownEnumValues('PaymentList', data)).toEqual([
      { path: '/data/1/status', value: 'ON_HOLD', known: [...PAYMENT_STATUSES] },
    ]);
  });

  it('Event: the type, and the Payment in data.object of a payment.* event', () => {
    const data = paymentEvent({ type: 'payment.disputed', data: { object: payment({ status: 'DISPUTED' }) } });
    expect(validate('Event', data).valid).toBe(true);
    expect(unknownEnumValues('Event', data)).toEqual([
      { path: '/type', value: 'payment.disputed', known: [...WEBHOOK_EVENT_TYPES] },
      { path: '/data/object/status', value: 'DISPUTED', known: [...PAYMENT_STATUSES] },
    ]);
  });

  it('Event: data.object of a non-payment event is not read as a Payment', () => {
    const data = { ...testEvent(), data: { object: { status: 'WHATEVER' } } };
    expect(validate('Event', data).valid).toBe(true);
    expect(unknownEnumValues('Event', data)).toEqual([]);
  });

  it('Error: a code outside the error table (codes are open)', () => {
    const data = errorBody({ code: 'brand_new_code' });
    expect(validate('Error', data).valid).toBe(true);
    expect(unknownEnumValues('Error', data).map((u) => [u.path, u.value])).toEqual([['/error/code', 'brand_new_code']]);
  });

  it('values of the wrong type are left to validate(), not listed', () => {
    expect(unknownEnumValues('Payment', payment({ status: 3, allowed_methods: 'BKASH' }))).toEqual([]);
    expect(unknownEnumValues('Payment', null)).toEqual([]);
  });
});

describe('requests are strict', () => {
  it('an unknown method in a create body fails validation, and is not a "known values" matter', () => {
    const data = { amount: '1', allowed_methods: ['ROCKET'] };
    expect(validate('CreatePaymentRequest', data).valid).toBe(false);
    expect(unknownEnumValues('CreatePaymentRequest', data)).toEqual([]);
  });
});

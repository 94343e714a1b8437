/**
 * The JSON Schemas state the spec's tables ("Resources and their fields", "Limits"): spec-shaped
 * messages pass, messages broken in one named way fail with a readable error at the right place.
 */
import { describe, expect, it } from 'vitest';
import { ajv } from '../../catalogue/schemas/ajv.ts';
import {
  REQUEST_AMOUNT_PATTERN,
  SCHEMA_NAMES,
  SCHEMA_RESOURCES,
  SCHEMAS,
  registerSchemas,
  validate,
  validator,
  type SchemaName,
} from '../../catalogue/schemas/index.ts';
import {
  errorBody,
  fullCreateRequest,
  minimalPayment,
  payment,
  paymentEvent,
  paymentList,
  testEvent,
} from './fixtures.ts';

describe('compilation', () => {
  it('the shared Ajv instance is strict, 2020-12', () => {
    expect(ajv.opts.strict).toBe(true);
    expect(SCHEMAS.Payment.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it.each(SCHEMA_NAMES)('%s compiles in strict mode, once', (name) => {
    const fn = validator(name);
    expect(typeof fn).toBe('function');
    expect(validator(name)).toBe(fn); // cached
  });

  it.each(Object.keys(SCHEMA_RESOURCES))('resource %s compiles in strict mode', (name) => {
    registerSchemas();
    const id = SCHEMA_RESOURCES[name]!.$id as string;
    expect(id).toBe(`https://hps-conformance.dev/schemas/${name}.json`);
    expect(ajv.getSchema(id)).toBeTypeOf('function');
  });
});

const valid: Array<[string, SchemaName, unknown]> = [
  ['a Payment with every field', 'Payment', payment()],
  ['a Payment with only the required fields', 'Payment', minimalPayment()],
  [
    'a Payment whose nullable fields are null',
    'Payment',
    payment({ description: null, merchant_reference: null, external_id: null, return_url: null, checkout_url: null }),
  ],
  ['a CANCELLED Payment with cancelled_at', 'Payment', payment({ status: 'CANCELLED', cancelled_at: '2025-03-01T11:00:00+06:00' })],
  ['a Payment with a member the table does not list (additive evolution)', 'Payment', payment({ fee: '1.00' })],
  ['a Payment with an unknown status (open enumeration)', 'Payment', payment({ status: 'DISPUTED' })],
  ['a Payment with an unknown method and channel', 'Payment', payment({ allowed_methods: ['ROCKET'], allowed_channels: ['QR'] })],
  ['an integer amount string', 'Payment', payment({ amount: '100' })],
  ['a PaymentList', 'PaymentList', paymentList()],
  ['an empty last page without next_cursor', 'PaymentList', { object: 'list', data: [], has_more: false }],
  ['a PaymentList with next_cursor null', 'PaymentList', { object: 'list', data: [], has_more: false, next_cursor: null }],
  ['an Error with param', 'Error', errorBody()],
  ['an Error without param', 'Error', { error: { code: 'invalid_api_key', message: 'no key', request_id: 'req_1' } }],
  ['an Error with a code not in the table (codes are open)', 'Error', errorBody({ code: 'brand_new_code' })],
  ['a payment.paid Event carrying a Payment', 'Event', paymentEvent()],
  ['an endpoint.test Event (no Payment)', 'Event', testEvent()],
  ['an Event of an unknown non-payment type', 'Event', { ...testEvent(), type: 'customer.created' }],
  ['an Event of an unknown payment.* type carrying a Payment', 'Event', paymentEvent({ type: 'payment.disputed' })],
  ['the minimal create body', 'CreatePaymentRequest', { amount: '100.00' }],
  ['a create body with every field', 'CreatePaymentRequest', fullCreateRequest()],
  ['a create amount with one decimal', 'CreatePaymentRequest', { amount: '0.5' }],
  ['a large create amount', 'CreatePaymentRequest', { amount: '12345678901234567.89' }],
  ['a native deep link return_url', 'CreatePaymentRequest', { amount: '1', return_url: 'myshop://paid?x=1' }],
  ['metadata at its limits', 'CreatePaymentRequest', {
    amount: '1',
    metadata: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`${String(i).padStart(2, '0')}${'k'.repeat(62)}`, 'v'.repeat(500)])),
  }],
];

describe('spec-shaped messages are valid', () => {
  it.each(valid)('%s', (_title, name, data) => {
    expect(validate(name, data)).toEqual({ valid: true, errors: [] });
  });
});

/** [title, schema, data, an error line the result must contain] */
const invalid: Array<[string, SchemaName, unknown, string]> = [
  ['Payment without id', 'Payment', { ...payment(), id: undefined }, "/: must have required property 'id'"],
  ['Payment without created_at', 'Payment', { ...minimalPayment(), created_at: undefined }, "/: must have required property 'created_at'"],
  ['Payment with object "charge"', 'Payment', payment({ object: 'charge' }), '/object: must be equal to constant "payment"'],
  ['Payment in USD', 'Payment', payment({ currency: 'USD' }), '/currency: must be equal to constant "BDT"'],
  ['Payment amount as a JSON number', 'Payment', payment({ amount: 1250.5 }), '/amount: must be string'],
  ['Payment amount "1e3"', 'Payment', payment({ amount: '1e3' }), '/amount: must match pattern'],
  ['Payment amount "-5.00"', 'Payment', payment({ amount: '-5.00' }), '/amount: must match pattern'],
  ['Payment id as a number', 'Payment', payment({ id: 7 }), '/id: must be string'],
  ['Payment livemode as a string', 'Payment', payment({ livemode: 'false' }), '/livemode: must be boolean'],
  ['Payment status as a number', 'Payment', payment({ status: 1 }), '/status: must be string'],
  ['Payment created_at not a date-time', 'Payment', payment({ created_at: '01/03/2025' }), '/created_at: must match format "date-time"'],
  [
    'Payment paid_at without a time zone',
    'Payment',
    payment({ paid_at: '2025-03-01T10:16:00' }),
    '/paid_at: must match format "date-time"',
  ],
  ['Payment checkout_url as a number', 'Payment', payment({ checkout_url: 3 }), '/checkout_url: must be string,null'],
  ['Payment metadata with a number value', 'Payment', payment({ metadata: { n: 1 } }), '/metadata/n: must be string'],
  ['Payment metadata null (the table has no "or null")', 'Payment', payment({ metadata: null }), '/metadata: must be object'],
  ['Payment allowed_methods not an array', 'Payment', payment({ allowed_methods: 'BKASH' }), '/allowed_methods: must be array'],
  ['PaymentList without has_more', 'PaymentList', { object: 'list', data: [] }, "/: must have required property 'has_more'"],
  [
    'PaymentList with object "payments"',
    'PaymentList',
    { object: 'payments', data: [], has_more: false },
    '/object: must be equal to constant "list"',
  ],
  ['PaymentList with a number amount inside', 'PaymentList', paymentList([payment({ amount: 5 })]), '/data/0/amount: must be string'],
  ['Error without request_id', 'Error', { error: { code: 'x', message: 'y' } }, "/error: must have required property 'request_id'"],
  ['Error without message', 'Error', { error: { code: 'x', request_id: 'r' } }, "/error: must have required property 'message'"],
  ['Error without code', 'Error', { error: { message: 'm', request_id: 'r' } }, "/error: must have required property 'code'"],
  ['Error not wrapped in "error"', 'Error', { code: 'x', message: 'y', request_id: 'r' }, "/: must have required property 'error'"],
  ['Error param as a number', 'Error', errorBody({ param: 1 }), '/error/param: must be string'],
  ['Event id without the evt_ prefix', 'Event', paymentEvent({ id: 'ev_123' }), '/id: must match pattern "^evt_"'],
  ['Event api_version "v2"', 'Event', paymentEvent({ api_version: 'v2' }), '/api_version: must be equal to constant "v1"'],
  ['Event object "payment"', 'Event', paymentEvent({ object: 'payment' }), '/object: must be equal to constant "event"'],
  ['Event without data.object', 'Event', paymentEvent({ data: {} }), "/data: must have required property 'object'"],
  [
    'payment.* Event whose data.object is not a Payment',
    'Event',
    paymentEvent({ data: { object: { id: 'x' } } }),
    "/data/object: must have required property 'amount'",
  ],
  [
    'payment.* Event whose Payment has a number amount',
    'Event',
    paymentEvent({ data: { object: payment({ amount: 10 }) } }),
    '/data/object/amount: must be string',
  ],
  ['Event created_at not a date-time', 'Event', paymentEvent({ created_at: 'yesterday' }), '/created_at: must match format "date-time"'],
  ['create without amount', 'CreatePaymentRequest', { description: 'x' }, "/: must have required property 'amount'"],
  ['create amount as a JSON number', 'CreatePaymentRequest', { amount: 100 }, '/amount: must be string'],
  ['create amount with three decimals', 'CreatePaymentRequest', { amount: '1.005' }, '/amount: must match pattern'],
  ['create amount zero', 'CreatePaymentRequest', { amount: '0.00' }, '/amount: must match pattern'],
  ['create amount negative', 'CreatePaymentRequest', { amount: '-1.00' }, '/amount: must match pattern'],
  ['create with context_items', 'CreatePaymentRequest', { amount: '1', context_items: [] }, '/context_items: must not be present'],
  [
    'create allowed_methods ROCKET (request enumerations are strict)',
    'CreatePaymentRequest',
    { amount: '1', allowed_methods: ['ROCKET'] },
    '/allowed_methods/0: must be one of "BKASH", "NAGAD"',
  ],
  ['create allowed_channels QR', 'CreatePaymentRequest', { amount: '1', allowed_channels: ['QR'] }, '/allowed_channels/0: must be one of'],
  [
    'create return_url javascript:',
    'CreatePaymentRequest',
    { amount: '1', return_url: 'JavaScript:alert(1)' },
    '/return_url: must not match pattern',
  ],
  [
    'create return_url data:',
    'CreatePaymentRequest',
    { amount: '1', return_url: 'data:text/html,x' },
    '/return_url: must not match pattern',
  ],
  [
    'create return_url file:',
    'CreatePaymentRequest',
    { amount: '1', return_url: 'file:///etc/passwd' },
    '/return_url: must not match pattern',
  ],
  [
    'create return_url intent:',
    'CreatePaymentRequest',
    { amount: '1', return_url: 'intent://x#Intent;end' },
    '/return_url: must not match pattern',
  ],
  ['create return_url relative', 'CreatePaymentRequest', { amount: '1', return_url: '/return' }, '/return_url: must match pattern'],
  [
    'create metadata with 21 keys',
    'CreatePaymentRequest',
    { amount: '1', metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])) },
    '/metadata: must NOT have more than 20 properties',
  ],
  [
    'create metadata key of 65 characters',
    'CreatePaymentRequest',
    { amount: '1', metadata: { ['k'.repeat(65)]: 'v' } },
    'must NOT have more than 64 characters',
  ],
  [
    'create metadata value of 501 characters',
    'CreatePaymentRequest',
    { amount: '1', metadata: { k: 'v'.repeat(501) } },
    '/metadata/k: must NOT have more than 500 characters',
  ],
  ['create metadata value as a number', 'CreatePaymentRequest', { amount: '1', metadata: { k: 1 } }, '/metadata/k: must be string'],
];

describe('broken messages are invalid, with a readable error at the right place', () => {
  it.each(invalid)('%s', (_title, name, data, line) => {
    const result = validate(name, JSON.parse(JSON.stringify(data)));
    expect(result.valid).toBe(false);
    expect(result.errors.some((e) => e.startsWith(line) || e.includes(line)), result.errors.join('\n')).toBe(true);
  });
});

describe('error lines', () => {
  it('name the JSON pointer of the value, then what is wrong', () => {
    const { errors } = validate('PaymentList', paymentList([payment(), payment({ amount: '1,000.00' })]));
    expect(errors).toEqual(['/data/1/amount: must match pattern "^[0-9]+(\\.[0-9]+)?$"']);
  });

  it('report every problem (allErrors), once each', () => {
    const { errors } = validate('Payment', { object: 'payment' });
    expect(errors).toHaveLength(6);
    expect(new Set(errors).size).toBe(errors.length);
  });

  it('drop the generic if/then line of an Event', () => {
    const { errors } = validate('Event', paymentEvent({ data: { object: payment({ currency: 'EUR' }) } }));
    expect(errors).toEqual(['/data/object/currency: must be equal to constant "BDT"']);
  });
});

describe('borderline create amounts are not claimed valid (DESIGN principle 2)', () => {
  const re = new RegExp(REQUEST_AMOUNT_PATTERN, 'u');
  it.each(['007', '1.', '.5', '+1', '1e2', ' 1', '1 ', '1,00'])('%j does not match', (a) => {
    expect(re.test(a)).toBe(false);
  });
  it.each(['1', '0.01', '10.10', '999999999999999999999.99'])('%j matches', (a) => {
    expect(re.test(a)).toBe(true);
  });
});

/**
 * The fields of the Payment `getPayment` answers, one planted fault per constraint of the
 * Payment table (spec "Resources and their fields › Payment"): a field of another type, a required
 * field left out, a field whose value means something else. The check passes the answer on
 * unchanged; each fault answers GET with the one field changed and every other field as it is,
 * the smallest deviation an implementation with that slip would show.
 */
import { jsonReply, type Reply } from './reply.ts';
import type { AppContext } from './context.ts';
import { toPaymentResource } from './payments.ts';
import type { PlantingStep, Step } from './steps.ts';
import type { PaymentRecord, PaymentResource } from './types.ts';

/** getPayment's answer and what it was made from. */
export interface Shown {
  readonly ctx: AppContext;
  readonly payment: PaymentRecord;
  readonly reply: Reply;
}

type Fields = Record<string, unknown>;

/** A fault that answers GET with `alter` applied to the Payment's fields; caught by `rules`. */
function shown(does: string, violates: string | readonly string[], alter: (fields: Fields, payment: PaymentRecord) => Fields, rules: readonly string[] = ['RESP-PAYMENT-SCHEMA']) {
  return {
    does,
    breaks: rules,
    violates: typeof violates === 'string' ? [violates] : violates,
    plant: ({ ctx, payment }: Shown): Reply => jsonReply(200, alter({ ...(toPaymentResource(payment, ctx.decisions) as PaymentResource & Fields) }, payment)),
  };
}

function without(field: string): (fields: Fields) => Fields {
  return (fields) => {
    const { [field]: _left, ...rest } = fields;
    return rest;
  };
}

/** A row number as a database would hand it out: a stable number derived from the id. */
const rowNumber = (id: string) => Number.parseInt(id.replace(/[^0-9a-f]/gi, '').slice(0, 8) || '1', 16);

/** The create rule that reads a Payment back and compares each field with what was sent. */
const ECHOED = ['CREATE-FIELDS-ECHOED', 'RESP-PAYMENT-SCHEMA'];

/** A string field as some ORMs serialise a value object; null and absence as they are. */
const boxed = (value: unknown) => (typeof value === 'string' ? { value } : value);

const STATUS_ORDINAL: Readonly<Record<string, number>> = { PENDING: 0, PAID: 1, CANCELLED: 2, REVERSED: 3 };

export const GET_FIELDS: Step<Shown, Reply> = {
  name: 'the fields of the Payment getPayment answers',
  check: ({ reply }) => reply,
  faulty: {
    'get-id-as-row-number': shown('getPayment answers id as the database row number (a JSON number), not the string id.', 'payment.field.id#type', (f, p) => ({ ...f, id: rowNumber(p.id) })),
    'get-omits-id': shown('getPayment leaves id out of the Payment (the caller asked by id, after all).', 'payment.field.id#present', without('id')),
    'get-object-capitalised': shown('getPayment answers object "Payment" (the class name), not "payment".', 'payment.field.object#meaning', (f) => ({ ...f, object: 'Payment' })),
    'get-omits-object': shown('getPayment leaves object out of the Payment.', 'payment.field.object#present', without('object')),
    'get-object-as-type-tag': shown('getPayment answers object as a type tag object ({ "type": "payment" }), not the string.', 'payment.field.object#type', (f) => ({ ...f, object: { type: 'payment' } })),
    'get-livemode-as-string': shown('getPayment answers livemode as the string "false" / "true", not a boolean.', 'payment.field.livemode#type', (f) => ({ ...f, livemode: String(f.livemode) })),
    'get-omits-livemode': shown('getPayment leaves livemode out of the Payment.', 'payment.field.livemode#present', without('livemode')),
    'get-status-as-ordinal': shown('getPayment answers status as the enum\'s ordinal (0 for PENDING …), not the PaymentStatus string.', 'payment.field.status#type', (f) => ({ ...f, status: STATUS_ORDINAL[String(f.status)] ?? 0 })),
    'get-omits-status': shown('getPayment leaves status out of the Payment.', 'payment.field.status#present', without('status')),
    'get-omits-amount': shown('getPayment leaves amount out of the Payment.', 'payment.field.amount#present', without('amount')),
    'get-currency-lowercase': shown('getPayment answers currency "bdt", not "BDT".', 'payment.field.currency#meaning', (f) => ({ ...f, currency: 'bdt' })),
    'get-omits-currency': shown('getPayment leaves currency out of the Payment.', 'payment.field.currency#present', without('currency')),
    'get-currency-as-object': shown('getPayment answers currency as an object ({ "code": "BDT" }), not the string.', 'payment.field.currency#type', (f) => ({ ...f, currency: { code: 'BDT' } })),
    'get-created-at-epoch-ms': shown('getPayment answers created_at as a Unix time in milliseconds (a JSON number), not a date-time string.', 'payment.field.created_at#type', (f, p) => ({ ...f, created_at: p.createdAt })),
    'get-omits-created-at': shown('getPayment leaves created_at out of the Payment.', 'payment.field.created_at#present', without('created_at')),
    'get-metadata-as-json-text': shown('getPayment answers metadata as the JSON text of its column, not an object.', 'payment.field.metadata#type', (f) => ({ ...f, metadata: JSON.stringify(f.metadata ?? {}) })),
    'get-description-as-array': shown('getPayment answers description as an array of lines, not a string or null.', 'payment.field.description#type', (f) => ({ ...f, description: f.description === null ? null : String(f.description).split('\n') }), ECHOED),
    'get-description-dropped': shown('getPayment answers description null: the read model never copies it from the create.', 'payment.field.description#meaning', (f) => ({ ...f, description: null }), ['CREATE-FIELDS-ECHOED']),
    'get-external-id-dropped': shown('getPayment answers external_id null: the read model never copies it from the create.', 'payment.field.external_id#meaning', (f) => ({ ...f, external_id: null }), ['CREATE-FIELDS-ECHOED']),
    'get-metadata-dropped': shown('getPayment answers metadata {}: the read model never copies it from the create.', 'payment.field.metadata#meaning', (f) => ({ ...f, metadata: {} }), ['CREATE-FIELDS-ECHOED']),
    'get-amount-in-minor-units': shown('getPayment answers amount in minor units ("123456" for "1234.56"), the ledger\'s integer as a string.', 'payment.field.amount#meaning', (f) => ({ ...f, amount: String(f.amount).replace('.', '') }), ['CREATE-AMOUNT-DECIMAL-EXACT']),
    'get-id-of-checkout-session': shown('getPayment answers the id of the Payment\'s checkout session (cs_…), not the Payment\'s own id.', 'payment.field.id#meaning', (f) => ({ ...f, id: String(f.id).replace(/^pay_/, 'cs_') }), ['TRANS-CREATE-PENDING']),
    'get-merchant-reference-as-object': shown('getPayment answers merchant_reference as an object ({ "value": … }), not a string or null.', 'payment.field.merchant_reference#type', (f) => ({ ...f, merchant_reference: boxed(f.merchant_reference) }), ECHOED),
    'get-external-id-as-object': shown('getPayment answers external_id as an object ({ "value": … }), not a string or null.', 'payment.field.external_id#type', (f) => ({ ...f, external_id: boxed(f.external_id) }), ECHOED),
    'get-return-url-as-object': shown('getPayment answers return_url as a parsed URL object ({ "href": … }), not a string or null.', 'payment.field.return_url#type', (f) => ({ ...f, return_url: f.return_url === null || f.return_url === undefined ? f.return_url : { href: f.return_url } }), ECHOED),
    'get-allowed-methods-joined': shown('getPayment answers allowed_methods as one comma-joined string ("NAGAD,BKASH"), not an array.', 'payment.field.allowed_methods#type', (f) => (Array.isArray(f.allowed_methods) ? { ...f, allowed_methods: f.allowed_methods.join(',') } : f), ECHOED),
    'get-allowed-channels-joined': shown('getPayment answers allowed_channels as one comma-joined string, not an array.', 'payment.field.allowed_channels#type', (f) => (Array.isArray(f.allowed_channels) ? { ...f, allowed_channels: f.allowed_channels.join(',') } : f), ECHOED),
    'get-checkout-url-as-object': shown('getPayment answers checkout_url as an object ({ "url": … }), not a string or null.', 'payment.field.checkout_url#type', (f) => ({ ...f, checkout_url: f.checkout_url === null ? null : { url: f.checkout_url } })),
    'get-paid-at-epoch-ms': shown('getPayment answers paid_at, once set, as a Unix time in milliseconds (a JSON number).', 'payment.field.paid_at#type', (f, p) => ({ ...f, paid_at: p.paidAt ?? null }), ['RESP-PAYMENT-SCHEMA', 'TRANS-HELPER-SUCCEED']),
    'get-cancelled-at-epoch-ms': shown('getPayment answers cancelled_at, once set, as a Unix time in milliseconds (a JSON number).', 'payment.field.cancelled_at#type', (f, p) => ({ ...f, cancelled_at: p.cancelledAt ?? null }), ['RESP-PAYMENT-SCHEMA', 'TRANS-CANCEL']),
    'get-paid-shown-as-succeeded': shown('getPayment shows a PAID Payment with status SUCCEEDED (the provider\'s word), a value PaymentStatus does not have.', ['states.helper-succeed#paid', 'enums.payment-status#values', 'states.list'], (f) => (f.status === 'PAID' ? { ...f, status: 'SUCCEEDED' } : f), ['TRANS-HELPER-SUCCEED']),
    'get-test-livemode-true': shown('getPayment shows a Test Payment with livemode true (the flag read from the key\'s account, not the Payment).', ['payment.field.livemode#meaning', 'overview.environment.test'], (f) => (f.livemode === false ? { ...f, livemode: true } : f), ['RESP-PAYMENT-LIVEMODE']),
    'get-pending-shown-as-open': shown('getPayment shows a PENDING Payment with status OPEN (the checkout session\'s word), not PENDING.', 'states.create-pending#pending', (f) => (f.status === 'PENDING' ? { ...f, status: 'OPEN' } : f), ['TRANS-CREATE-PENDING']),
    'get-created-at-is-read-time': shown('getPayment answers created_at as the moment of the read (an updated_at slip), not the moment of the create.', 'payment.field.created_at#meaning', (f, p) => ({ ...f, created_at: new Date(Math.max(Date.now(), p.createdAt + 1)).toISOString() }), ['TRANS-CREATE-PENDING']),
  },
};

export const FAULTY_STEPS: readonly PlantingStep[] = [GET_FIELDS];

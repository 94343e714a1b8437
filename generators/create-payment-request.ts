/**
 * CreatePaymentRequest (spec: "Resources and their fields" > "CreatePaymentRequest (JSON body)") and
 * the enumerations it uses, as types and data for the generators. No arbitrary lives here.
 */

/** PaymentMethod (spec: "Enumerations"). */
export const PAYMENT_METHODS = ['BKASH', 'NAGAD'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** CollectionChannel (spec: "Enumerations"). */
export const COLLECTION_CHANNELS = ['SEND_MONEY', 'PAYMENT', 'CASH_IN', 'BANK_TRANSFER'] as const;
export type CollectionChannel = (typeof COLLECTION_CHANNELS)[number];

/** A valid request body. customer_id and order_id need profile fixtures, so no generator fills them. */
export interface CreatePaymentRequest {
  amount: string;
  description?: string;
  merchant_reference?: string;
  external_id?: string;
  return_url?: string;
  metadata?: Record<string, string>;
  allowed_methods?: PaymentMethod[];
  allowed_channels?: CollectionChannel[];
  customer_id?: string;
  order_id?: string;
}

/** Every field of CreatePaymentRequest, in spec order. */
export const CREATE_REQUEST_FIELDS = [
  'amount',
  'description',
  'merchant_reference',
  'external_id',
  'return_url',
  'metadata',
  'allowed_methods',
  'allowed_channels',
  'customer_id',
  'order_id',
] as const;
export type CreateRequestField = (typeof CREATE_REQUEST_FIELDS)[number];

/** Metadata keys the suite itself uses as markers (DESIGN: run marker, sink instructions). */
export const RESERVED_METADATA_KEYS = ['conformance_run', 'sink'] as const;

/** The characters a generated external_id uses (`[A-Za-z0-9_-]`); a run marker's runId must use them too. */
export const EXTERNAL_ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

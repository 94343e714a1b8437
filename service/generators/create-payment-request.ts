/**
 * CreatePaymentRequest (spec: "Resources and their fields" > "CreatePaymentRequest (JSON body)") and
 * the enumerations it uses, as types and data for the generators. No arbitrary lives here.
 */

// The enumerations and the request type are the schemas' own (one definition in the project).
export {
  COLLECTION_CHANNELS,
  PAYMENT_METHODS,
  type CollectionChannel,
  type CreatePaymentRequest,
  type PaymentMethod,
} from '../../catalogue/schemas/index.ts';

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

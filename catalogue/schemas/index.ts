/**
 * The public surface of catalogue/schemas/: JSON Schemas (draft 2020-12) of the messages of the Hosted Payment
 * Service API v1, their validation through the project's one Ajv instance, the operations table, and
 * the OpenAPI 3.1 description document built from both.
 */
export {
  SCHEMA_BASE,
  JSON_SCHEMA_DIALECT,
  PAYMENT_STATUSES,
  PAYMENT_METHODS,
  COLLECTION_CHANNELS,
  WEBHOOK_EVENT_TYPES,
  ENUMERATIONS,
  ENUM_SCHEMAS,
  PaymentStatusSchema,
  PaymentMethodSchema,
  CollectionChannelSchema,
  WebhookEventTypeSchema,
  strictEnum,
  type PaymentStatus,
  type PaymentMethod,
  type CollectionChannel,
  type WebhookEventType,
  type EnumerationName,
} from './enums.ts';
export { PaymentSchema, MetadataSchema, RESPONSE_AMOUNT_PATTERN, type Payment } from './payment.ts';
export { PaymentListSchema, type PaymentList } from './payment-list.ts';
export { ErrorSchema, type ErrorBody } from './error.ts';
export {
  EventSchema,
  EVENT_ID_PATTERN,
  SERVICE_SIGNATURE_PATTERN,
  WEBHOOK_USER_AGENT,
  isPaymentEvent,
  type Event,
  type PaymentEvent,
} from './event.ts';
export {
  CreatePaymentRequestSchema,
  REQUEST_AMOUNT_PATTERN,
  RETURN_URL_SCHEME_PATTERN,
  RETURN_URL_REJECTED_SCHEME_PATTERN,
  METADATA_MAX_KEYS,
  METADATA_MAX_KEY_LENGTH,
  METADATA_MAX_VALUE_LENGTH,
  type CreatePaymentRequest,
} from './create-payment-request.ts';
export { SCHEMAS, SCHEMA_NAMES, SCHEMA_RESOURCES, registerSchemas, type SchemaName } from './registry.ts';
export { validate, validator, formatErrors, formatError, type ValidationResult } from './validate.ts';
export { unknownEnumValues, type UnknownEnumValue } from './unknown-values.ts';
export {
  OPERATIONS,
  OPERATION_IDS,
  ALWAYS_ACCEPTED_STATUSES,
  operation,
  acceptedStatuses,
  pathParameters,
  expandPath,
  type Operation,
  type OperationId,
  type Scope,
  type HttpMethod,
} from './operations.ts';
export {
  buildOpenApiDocument,
  serializeOpenApiDocument,
  toDocumentSchema,
  errorCodesFor,
  documentPath,
  API_PREFIX,
  OPENAPI_VERSION,
  DOCUMENT_VERSION,
  type OpenApiDocument,
} from './openapi.ts';

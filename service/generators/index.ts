/**
 * The public surface of `service/generators/`: fast-check arbitraries for the suites' inputs (createPayment
 * bodies first, then the inputs of other areas), each in its own file with a spec beside it.
 * Positive generators yield values; negative ones yield InvalidCase (value, rule broken, every 400
 * code allowed, why); borderline ones yield BorderlineCase (value, why) and are only observed.
 * index.spec.ts checks that every generator file has a spec and that everything it exports is here.
 * Suites may import a generator from its own file as well.
 */

// the contract and the request's shape
export { CREATE_RULE_IDS, SINGLE_FIELD_RULE_IDS, unionCodes } from './invalid-case.ts';
export type { BorderlineCase, CreateRuleId, InvalidCase } from './invalid-case.ts';
export {
  COLLECTION_CHANNELS,
  CREATE_REQUEST_FIELDS,
  EXTERNAL_ID_CHARS,
  PAYMENT_METHODS,
  RESERVED_METADATA_KEYS,
} from './create-payment-request.ts';
export type { CollectionChannel, CreatePaymentRequest, CreateRequestField, PaymentMethod } from './create-payment-request.ts';

// amount
export { validAmount } from './valid-amount.ts';
export type { ValidAmountConstraints } from './valid-amount.ts';
export { invalidAmount } from './invalid-amount.ts';
export { amountNotString } from './amount-not-string.ts';
export { borderlineAmount } from './borderline-amount.ts';

// return_url
export { validReturnUrl } from './valid-return-url.ts';
export type { ValidReturnUrlConstraints } from './valid-return-url.ts';
export { invalidReturnUrl } from './invalid-return-url.ts';
export type { InvalidReturnUrlConstraints, ReturnUrlRuleId } from './invalid-return-url.ts';
export { borderlineReturnUrl } from './borderline-return-url.ts';

// metadata
export { validMetadata, METADATA_MAX_KEYS, METADATA_MAX_KEY_LENGTH, METADATA_MAX_VALUE_LENGTH } from './valid-metadata.ts';
export type { ValidMetadataConstraints } from './valid-metadata.ts';
export { invalidMetadata, METADATA_RULE_IDS } from './invalid-metadata.ts';
export type { InvalidMetadataConstraints, MetadataRuleId } from './invalid-metadata.ts';
export { borderlineMetadata } from './borderline-metadata.ts';

// allowed_methods / allowed_channels
export { validAllowedMethods } from './valid-allowed-methods.ts';
export { validAllowedChannels } from './valid-allowed-channels.ts';
export { invalidAllowedMethods } from './invalid-allowed-methods.ts';
export { invalidAllowedChannels } from './invalid-allowed-channels.ts';

// context_items
export { contextItems } from './context-items.ts';
export { borderlineContextItems } from './borderline-context-items.ts';

// lengths, types, raw bodies, headers
export { longString } from './long-string.ts';
export type { LongStringConstraints } from './long-string.ts';
export { wrongTypeField, WRONG_TYPE_CODES } from './wrong-type-field.ts';
export type { FieldValue, WrongTypeFieldConstraints } from './wrong-type-field.ts';
export { malformedBody } from './malformed-body.ts';
export type { BodyRuleId, MalformedBodyConstraints } from './malformed-body.ts';
export { wrongContentType } from './wrong-content-type.ts';
export type { ContentTypeCase } from './wrong-content-type.ts';

// whole requests
export { uniqueSuffix } from './unique-suffix.ts';
export type { UniqueSuffixConstraints } from './unique-suffix.ts';
export { validCreateRequest, checkMarker, EXTERNAL_ID_MAX_GENERATED } from './valid-create-request.ts';
export type { RunMarker, ValidCreateRequestConstraints } from './valid-create-request.ts';
export { invalidCreateRequest, slotsBrokenBy } from './invalid-create-request.ts';
export type { InvalidCreateRequestConstraints, SingleFieldRuleId } from './invalid-create-request.ts';
export { multiViolationRequest } from './multi-violation-request.ts';
export type { MultiViolationCase, MultiViolationRequestConstraints } from './multi-violation-request.ts';

// enumerations
export { enumNearMisses } from './enum-near-misses.ts';
export type { NearMiss } from './enum-near-misses.ts';

// idempotency
export { idempotencyKeySuffix, IDEMPOTENCY_KEY_SUFFIX_CHARS } from './idempotency-key-suffix.ts';
export { idempotencyBodyFields } from './idempotency-body-fields.ts';
export type { BodyFields } from './idempotency-body-fields.ts';
export { bodyChange, BODY_CHANGES } from './body-change.ts';
export type { BodyChange } from './body-change.ts';

// webhooks
export { eventText, EVENT_TEXT_SPECIALS } from './event-text.ts';
export type { EventTextConstraints } from './event-text.ts';
export { eventTextFields } from './event-text-fields.ts';
export type { TextFields } from './event-text-fields.ts';

// orders
export { amountBetween, formatCents } from './amount-between.ts';

// transitions
export { pendingBody } from './pending-body.ts';

// routing, auth and versioning
export { unknownRoutePath } from './unknown-route-path.ts';
export { otherVersionPrefix } from './other-version-prefix.ts';
export { anyRequestPath } from './any-request-path.ts';
export { anyRequestBody } from './any-request-body.ts';
export type { RequestBodyKind } from './any-request-body.ts';

// responses (RESP-*): random traffic
export { trafficStep, KEY_KINDS, TOO_MANY_METADATA_KEYS, UNKNOWN_ROUTES } from './traffic-step.ts';
export type { BodyCase, IdCase, IdemCase, IdOp, KeyKind, Step } from './traffic-step.ts';

// auth: credentials that are not a valid key
export { invalidCredentials, splitKey, printWithoutText } from './invalid-credentials.ts';
export type { BadCredential, CredentialConstraints, PrintCredential } from './invalid-credentials.ts';
export { fixedMalformedForms, malformedAuthorization, malformedAuthorizationTable } from './malformed-authorization.ts';
export { unknownKey } from './unknown-key.ts';

// listing: query parameters
export { unknownStatusFilter } from './unknown-status-filter.ts';
export { malformedDateFilter } from './malformed-date-filter.ts';
export { badLimit } from './bad-limit.ts';

// the fixed case tables (one titled case per row; service/harness/worker/cases.ts)
export {
  AMOUNT_NOT_STRING_CASES,
  BAD_LIMIT_CASES,
  CASE_TABLES,
  casesOfRule,
  fieldRuleEdgeTable,
  GOOD_LIMIT_CASES,
  INVALID_AMOUNT_CASES,
  MALFORMED_KEY_CASES,
  WRONG_TYPE_CASES,
} from './case-tables.ts';
export type { MalformedKeyCase, WrongTypeCase } from './case-tables.ts';

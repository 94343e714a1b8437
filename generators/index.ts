/**
 * The public surface of `generators/`: fast-check arbitraries for createPayment inputs, each in its
 * own file with a spec beside it. Positive generators yield values; negative ones yield
 * InvalidCase (value, rule broken, every 400 code allowed, why); borderline ones yield
 * BorderlineCase (value, why) and are only observed.
 */

// the contract and the request's shape
export { CREATE_RULE_IDS, unionCodes } from './invalid-case.ts';
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
export { validCreateRequest, checkMarker } from './valid-create-request.ts';
export type { RunMarker, ValidCreateRequestConstraints } from './valid-create-request.ts';
export { invalidCreateRequest } from './invalid-create-request.ts';
export type { InvalidCreateRequestConstraints, SingleFieldRuleId } from './invalid-create-request.ts';
export { multiViolationRequest } from './multi-violation-request.ts';
export type { MultiViolationCase, MultiViolationRequestConstraints } from './multi-violation-request.ts';

// enumerations
export { enumNearMisses } from './enum-near-misses.ts';
export type { NearMiss } from './enum-near-misses.ts';

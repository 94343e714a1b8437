/**
 * The create area's fixed tables (catalogue/case-table.ts): the edges every seed sends before the
 * generated cases. A row that needs the run's marks (a fresh external_id, the metadata marker) is
 * built from them when it runs; its title never depends on them. Observed-only tables (borderline
 * amounts, URLs, metadata, content types, unknown fields) are not here: they assert nothing.
 */
import type { CaseTable } from '../../../catalogue/case-table.ts';
import type { ErrorCode } from '../../../catalogue/error-codes.ts';
import type { CreateRuleId, InvalidCase } from '../invalid-case.ts';
import { COLLECTION_CHANNELS, PAYMENT_METHODS } from '../create-payment-request.ts';
import { enumNearMisses } from '../enum-near-misses.ts';
import { METADATA_MAX_KEY_LENGTH, METADATA_MAX_KEYS, METADATA_MAX_VALUE_LENGTH } from '../valid-metadata.ts';

type Body = Record<string, unknown>;
type Metadata = Record<string, unknown>;

/** The run's marks a row is built from (a rule test's context has both). */
export interface Marks {
  metadata(extra?: Record<string, string>): Record<string, string>;
  externalId(label?: string): string;
}

const quoted = (v: unknown): string => JSON.stringify(v) ?? String(v);
const codesText = (codes: readonly string[]): string => codes.join(' or ');

// ── amount ──

/** A body without an amount. */
export interface NoAmountRow {
  readonly why: string;
  build(m: Marks): Body;
}

/** CREATE-AMOUNT-MISSING: bodies without an amount. */
export const AMOUNT_MISSING_CASES: CaseTable<NoAmountRow> = {
  rule: 'CREATE-AMOUNT-MISSING',
  name: 'bodies without an amount',
  rows: () => [
    { why: 'a body with metadata only, no amount', build: (m) => ({ metadata: m.metadata() }) },
    { why: 'no amount', build: (m) => ({ external_id: m.externalId('miss'), metadata: m.metadata() }) },
    {
      why: 'no amount, other fields valid',
      build: (m) => ({ description: 'no amount here', metadata: m.metadata(), allowed_methods: ['BKASH'] }),
    },
  ],
  title: (r) => `${r.why} is rejected with 400 invalid_amount or invalid_request`,
};

/** CREATE-VALID-ACCEPTED: valid bodies (the run's external_id and metadata added). */
export const VALID_BODY_CASES: CaseTable<Body> = {
  rule: 'CREATE-VALID-ACCEPTED',
  name: 'valid bodies',
  rows: () => [
    { amount: '0.01' },
    { amount: '1' },
    { amount: '10.5' },
    { amount: '99.99' },
    { amount: '100.00' },
    { amount: '12345678901234567.89' },
    { amount: '250.00', description: 'Order 1042', merchant_reference: 'INV-1042', return_url: 'https://shop.example.com/done?o=1042' },
    {
      amount: '75.25',
      return_url: 'myshop://checkout/done',
      allowed_methods: ['BKASH', 'NAGAD'],
      allowed_channels: ['SEND_MONEY', 'PAYMENT', 'CASH_IN', 'BANK_TRANSFER'],
    },
    { amount: '5', allowed_methods: ['NAGAD'], allowed_channels: ['BANK_TRANSFER'] },
  ],
  title: (b) => `${quoted(b)} is accepted: 201 with a PENDING Payment`,
};

/**
 * CREATE-VALID-ACCEPTED at the lower edge of the body: the smallest valid request, amount alone, sent
 * without the run's external_id and metadata (the harness's bookkeeping, which every other body
 * carries, would hide it: docs/rulings.md, "The harness's own bookkeeping"). The Payment is still
 * cancelled at the end of the file (the clean-up goes by the id the create answered).
 */
export const BARE_BODY_CASES: CaseTable<Body> = {
  rule: 'CREATE-VALID-ACCEPTED',
  name: 'the smallest valid body, unmarked',
  rows: () => [{ amount: '0.01' }, { amount: '1' }],
  title: (b) => `${quoted(b)} alone (no external_id, no metadata) is accepted: 201 with a PENDING Payment`,
  after: VALID_BODY_CASES,
};

/** CREATE-AMOUNT-DECIMAL-EXACT: amounts a float or a 32/64-bit cents integer cannot hold, and cents a float rounds wrongly. */
export const DECIMAL_EXACT_CASES: CaseTable<string> = {
  rule: 'CREATE-AMOUNT-DECIMAL-EXACT',
  name: 'amounts past float and integer precision',
  rows: () => [
    '12345678901234567.89',
    '99999999999999999.99',
    '9007199254740993',
    '9007199254740993.01',
    '92233720368547758.07',
    '0.29',
    '1.13',
    '4.35',
    '0.1',
    '21474836.48',
  ],
  title: (a) => `amount ${quoted(a)} comes back the same decimal on the 201 and on a read`,
};

// ── the body itself ──

/** A raw body made from a valid JSON body of the run. */
export interface RawBodyRow {
  readonly why: string;
  readonly codes: readonly ErrorCode[];
  raw(validJson: (label: string) => string): string;
}

const broken = (why: string, raw: (json: string) => string): RawBodyRow => ({ why, codes: ['invalid_request'], raw: (j) => raw(j('mal')) });

/** CREATE-MALFORMED-JSON: bodies that are not JSON. */
export const MALFORMED_JSON_CASES: CaseTable<RawBodyRow> = {
  rule: 'CREATE-MALFORMED-JSON',
  name: 'bodies that are not JSON',
  rows: () => [
    broken('cut short (no closing brace)', (json) => json.slice(0, -1)),
    broken('cut short inside a string', (json) => json.slice(0, 12)),
    broken('with a trailing comma', (json) => `${json.slice(0, -1)},}`),
    broken('with single quotes', (json) => json.replaceAll('"', "'")),
    broken('with unquoted keys', (json) => json.replace(/"([a-z_]+)":/g, '$1:')),
    broken('with garbage after the object', (json) => `${json} x`),
    broken('of two objects back to back', (json) => `${json}${json}`),
    broken('with NaN as a value', () => '{"amount":NaN}'),
    broken('with a raw control character in a string', () => '{"amount":"10.00","description":"a\u0001b"}'),
    broken('with an invalid escape', () => '{"amount":"10.00","description":"\\x41"}'),
    broken('of a byte order mark and garbage', () => '\uFEFF{garbage'),
    broken('form-encoded', () => 'amount=10.00&description=x'),
    broken('a lone brace', () => '{'),
    { why: 'empty', codes: ['invalid_request', 'invalid_amount'], raw: () => '' },
  ],
  title: (r) => `a body ${r.why} is rejected with 400 ${codesText(r.codes)}`,
};

const notObject = (
  why: string,
  raw: (validJson: (label: string) => string) => string,
): RawBodyRow => ({ why, codes: ['invalid_request', 'invalid_amount'], raw });

/** CREATE-BODY-NOT-OBJECT: JSON bodies that are not an object. */
export const NOT_OBJECT_CASES: CaseTable<RawBodyRow> = {
  rule: 'CREATE-BODY-NOT-OBJECT',
  name: 'JSON bodies that are not an object',
  rows: () => [
    notObject('is an empty array', () => '[]'),
    notObject('is an array holding a valid body', (j) => `[${j('arr')}]`),
    notObject('is a valid body encoded twice (a JSON string)', (j) => JSON.stringify(j('str'))),
    notObject('is a JSON string', () => '"10.00"'),
    notObject('is a JSON number', () => '10'),
    notObject('is null', () => 'null'),
    notObject('is true', () => 'true'),
    notObject('is false', () => 'false'),
  ],
  title: (r) => `a body that ${r.why} is rejected with 400 ${codesText(r.codes)}`,
};

/** One rule a multi-violation body breaks, named by its field. */
export interface ViolationPart {
  readonly why: string;
  readonly breaks: CreateRuleId;
  readonly codes: readonly ErrorCode[];
}

/** A body breaking several rules at once (none of whose codes is invalid_request). */
export interface MultiViolationRow {
  readonly why: string;
  readonly parts: readonly ViolationPart[];
  extra(m: Marks): Body;
}

const part = (field: string, breaks: CreateRuleId, code: ErrorCode): ViolationPart => ({ why: field, breaks, codes: [code] });

function manyKeys(m: Marks): Record<string, string> {
  const many: Record<string, string> = m.metadata();
  for (let i = 0; i < 21; i++) many[`key_${i}`] = 'v';
  return many;
}

/** CREATE-MULTI-VIOLATION: pairs and triples whose codes are all specific: a target answering a generic code fails them. */
export const MULTI_VIOLATION_CASES: CaseTable<MultiViolationRow> = {
  rule: 'CREATE-MULTI-VIOLATION',
  name: 'bodies breaking two or three rules',
  rows: () => [
    {
      why: 'zero amount and a javascript: return_url',
      extra: () => ({ amount: '0', return_url: 'javascript:alert(1)' }),
      parts: [
        part('amount', 'CREATE-AMOUNT-INVALID', 'invalid_amount'),
        part('return_url', 'CREATE-RETURN-URL-FORBIDDEN-SCHEME', 'invalid_return_url'),
      ],
    },
    {
      why: 'three decimals and 22 metadata keys',
      extra: (m) => ({ amount: '1.005', metadata: manyKeys(m) }),
      parts: [
        part('amount', 'CREATE-AMOUNT-INVALID', 'invalid_amount'),
        part('metadata', 'CREATE-METADATA-TOO-MANY-KEYS', 'invalid_metadata'),
      ],
    },
    {
      why: 'an http return_url and a lower-case method',
      extra: () => ({ return_url: 'http://shop.example.com/done', allowed_methods: ['bkash'] }),
      parts: [
        part('return_url', 'CREATE-RETURN-URL-NOT-HTTPS', 'invalid_return_url'),
        part('allowed_methods', 'CREATE-ALLOWED-METHODS-INVALID', 'invalid_allowed_method'),
      ],
    },
    {
      why: 'an unknown channel and context_items',
      extra: () => ({ allowed_channels: ['QR'], context_items: [] }),
      parts: [
        part('allowed_channels', 'CREATE-ALLOWED-CHANNELS-INVALID', 'invalid_allowed_channel'),
        part('context_items', 'CREATE-CONTEXT-ITEMS-REJECTED', 'context_items_not_accepted'),
      ],
    },
    {
      why: 'a negative amount, an unknown method and an unknown channel',
      extra: () => ({ amount: '-1', allowed_methods: ['ROCKET'], allowed_channels: ['CASH_OUT'] }),
      parts: [
        part('amount', 'CREATE-AMOUNT-INVALID', 'invalid_amount'),
        part('allowed_methods', 'CREATE-ALLOWED-METHODS-INVALID', 'invalid_allowed_method'),
        part('allowed_channels', 'CREATE-ALLOWED-CHANNELS-INVALID', 'invalid_allowed_channel'),
      ],
    },
    {
      why: 'a 65-character metadata key and a relative return_url',
      extra: (m) => ({ metadata: { ...m.metadata(), ['k'.repeat(65)]: 'v' }, return_url: '/relative' }),
      parts: [
        part('metadata', 'CREATE-METADATA-KEY-TOO-LONG', 'invalid_metadata'),
        part('return_url', 'CREATE-RETURN-URL-NOT-HTTPS', 'invalid_return_url'),
      ],
    },
  ],
  title: (r) => `${r.why} is rejected with 400 ${codesText([...new Set(r.parts.flatMap((p) => p.codes))])}`,
};

// ── return_url ──

/** CREATE-RETURN-URL-VALID: https URLs and native deep links. */
export const VALID_RETURN_URL_CASES: CaseTable<string> = {
  rule: 'CREATE-RETURN-URL-VALID',
  name: 'https URLs and deep links',
  rows: () => [
    'https://shop.example.com/done',
    'https://shop.example.com:8443/orders/42?paid=1&x=y#receipt',
    'https://pay.shop.example.co/',
    'myapp://checkout/done',
    'com.example.shop://payment/result?status=done',
    'merchant-app://paid',
  ],
  title: (url) => `return_url ${quoted(url)} is accepted (201 PENDING) and echoed`,
};

/** A return_url and how it is written. */
export interface UrlRow {
  readonly value: string;
  readonly how: string;
}

const url = (value: string, how: string): UrlRow => ({ value, how });

/** CREATE-RETURN-URL-FORBIDDEN-SCHEME: javascript:, data:, file:, intent:, plain and disguised the ways a browser reads through. */
export const FORBIDDEN_SCHEME_CASES: CaseTable<UrlRow> = {
  rule: 'CREATE-RETURN-URL-FORBIDDEN-SCHEME',
  name: 'always-rejected schemes',
  rows: () => [
    url('javascript:alert(1)', 'plain'),
    url('javascript://%0Aalert(1)', 'deep-link shaped'),
    url('JavaScript://%0Aalert(1)', 'mixed case'),
    url('JAVASCRIPT://shop/%0Aalert(1)', 'upper case'),
    url('java\tscript://%0Aalert(1)', 'tab inside the scheme'),
    url('java\nscript://%0Aalert(1)', 'newline inside the scheme'),
    url('jav\r\nascript://x/%0Aalert(1)', 'CR LF inside the scheme'),
    url(' javascript://%0Aalert(1)', 'leading space'),
    url('\u0000\u001fjavascript://%0Aalert(1)', 'leading C0 controls'),
    url('data:text/html,<script>alert(1)</script>', 'plain'),
    url('data://text/plain,done', 'deep-link shaped'),
    url('DaTa://text/plain,done', 'mixed case'),
    url('da\tta://text/plain,done', 'tab inside the scheme'),
    url('file:///etc/passwd', 'plain'),
    url('FILE:///etc/passwd', 'upper case'),
    url('fi\nle://localhost/etc/passwd', 'newline inside the scheme'),
    url('  file:///etc/passwd', 'leading spaces'),
    url('intent://scan/#Intent;scheme=zxing;package=com.google.zxing.client.android;end', 'plain'),
    url('Intent://checkout/done#Intent;scheme=myapp;end', 'mixed case'),
    url('in\rtent://scan/#Intent;end', 'CR inside the scheme'),
    url('\tintent://scan/#Intent;end', 'leading tab'),
  ],
  title: (r) => `return_url ${quoted(r.value)} (${r.how}) is rejected with 400 invalid_return_url`,
};

/** CREATE-RETURN-URL-NOT-HTTPS: http, relative references, no scheme, empty. */
export const NOT_HTTPS_CASES: CaseTable<UrlRow> = {
  rule: 'CREATE-RETURN-URL-NOT-HTTPS',
  name: 'URLs that are not absolute https',
  rows: () => [
    url('http://shop.example.com/done', 'plain http'),
    url('HTTP://shop.example.com/done', 'http in upper case'),
    url('Http://shop.example.com:8080/done?x=1', 'http in mixed case'),
    url('/done', 'a relative path'),
    url('done', 'a relative reference'),
    url('./done', 'a relative reference'),
    url('//shop.example.com/done', 'scheme-relative'),
    url('?paid=1', 'a query alone'),
    url('#done', 'a fragment alone'),
    url('shop.example.com/done', 'a host without a scheme'),
    url('', 'empty'),
    url('   ', 'only spaces'),
  ],
  title: (r) => `return_url ${quoted(r.value)} (${r.how}) is rejected with 400 invalid_return_url`,
};

// ── context_items ──

/** A value of context_items and its shape. */
export interface ShapeRow {
  readonly value: unknown;
  readonly shape: string;
}

/** CREATE-CONTEXT-ITEMS-REJECTED: context_items of every JSON shape. */
export const CONTEXT_ITEMS_CASES: CaseTable<ShapeRow> = {
  rule: 'CREATE-CONTEXT-ITEMS-REJECTED',
  name: 'context_items of each shape',
  rows: () => [
    { value: [{ name: 'T-shirt', quantity: 1, unit_price: '10.00' }], shape: 'an array of items' },
    { value: [], shape: 'an empty array' },
    { value: { name: 'T-shirt' }, shape: 'an object' },
    { value: 'items', shape: 'a string' },
    { value: 1, shape: 'a number' },
    { value: false, shape: 'a boolean' },
  ],
  title: (r) => `context_items as ${r.shape} is rejected with 400 context_items_not_accepted`,
};

// ── allowed_methods, allowed_channels ──

/** A list value and the codes its refusal may carry. */
export interface ListRow {
  readonly value: unknown;
  readonly codes: readonly ErrorCode[];
}

/** Each member in another letter case or padded, alone and after a valid member (a check of the first item only is caught). */
function nearMissLists(members: readonly string[]): string[][] {
  return enumNearMisses(members).flatMap((m) => [[m.value], [members.find((x) => x !== m.of) ?? m.of, m.value]]);
}

function invalidListRows(members: readonly string[], code: ErrorCode, notMembers: unknown[][], malformed: unknown[]): ListRow[] {
  return [
    ...[...nearMissLists(members), ...notMembers].map((value) => ({ value, codes: [code] })),
    ...malformed.map((value) => ({ value, codes: ['invalid_request', code] as ErrorCode[] })),
  ];
}

const listTitle = (field: string) => (r: ListRow): string =>
  `${field} ${quoted(r.value)} ${r.codes.length === 1 ? 'names something other than the allowed values' : 'is not an array of allowed ' +
    'values'}: 400 ${codesText(r.codes)}`;

/** CREATE-ALLOWED-METHODS-VALID: each method and both, in either order. */
export const VALID_METHODS_CASES: CaseTable<string[]> = {
  rule: 'CREATE-ALLOWED-METHODS-VALID',
  name: 'lists of payment methods',
  rows: () => [['BKASH'], ['NAGAD'], ['BKASH', 'NAGAD'], ['NAGAD', 'BKASH']],
  title: (list) => `allowed_methods ${quoted(list)} is accepted (201) and echoed`,
};

/** CREATE-ALLOWED-METHODS-INVALID: near misses and non-members, then lists that are not arrays of strings. */
export const INVALID_METHODS_CASES: CaseTable<ListRow> = {
  rule: 'CREATE-ALLOWED-METHODS-INVALID',
  name: 'lists naming other methods, and malformed lists',
  rows: () => invalidListRows(PAYMENT_METHODS, 'invalid_allowed_method',
    [['NAGAD', 'bKash'], ['ROCKET'], ['BKASH', 'CARD'], ['BKASH', ''], ['SEND_MONEY']],
    [[1], ['BKASH', null], [['BKASH']], 'BKASH', 'BKASH,NAGAD', { BKASH: true }, 1]),
  title: listTitle('allowed_methods'),
};

/** CREATE-ALLOWED-CHANNELS-VALID: each channel, all four, two in another order. */
export const VALID_CHANNELS_CASES: CaseTable<string[]> = {
  rule: 'CREATE-ALLOWED-CHANNELS-VALID',
  name: 'lists of collection channels',
  rows: () => [
    ['SEND_MONEY'],
    ['PAYMENT'],
    ['CASH_IN'],
    ['BANK_TRANSFER'],
    ['SEND_MONEY', 'PAYMENT', 'CASH_IN', 'BANK_TRANSFER'],
    ['BANK_TRANSFER', 'CASH_IN'],
  ],
  title: (list) => `allowed_channels ${quoted(list)} is accepted (201) and echoed`,
};

/** CREATE-ALLOWED-CHANNELS-INVALID: near misses and non-members, then lists that are not arrays of strings. */
export const INVALID_CHANNELS_CASES: CaseTable<ListRow> = {
  rule: 'CREATE-ALLOWED-CHANNELS-INVALID',
  name: 'lists naming other channels, and malformed lists',
  rows: () => invalidListRows(COLLECTION_CHANNELS, 'invalid_allowed_channel',
    [['SEND-MONEY'], ['CASH_OUT'], ['PAYMENT', 'QR'], ['PAYMENT', ''], ['BKASH']],
    [[1], ['PAYMENT', null], [['CASH_IN']], 'SEND_MONEY', { SEND_MONEY: true }, true]),
  title: listTitle('allowed_channels'),
};

export const CREATE_CASE_TABLES_A: ReadonlyArray<CaseTable<any>> = [
  AMOUNT_MISSING_CASES, VALID_BODY_CASES, BARE_BODY_CASES, DECIMAL_EXACT_CASES, MALFORMED_JSON_CASES, NOT_OBJECT_CASES,
  MULTI_VIOLATION_CASES,
  VALID_RETURN_URL_CASES, FORBIDDEN_SCHEME_CASES, NOT_HTTPS_CASES, CONTEXT_ITEMS_CASES,
  VALID_METHODS_CASES, INVALID_METHODS_CASES, VALID_CHANNELS_CASES, INVALID_CHANNELS_CASES,
];

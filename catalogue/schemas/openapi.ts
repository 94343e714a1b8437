/**
 * The OpenAPI 3.1 description document of the Hosted Payment Service API v1, assembled from the
 * schema objects of this folder and the OPERATIONS table (nothing about a message's shape is written
 * twice). `catalogue/schemas/write-openapi.ts` writes it to docs/openapi.json; a test keeps that file equal to
 * what this builds.
 *
 * Decisions:
 * - `info.version` is "1.0.0": the description document's own semver-style version (spec
 *   "Versioning"), independent of this tool's version. The API major version is the `/v1` prefix,
 *   which every path carries (`/v1/payments`); the server URL is `{base_url}`, so a mock server built
 *   from the document (Prism) serves the same URLs as the service.
 * - Examples: every response and the create request carry named examples (openapi-examples.ts),
 *   valid against their schemas; a mock server answers them.
 * - Self-contained: `components.schemas` holds every schema resource of this folder under its name.
 *   `$id` and `$schema` are dropped (the document declares `jsonSchemaDialect` 2020-12 once), and every
 *   `$ref` to one of our `$id`s ("Payment.json", or absolute) becomes `#/components/schemas/<Name>`.
 * - Open enumerations: the suite's schemas say `{ type: 'string', 'x-known-values': [...] }`. In the
 *   document the same place becomes `{ type: 'string', anyOf: [{ enum: [...known] }, { type: 'string' }] }`
 *   plus the known values in `description`: standard JSON Schema that tools render and generate as
 *   "known literal | string", while validation still accepts any string, as the spec requires of
 *   clients ("Clients must tolerate unknown values"). A plain `enum` would tell generated clients to
 *   reject values the spec allows to appear. Request-side enumerations (CreatePaymentRequest,
 *   the `status` filter) stay plain `enum`: request filters are strict.
 * - Scopes: the bearer scheme is `http`, which has no scope list of its own; OpenAPI 3.1 lets a
 *   security requirement of a non-OAuth scheme list "role names", so each operation states
 *   `security: [{ bearerAuth: [<scope>] }]`, and repeats it as `x-scopes` for tools that drop it.
 * - Responses: exactly the statuses of the spec's per-operation table plus the success status, each
 *   error one with the Error schema and its codes (description and `x-error-codes`). A `default`
 *   response (Error shape) covers what the table does not list: 500 `internal_error`, and the 400
 *   `invalid_request` of listPayments that DESIGN rules on ("Spec gaps").
 * - The webhook receiver (implemented by the merchant) is the `webhooks.event` entry.
 */
import { ERROR_TABLE, type ErrorCode } from '../error-codes.ts';
import { JSON_SCHEMA_DIALECT, strictEnum } from './enums.ts';
import { EVENT_ID_PATTERN, SERVICE_SIGNATURE_PATTERN, WEBHOOK_USER_AGENT } from './event.ts';
import { CREATE_REQUEST_EXAMPLE, errorExample, successExample } from './openapi-examples.ts';
import { OPERATIONS, pathParameters, type Operation } from './operations.ts';
import { resourceById, resourceName, SCHEMA_RESOURCES } from './registry.ts';

export const OPENAPI_VERSION = '3.1.0';
/** The description document's own version (spec "Versioning"). */
export const DOCUMENT_VERSION = '1.0.0';

export type OpenApiDocument = Record<string, unknown> & {
  openapi: string;
  info: { title: string; version: string; [k: string]: unknown };
  paths: Record<string, Record<string, Record<string, unknown>>>;
  webhooks: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, unknown>; [k: string]: unknown };
};

const COMPONENT_SCHEMAS = '#/components/schemas/';
const schemaRef = (name: string) => ({ $ref: `${COMPONENT_SCHEMAS}${name}` });

/** Keywords whose value is data, not a subschema: copied as is. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples', 'x-known-values']);

/**
 * One schema resource (or a subschema of it), as it appears in the document.
 * @param base the `$id` of the resource the node belongs to, for resolving relative `$ref`s
 */
export function toDocumentSchema(node: unknown, base: string): unknown {
  if (Array.isArray(node)) return node.map((n) => toDocumentSchema(n, base));
  if (typeof node !== 'object' || node === null) return node;
  const src = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(src)) {
    if (k === '$schema' || k === '$id' || k === 'x-known-values') continue;
    if (k === '$ref' && typeof v === 'string') out[k] = documentRef(v, base);
    else if (DATA_KEYWORDS.has(k)) out[k] = structuredClone(v);
    else if (k === 'properties' && typeof v === 'object' && v !== null) {
      // property names are not keywords: convert each value, keep every name
      out[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, toDocumentSchema(s, base)]));
    } else out[k] = toDocumentSchema(v, base);
  }
  const knownValues = src['x-known-values'];
  if (Array.isArray(knownValues)) {
    if ('anyOf' in out) throw new Error('x-known-values beside anyOf: cannot express as an open enum');
    const list = knownValues.map(String);
    const known = `Known values: ${list.join(', ')}.`;
    out['description'] =
      typeof out['description'] === 'string'
        ? `${out['description']} ${known}`
        : `${known} Open: values added later within v1 may appear; clients tolerate them.`;
    out['anyOf'] = [{ enum: list }, { type: 'string' }];
  }
  return out;
}

/** A `$ref` of a schema of ours, rewritten to point inside the document. */
function documentRef(ref: string, base: string): string {
  const url = new URL(ref, base);
  const fragment = url.hash.replace(/^#/, '');
  url.hash = '';
  if (resourceById(url.href) === undefined) throw new Error(`$ref ${ref} (from ${base}) is not one of ours`);
  return `${COMPONENT_SCHEMAS}${resourceName(url.href)}${fragment}`;
}

function componentSchemas(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(SCHEMA_RESOURCES).map(([name, s]) => [name, toDocumentSchema(s, s.$id as string)]),
  );
}

// ---------------------------------------------------------------------------------------------
// Errors per operation and status ("Error statuses per operation", "Errors", "Rules")

const codesWithStatus = (status: number): ErrorCode[] =>
  (Object.keys(ERROR_TABLE) as ErrorCode[]).filter((c) => ERROR_TABLE[c] === status);

/** The codes of the error table an operation may answer with a listed error status. */
export function errorCodesFor(op: Operation, status: number): ErrorCode[] {
  if (status === 404) {
    // Rule 5: payment_not_found; rule 6: a Live key on /test_helpers gets 404 as if no route.
    return op.testOnly ? ['payment_not_found', 'not_found'] : ['payment_not_found'];
  }
  if (status === 409) {
    // Cancel and simulate: "not PENDING answers 409 invalid_transition"; create: every other 409.
    return op.operationId === 'createPayment'
      ? codesWithStatus(409).filter((c) => c !== 'invalid_transition')
      : ['invalid_transition'];
  }
  return codesWithStatus(status);
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  429: 'Too Many Requests',
};

const jsonContent = (schema: unknown, examples?: Record<string, unknown>) => ({
  'application/json': examples === undefined ? { schema } : { schema, examples },
});
/** Named examples, one per error code (a mock server answers the first). */
const errorExamples = (codes: readonly ErrorCode[]) =>
  Object.fromEntries(codes.map((c) => [c, { value: errorExample(c) }]));

function errorResponse(op: Operation, status: number): Record<string, unknown> {
  const codes = errorCodesFor(op, status);
  const response: Record<string, unknown> = {
    description: `${STATUS_TEXT[status] ?? 'Error'}: ${codes.map((c) => `\`${c}\``).join(', ')}.`,
    content: jsonContent(schemaRef('Error'), errorExamples(codes)),
    'x-error-codes': codes,
  };
  if (status === 429) {
    response['headers'] = { 'Retry-After': { $ref: '#/components/headers/Retry-After' } };
  }
  return response;
}

function successResponse(op: Operation): Record<string, unknown> {
  const what: Record<string, string> = {
    createPayment: 'The created Payment, status PENDING, with checkout_url.',
    listPayments: 'A page of Payments.',
    getPayment: 'The Payment.',
    cancelPayment: 'The Payment, now CANCELLED.',
    simulatePaymentSucceeded: 'The Payment, now PAID.',
    simulatePaymentCancelled: 'The Payment, now CANCELLED.',
  };
  return {
    description: what[op.operationId] ?? STATUS_TEXT[op.success] ?? 'Success',
    content: jsonContent(schemaRef(op.response), { [op.operationId]: { value: successExample(op) } }),
  };
}

// ---------------------------------------------------------------------------------------------
// Parameters

const PATH_PARAMETERS: Readonly<Record<string, string>> = { id: '#/components/parameters/PaymentId' };

const LIST_QUERY_PARAMETERS = [
  {
    name: 'status',
    in: 'query',
    required: false,
    description: 'Filter; strict: an unknown value is rejected.',
    schema: strictEnum('PaymentStatus'),
  },
  { name: 'external_id', in: 'query', required: false, description: 'Filter.', schema: { type: 'string' } },
  { name: 'created_from', in: 'query', required: false, description: 'Filter.', schema: { type: 'string', format: 'date-time' } },
  { name: 'created_to', in: 'query', required: false, description: 'Filter.', schema: { type: 'string', format: 'date-time' } },
  {
    name: 'limit',
    in: 'query',
    required: false,
    description: 'Page size.',
    schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  },
  {
    name: 'starting_after',
    in: 'query',
    required: false,
    description: 'A Payment id; returns results immediately after it.',
    schema: { type: 'string' },
  },
];

function operationParameters(op: Operation): unknown[] {
  const params: unknown[] = pathParameters(op.path).map((name) => {
    const ref = PATH_PARAMETERS[name];
    if (ref === undefined) throw new Error(`no parameter component for {${name}} in ${op.path}`);
    return { $ref: ref };
  });
  if (op.operationId === 'createPayment') params.push({ $ref: '#/components/parameters/IdempotencyKey' });
  if (op.operationId === 'listPayments') params.push(...structuredClone(LIST_QUERY_PARAMETERS));
  return params;
}

// ---------------------------------------------------------------------------------------------

function operationObject(op: Operation): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const status of [...op.statuses].sort((a, b) => a - b)) {
    responses[String(status)] = status === op.success ? successResponse(op) : errorResponse(op, status);
  }
  responses['default'] = {
    description:
      'Any other error, in the Error shape: 500 `internal_error` (retry; quote request_id if it persists)' +
      (op.rulingStatuses.length > 0
        ? `; and ${op.rulingStatuses.join(', ')} \`invalid_request\` for a malformed or out-of-range filter (strict filters).`
        : '.'),
    content: jsonContent(schemaRef('Error'), errorExamples(['internal_error'])),
  };
  const description = [
    `Requires scope \`${op.scope}\`.`,
    op.testOnly
      ? 'Test secret keys only; a Live secret key gets 404 as if the route did not exist. No real money, SMS, bridge or Service Credit ' +
        'is involved.'
      : '',
    op.emits.length > 0
      ? `Emits ${op.emits.map((e) => `\`${e}\``).join(', ')}${op.testOnly ? ' (to Test endpoints)' : ''}.`
      : '',
  ]
    .filter((s) => s !== '')
    .join(' ');
  const object: Record<string, unknown> = {
    operationId: op.operationId,
    summary: op.summary,
    description,
    tags: [op.testOnly ? 'Test helpers' : 'Payments'],
    security: [{ bearerAuth: [op.scope] }],
    'x-scopes': [op.scope],
    'x-test-only': op.testOnly,
    'x-emits': [...op.emits],
  };
  const parameters = operationParameters(op);
  if (parameters.length > 0) object['parameters'] = parameters;
  if (op.requestBody !== null) {
    object['requestBody'] = {
      required: true,
      content: jsonContent(schemaRef(op.requestBody), { [op.requestBody]: { value: structuredClone(CREATE_REQUEST_EXAMPLE) } }),
    };
  }
  object['responses'] = responses;
  return object;
}

/** An operation's path as the document states it: with the API's `/v1` prefix (the server is `{base_url}`). */
export const API_PREFIX = '/v1';
export const documentPath = (op: Pick<Operation, 'path'>): string => `${API_PREFIX}${op.path}`;

function paths(): OpenApiDocument['paths'] {
  const out: OpenApiDocument['paths'] = {};
  for (const op of OPERATIONS) {
    const item = (out[documentPath(op)] ??= {});
    const method = op.method.toLowerCase();
    if (method in item) throw new Error(`two operations for ${op.method} ${op.path}`);
    item[method] = operationObject(op);
  }
  return out;
}

function webhooks(): OpenApiDocument['webhooks'] {
  return {
    event: {
      post: {
        operationId: 'receiveEvent',
        summary: 'Receive a webhook Event (implemented by the merchant)',
        description:
          'The service POSTs an Event to each enabled endpoint subscribed to its type, in the same ' +
          'environment. Verify Service-Signature over `<t>.` + the exact raw body bytes (HMAC-SHA256 ' +
          'keyed with the endpoint signing secret, lowercase hex), reject timestamps older than 5 minutes, ' +
          'compare in constant time. Delivery is at least once and unordered: deduplicate on event.id. ' +
          'Failures (non-2xx, redirects, 10 s time-out) are retried immediately, then after 30 s, 2 min, ' +
          '10 min, 30 min, 2 h and 6 h.',
        security: [],
        parameters: [
          {
            name: 'Service-Event-ID',
            in: 'header',
            required: true,
            description: 'The event id.',
            schema: { type: 'string', pattern: EVENT_ID_PATTERN },
          },
          {
            name: 'Service-Signature',
            in: 'header',
            required: true,
            description: '`t=<unix_time>,v1=<hex>`: v1 is the lowercase hex HMAC-SHA256 of `<t>.<raw body>`.',
            schema: { type: 'string', pattern: SERVICE_SIGNATURE_PATTERN },
          },
          {
            name: 'User-Agent',
            in: 'header',
            required: true,
            schema: { type: 'string', const: WEBHOOK_USER_AGENT },
          },
        ],
        requestBody: { required: true, content: jsonContent(schemaRef('Event')) },
        responses: {
          '2XX': { description: 'Acknowledged. Any 2xx acknowledges.' },
          '400': { description: 'Signature check failed; the event is not processed (and will be retried).' },
        },
      },
    },
  };
}

// function-length: data table
export function buildOpenApiDocument(): OpenApiDocument {
  return {
    openapi: OPENAPI_VERSION,
    jsonSchemaDialect: JSON_SCHEMA_DIALECT,
    info: {
      title: 'Hosted Payment Service API',
      version: DOCUMENT_VERSION,
      description:
        'Hosted checkout Payments, test-mode helpers and webhook events. JSON over HTTPS; amounts are ' +
        'decimal strings in BDT major units, never JSON numbers. The API major version is the `/v1` path ' +
        'prefix; within v1 evolution is additive (new enumeration values, event types and error codes ' +
        'may appear and are tolerated when reading; request filters stay strict). Secret keys are ' +
        'server-side credentials only.',
    },
    servers: [
      {
        url: '{base_url}',
        description: 'The target service; `{base_url}` is its base address.',
        variables: { base_url: { default: 'http://127.0.0.1:4010', description: 'Base address of the service.' } },
      },
    ],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'Payments', description: 'Hosted checkout Payments.' },
      { name: 'Test helpers', description: 'Complete a Test checkout. Test secret keys only.' },
    ],
    paths: paths(),
    webhooks: webhooks(),
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'API key',
          description:
            '`Authorization: Bearer <API_KEY>`. A Live secret key starts with `pt_live_sk_`, a Test secret ' +
            'key with `pt_test_sk_`. The key alone determines the business and the environment. Scopes: ' +
            '`payments:read`, `payments:write` (listed per operation). Missing, malformed, unknown or ' +
            'revoked key: 401 `invalid_api_key`; key without the needed scope: 403 `insufficient_scope`.',
        },
      },
      parameters: {
        PaymentId: {
          name: 'id',
          in: 'path',
          required: true,
          description: 'Payment identifier.',
          schema: { type: 'string' },
        },
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Optional, recommended. The same key with an identical body returns the original result and ' +
            'creates no duplicate; with a different body 409 `idempotency_conflict`; while the first ' +
            'request is still processing 409 `idempotency_in_progress`. Scoped to the API key, retained 24 hours.',
          schema: { type: 'string' },
        },
      },
      headers: {
        'Retry-After': {
          description: 'Seconds to wait before retrying.',
          required: true,
          schema: { type: 'integer' },
        },
      },
    },
  };
}

/** The document as written to docs/openapi.json (2-space JSON, trailing newline). */
export function serializeOpenApiDocument(doc: OpenApiDocument = buildOpenApiDocument()): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

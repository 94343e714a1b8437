/**
 * The OpenAPI 3.1 description document: built from the schemas and the OPERATIONS table,
 * self-contained, every component valid JSON Schema 2020-12, and equal to the committed
 * docs/openapi.json.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ajv } from '../../catalogue/schemas/ajv.ts';
import {
  OPERATIONS,
  OPERATION_IDS,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  SCHEMA_RESOURCES,
  WEBHOOK_EVENT_TYPES,
  acceptedStatuses,
  buildOpenApiDocument,
  documentPath,
  serializeOpenApiDocument,
  type OpenApiDocument,
} from '../../catalogue/schemas/index.ts';
import { errorBody, payment, paymentEvent, paymentList } from './fixtures.ts';

type Json = Record<string, any>;

const doc: OpenApiDocument = buildOpenApiDocument();
const DOC_KEY = 'https://hps-conformance.dev/openapi.json';

function pointer(root: unknown, ref: string): unknown {
  expect(ref.startsWith('#')).toBe(true);
  let node: any = root;
  for (const part of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in node)) return undefined;
    node = node[key];
  }
  return node;
}

/** Every [location, value] of a key anywhere in the document. */
function collect(node: unknown, key: string, at = '#', out: Array<[string, unknown]> = []): Array<[string, unknown]> {
  if (Array.isArray(node)) node.forEach((n, i) => collect(n, key, `${at}/${i}`, out));
  else if (node !== null && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      const here = `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (k === key) out.push([here, v]);
      collect(v, key, here, out);
    }
  }
  return out;
}

const resolveParam = (p: Json): Json => (typeof p['$ref'] === 'string' ? (pointer(doc, p['$ref']) as Json) : p);

describe('document header', () => {
  it('is OpenAPI 3.1.0 with info.version 1.0.0 (the document\'s own version)', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc['jsonSchemaDialect']).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('serves {base_url}; every path carries the /v1 prefix', () => {
    expect((doc['servers'] as Json[])[0]!['url']).toBe('{base_url}');
    expect(Object.keys(doc.paths).every((p) => p.startsWith('/v1/'))).toBe(true);
  });

  it('declares an HTTP bearer security scheme, required by default', () => {
    expect((doc.components as Json)['securitySchemes'].bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc['security']).toEqual([{ bearerAuth: [] }]);
  });
});

describe('operations', () => {
  it('the document has exactly the operations of OPERATIONS', () => {
    const inDoc = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => `${method.toUpperCase()} ${path} ${op['operationId']}`),
    );
    expect(inDoc.sort()).toEqual(OPERATIONS.map((o) => `${o.method} /v1${o.path} ${o.operationId}`).sort());
  });

  it('operationIds are the spec\'s six, once each, in OPERATION_IDS order', () => {
    expect(OPERATIONS.map((o) => o.operationId)).toEqual([...OPERATION_IDS]);
    expect(OPERATIONS.map((o) => o.operationId)).toEqual([
      'createPayment',
      'listPayments',
      'getPayment',
      'cancelPayment',
      'simulatePaymentSucceeded',
      'simulatePaymentCancelled',
    ]);
  });

  describe.each(OPERATIONS.map((o) => [o.operationId, o] as const))('%s', (_id, op) => {
    const o = doc.paths[documentPath(op)]![op.method.toLowerCase()] as Json;

    it('lists exactly its statuses (plus a default Error response)', () => {
      const numeric = Object.keys(o['responses']).filter((k) => k !== 'default').map(Number);
      expect(numeric).toEqual([...op.statuses].sort((a, b) => a - b));
      expect(op.statuses).toContain(op.success);
      expect(o['responses'].default.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    });

    it('answers its success with the right schema and every error with Error', () => {
      for (const status of op.statuses) {
        const schema = o['responses'][String(status)].content['application/json'].schema;
        expect(schema).toEqual({ $ref: `#/components/schemas/${status === op.success ? op.response : 'Error'}` });
      }
    });

    it('requires its scope', () => {
      expect(o['security']).toEqual([{ bearerAuth: [op.scope] }]);
      expect(o['x-scopes']).toEqual([op.scope]);
    });

    it('declares its path parameters', () => {
      const params = ((o['parameters'] ?? []) as Json[]).map(resolveParam);
      const inPath = params.filter((p) => p['in'] === 'path').map((p) => p['name']);
      expect(inPath).toEqual([...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]));
      for (const p of params.filter((p) => p['in'] === 'path')) expect(p['required']).toBe(true);
    });

    it('is tagged test-only when it is a /test_helpers operation', () => {
      expect(o['x-test-only']).toBe(op.testOnly);
      expect(op.testOnly).toBe(op.path.startsWith('/test_helpers/'));
    });
  });

  it('createPayment takes a CreatePaymentRequest body and an optional Idempotency-Key header', () => {
    const o = doc.paths['/v1/payments']!['post'] as Json;
    expect(o['requestBody']).toMatchObject({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/CreatePaymentRequest' } } },
    });
    const header = (o['parameters'] as Json[]).map(resolveParam).find((p) => p['name'] === 'Idempotency-Key');
    expect(header).toMatchObject({ in: 'header', required: false, schema: { type: 'string' } });
  });

  it('listPayments has its query parameters; limit 1..100 default 20; status a strict enum', () => {
    const params = ((doc.paths['/v1/payments']!['get'] as Json)['parameters'] as Json[]).map(resolveParam);
    expect(params.map((p) => [p['name'], p['in']])).toEqual([
      ['status', 'query'],
      ['external_id', 'query'],
      ['created_from', 'query'],
      ['created_to', 'query'],
      ['limit', 'query'],
      ['starting_after', 'query'],
    ]);
    const by = Object.fromEntries(params.map((p) => [p['name'], p['schema']]));
    expect(by['limit']).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(by['status']).toEqual({ type: 'string', enum: [...PAYMENT_STATUSES] });
    expect(by['created_from']).toEqual({ type: 'string', format: 'date-time' });
  });

  it('429 responses carry an integer Retry-After header', () => {
    for (const op of OPERATIONS) {
      const r = (doc.paths[documentPath(op)]![op.method.toLowerCase()] as Json)['responses']['429'];
      const h = resolveParam(r.headers['Retry-After']);
      expect(h['schema']).toEqual({ type: 'integer' });
    }
  });

  it('acceptedStatuses adds 500 everywhere and the ruled 400 to listPayments', () => {
    expect(acceptedStatuses('listPayments')).toEqual([200, 400, 401, 403, 429, 500]);
    expect(acceptedStatuses('createPayment')).toEqual([201, 400, 401, 403, 409, 429, 500]);
  });
});

describe('webhooks', () => {
  const hook = (doc.webhooks['event'] as Json)['post'] as Json;

  it('the receiver gets an Event body', () => {
    expect(hook['requestBody'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Event' });
  });

  it('with the Service-Event-ID, Service-Signature and User-Agent headers', () => {
    const headers = (hook['parameters'] as Json[]).filter((p) => p['in'] === 'header');
    expect(headers.map((h) => h['name'])).toEqual(['Service-Event-ID', 'Service-Signature', 'User-Agent']);
    for (const h of headers) expect(h['required']).toBe(true);
    const sig = new RegExp(headers[1]!['schema'].pattern, 'u');
    expect(sig.test(`t=1700000000,v1=${'ab'.repeat(32)}`)).toBe(true);
    expect(sig.test('t=1700000000,v1=ABC')).toBe(false);
    expect(headers[2]!['schema'].const).toBe('Service-Webhooks/1.0');
  });

  it('any 2xx acknowledges; a failed signature check is 400', () => {
    expect(Object.keys(hook['responses']).sort()).toEqual(['2XX', '400']);
  });
});

describe('self-contained', () => {
  it('every $ref points inside the document and resolves', () => {
    const refs = collect(doc, '$ref');
    expect(refs.length).toBeGreaterThan(20);
    for (const [at, ref] of refs) {
      expect(typeof ref, at).toBe('string');
      expect((ref as string).startsWith('#/'), `${at}: ${String(ref)}`).toBe(true);
      expect(pointer(doc, ref as string), `${at}: ${String(ref)}`).toBeDefined();
    }
  });

  it('no $id, $schema or x-known-values is left in the document', () => {
    expect(collect(doc, '$id')).toEqual([]);
    expect(collect(doc, '$schema')).toEqual([]);
    expect(collect(doc, 'x-known-values')).toEqual([]);
  });

  it('components.schemas holds every schema resource under its name', () => {
    expect(Object.keys(doc.components.schemas)).toEqual(Object.keys(SCHEMA_RESOURCES));
  });
});

describe('components compile with Ajv (JSON Schema 2020-12) and keep the suite\'s verdicts', () => {
  // The shared Ajv is strict, and resolving "<doc>#/components/schemas/X" makes Ajv compile the whole
  // document as a schema, where "openapi", "paths"... are unknown keywords. So the components are
  // moved, unchanged but for their refs, to the $defs of a schema resource: "#/components/schemas/X"
  // becomes "#/$defs/X" (the same pointer relocation for every ref).
  const relocate = (node: unknown): unknown =>
    JSON.parse(JSON.stringify(node), (k, v) =>
      k === '$ref' && typeof v === 'string' ? v.replace(/^#\/components\/schemas\//, '#/$defs/') : v,
    );
  beforeAll(() => {
    if (ajv.schemas[DOC_KEY] === undefined) {
      ajv.addSchema({ $id: DOC_KEY, $defs: relocate(doc.components.schemas) } as Json);
    }
  });
  const component = (name: string) => {
    const fn = ajv.getSchema(`${DOC_KEY}#/$defs/${name}`);
    if (fn === undefined) throw new Error(`component ${name} did not resolve`);
    return fn;
  };

  it.each(Object.keys(SCHEMA_RESOURCES))('%s compiles in strict mode', (name) => {
    expect(component(name)).toBeTypeOf('function');
  });

  it('every inline schema (paths, webhooks, parameters, headers) compiles too', () => {
    const inline = [
      ...collect(doc.paths, 'schema', '#/paths'),
      ...collect(doc.webhooks, 'schema', '#/webhooks'),
      ...collect(doc.components['parameters'], 'schema', '#/components/parameters'),
      ...collect(doc.components['headers'], 'schema', '#/components/headers'),
    ]
      .filter(([, s]) => !('$ref' in (s as Json)));
    expect(inline.length).toBeGreaterThan(5);
    for (const [at, schema] of inline) {
      expect(() => ajv.compile(relocate(schema) as Json), at).not.toThrow();
    }
  });

  it.each([
    ['Payment', payment(), true],
    ['Payment', payment({ status: 'DISPUTED', allowed_methods: ['ROCKET'] }), true],
    ['Payment', payment({ amount: 10 }), false],
    ['Payment', payment({ status: 7 }), false],
    ['PaymentList', paymentList(), true],
    ['Error', errorBody({ code: 'brand_new_code' }), true],
    ['Error', { error: { code: 'x', message: 'y' } }, false],
    ['Event', paymentEvent({ type: 'payment.disputed' }), true],
    ['Event', paymentEvent({ id: 'x_1' }), false],
    ['CreatePaymentRequest', { amount: '1.00' }, true],
    ['CreatePaymentRequest', { amount: '1.00', context_items: [] }, false],
    ['CreatePaymentRequest', { amount: '1.00', allowed_methods: ['ROCKET'] }, false],
  ] as const)('%s %# → valid %s', (name, data, valid) => {
    expect(component(name)(data)).toBe(valid);
  });

  it('response enumerations show their known values as an open enum (anyOf enum | string)', () => {
    const s = doc.components.schemas as Json;
    expect(s['PaymentStatus'].anyOf).toEqual([{ enum: [...PAYMENT_STATUSES] }, { type: 'string' }]);
    expect(s['PaymentMethod'].anyOf[0].enum).toEqual([...PAYMENT_METHODS]);
    expect(s['WebhookEventType'].anyOf[0].enum).toEqual([...WEBHOOK_EVENT_TYPES]);
    expect(s['PaymentStatus'].description).toContain('Known values: PENDING, PAID, CANCELLED, REVERSED.');
    expect(s['CreatePaymentRequest'].properties.allowed_methods.items).toEqual({ type: 'string', enum: [...PAYMENT_METHODS] });
  });
});

describe('docs/openapi.json', () => {
  it('equals the document the code builds (regenerate: npx tsx catalogue/schemas/write-openapi.ts)', () => {
    const file = fileURLToPath(new URL('../../docs/openapi.json', import.meta.url));
    const text = readFileSync(file, 'utf8');
    expect(JSON.parse(text)).toEqual(doc);
    expect(text).toBe(serializeOpenApiDocument());
  });

  it('building twice gives the same document', () => {
    expect(buildOpenApiDocument()).toEqual(doc);
  });
});

describe('path templates', () => {
  it('expandPath fills {id} with the value as given (callers encode)', async () => {
    const { expandPath, pathParameters } = await import('../../catalogue/schemas/index.ts');
    expect(pathParameters('/test_helpers/payments/{id}/succeed')).toEqual(['id']);
    expect(expandPath('/payments/{id}/cancel', { id: encodeURIComponent('pay 1') })).toBe('/payments/pay%201/cancel');
    expect(() => expandPath('/payments/{id}', {})).toThrow(/missing path parameter id/);
  });
});

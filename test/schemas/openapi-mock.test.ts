/**
 * docs/openapi.json is usable by the tools users mock APIs with: Prism (a real OpenAPI mock server)
 * started on the committed file routes every operation at the service's own URLs (`/v1/...`), and
 * every example in the document validates against its schema — the document's own component (as
 * Prism reads it) and the suite's schema (what the conformance run judges with).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS, documentPath, expandPath, validate, type SchemaName } from '../../catalogue/schemas/index.ts';
import { startPrism, type PrismServer } from '../support/prism.ts';

type Json = Record<string, any>;
const DOC_FILE = fileURLToPath(new URL('../../docs/openapi.json', import.meta.url));
const doc = JSON.parse(readFileSync(DOC_FILE, 'utf8')) as Json;
const KEY = 'pt_test_sk_mock0000000000000000';
const ID = 'pay_01HZX0R3';

/** Every example in the document: where it is, the component its schema names, its value. */
function documentExamples(): Array<{ at: string; schema: string; value: unknown }> {
  const out: Array<{ at: string; schema: string; value: unknown }> = [];
  const visit = (node: unknown, at: string) => {
    if (node === null || typeof node !== 'object') return;
    const media = node as Json;
    if (media['schema'] !== undefined && media['examples'] !== undefined) {
      const ref = String(media['schema'].$ref ?? '');
      for (const [name, ex] of Object.entries(media['examples'] as Json)) {
        out.push({ at: `${at}/examples/${name}`, schema: ref.replace('#/components/schemas/', ''), value: (ex as Json)['value'] });
      }
    }
    for (const [k, v] of Object.entries(media)) visit(v, `${at}/${k}`);
  };
  visit(doc['paths'], '#/paths');
  visit(doc['webhooks'], '#/webhooks');
  return out;
}

describe('the examples of docs/openapi.json', () => {
  const examples = documentExamples();
  // The document's components, as a mock server reads them: relocated to $defs of one resource.
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  (addFormatsModule as unknown as (a: Ajv2020) => void)(ajv);
  const relocated = JSON.parse(JSON.stringify(doc['components']['schemas']), (k, v) =>
    k === '$ref' && typeof v === 'string' ? v.replace('#/components/schemas/', '#/$defs/') : v,
  );
  ajv.addSchema({ $id: 'urn:hps:openapi', $defs: relocated });

  it('every success, every error status, the default response and the create request carry one', () => {
    // 6 successes + 1 request body + default (6) + each error status with one example per code
    expect(examples.length).toBeGreaterThan(30);
    for (const op of OPERATIONS) {
      const responses = doc['paths'][documentPath(op)][op.method.toLowerCase()]['responses'] as Json;
      for (const [status, r] of Object.entries(responses)) {
        expect(Object.keys(r.content['application/json'].examples ?? {}).length, `${op.operationId} ${status}`).toBeGreaterThan(0);
      }
    }
  });

  it.each(examples.map((e) => [e.at, e] as const))('%s validates against the document\'s component and the suite\'s schema', (_at, e) => {
    const component = ajv.getSchema(`urn:hps:openapi#/$defs/${e.schema}`);
    expect(component, e.schema).toBeDefined();
    expect(component!(e.value), JSON.stringify(component!.errors)).toBe(true);
    const suite = validate(e.schema as SchemaName, e.value);
    expect(suite.errors).toEqual([]);
  });
});

describe('Prism mocks the document at the service\'s URLs', () => {
  let prism: PrismServer;
  beforeAll(async () => {
    prism = await startPrism(DOC_FILE);
  }, 90_000);
  afterAll(async () => {
    await prism?.close();
  });

  const send = async (method: string, path: string, body?: unknown, key: string | null = KEY) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (key !== null) headers['authorization'] = `Bearer ${key}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${prism.url}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    return { status: res.status, body: (await res.text()) };
  };

  it.each(OPERATIONS.map((op) => [
    `${op.method} /v1${op.path}`,
    op,
  ] as const))('%s answers its success status with a valid body', async (_name, op) => {
    const path = `/v1${expandPath(op.path, { id: ID })}`;
    const body = op.requestBody === null ? undefined : { amount: '1250.50' };
    const r = await send(op.method, path, body);
    expect(r.status, `${r.body}\n${prism.output().slice(-2000)}`).toBe(op.success);
    expect(validate(op.response, JSON.parse(r.body)).errors).toEqual([]);
  });

  it('the paths without /v1 do not route (the prefix is part of every path, not of the server)', async () => {
    const r = await send('GET', '/payments');
    expect(r.status).toBe(404);
  });

  it('a request without a key answers the document\'s 401 Error example', async () => {
    const r = await send('GET', '/v1/payments', undefined, null);
    expect(r.status).toBe(401);
    expect(validate('Error', JSON.parse(r.body)).errors).toEqual([]);
    expect(JSON.parse(r.body).error.code).toBe('invalid_api_key');
  });
});

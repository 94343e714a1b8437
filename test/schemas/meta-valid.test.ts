/**
 * Every schema resource is a valid JSON Schema 2020-12 document. The runtime registers them without
 * validating each against the meta-schema (catalogue/schemas/registry.ts: that check cost ~0.3 s of
 * CPU in every worker of every run); it is made here, once, and compiling each one (strict mode)
 * catches the rest.
 */
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ajv } from '../../catalogue/schemas/ajv.ts';
import { registerSchemas, SCHEMA_RESOURCES } from '../../catalogue/schemas/registry.ts';

describe('schema resources', () => {
  it('each is valid against the 2020-12 meta-schema, and compiles', () => {
    const meta = new Ajv2020({ strict: false });
    registerSchemas();
    for (const [name, schema] of Object.entries(SCHEMA_RESOURCES)) {
      expect(meta.validateSchema(schema), `${name}: ${meta.errorsText(meta.errors)}`).toBe(true);
      expect(ajv.getSchema(schema.$id as string), name).toBeTypeOf('function');
    }
  });

  it('a resource that breaks the meta-schema is caught (the check can fail)', () => {
    const meta = new Ajv2020({ strict: false });
    expect(meta.validateSchema({ type: 'object', properties: { a: { type: 'nonsense' } } })).toBe(false);
    expect(meta.validateSchema({ type: 'object', required: 'a' })).toBe(false);
  });
});

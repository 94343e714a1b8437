/**
 * Validation of messages against the schemas of this folder, through the project's one Ajv instance.
 * Each schema is compiled once, on first use, and the compiled function is cached.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { ajv, ajvFirstError } from './ajv.ts';
import { registerSchemas, SCHEMAS, type SchemaName } from './registry.ts';

export type { SchemaName } from './registry.ts';

export interface ValidationResult {
  valid: boolean;
  /** One human-readable line per problem: `<JSON pointer of the value>: <what is wrong>`. */
  errors: string[];
}

const compiled = new Map<SchemaName, ValidateFunction>();
const compiledFirstError = new Map<SchemaName, ValidateFunction>();

/** The compiled validator of a schema (compiled on first call, then cached); `firstError`: one that stops at the first error. */
export function validator(name: SchemaName, firstError = false): ValidateFunction {
  const cache = firstError ? compiledFirstError : compiled;
  let fn = cache.get(name);
  if (fn === undefined) {
    registerSchemas();
    const id = SCHEMAS[name].$id;
    fn = (firstError ? ajvFirstError : ajv).getSchema(id);
    if (fn === undefined) throw new Error(`schema ${name} (${id}) is not registered`);
    cache.set(name, fn);
  }
  return fn;
}

/**
 * Validates `data` against the named schema. Unknown enumeration values are NOT errors here (the
 * response enumerations are open); list them with `unknownEnumValues` to report a WARN.
 */
export function validate(name: SchemaName, data: unknown, firstError = false): ValidationResult {
  const fn = validator(name, firstError);
  const valid = fn(data) as boolean;
  return { valid, errors: valid ? [] : formatErrors(fn.errors ?? [], SCHEMAS[name]) };
}

/**
 * Summary errors that Ajv adds on top of the specific ones that caused them: `if` ("must match
 * "then" schema") and `propertyNames` ("property name must be valid", after the error that names
 * the property).
 */
const DROPPED = new Set(['if', 'propertyNames']);

/**
 * Ajv errors as lines such as `/data/0/amount: must match pattern "^[0-9]+(\.[0-9]+)?$"`.
 * The root value is written `/`.
 */
export function formatErrors(errors: readonly ErrorObject[], root?: unknown): string[] {
  const lines = errors.filter((e) => !DROPPED.has(e.keyword)).map((e) => formatError(e, root));
  return [...new Set(lines)];
}

/**
 * One Ajv error as a line. `root` (the schema validated against) lets a `not` error say what was
 * forbidden, e.g. `/return_url: must not match pattern "^(?:[jJ]..."`.
 */
export function formatError(e: ErrorObject, root?: unknown): string {
  const where = e.instancePath === '' ? '/' : e.instancePath;
  const params = e.params as Record<string, unknown>;
  let what: string;
  switch (e.keyword) {
    case 'const':
      what = `must be equal to constant ${JSON.stringify(params['allowedValue'])}`;
      break;
    case 'enum':
      what = `must be one of ${(params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
      break;
    case 'false schema':
      what = 'must not be present';
      break;
    case 'not': {
      const forbidden = root === undefined ? undefined : schemaAt(root, e.schemaPath);
      const pattern = (forbidden as { pattern?: unknown } | undefined)?.pattern;
      what =
        typeof pattern === 'string' && Object.keys(forbidden as object).length === 1
          ? `must not match pattern ${JSON.stringify(pattern)}`
          : `must NOT be valid against ${e.schemaPath}`;
      break;
    }
    default:
      what = e.message ?? e.keyword;
  }
  if (e.propertyName !== undefined) what = `property name ${JSON.stringify(e.propertyName)} ${what}`;
  return `${where}: ${what}`;
}

/** The subschema at an Ajv schemaPath of the root schema ("#/properties/x/not"), if local. */
function schemaAt(root: unknown, schemaPath: string): unknown {
  if (!schemaPath.startsWith('#/')) return undefined;
  let node = root;
  for (const part of schemaPath.slice(2).split('/')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

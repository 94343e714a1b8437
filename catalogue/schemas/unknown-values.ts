/**
 * Unknown values of open enumerations in a response.
 *
 * Response schemas state enumerations as `{ type: 'string', 'x-known-values': [...] }` (see
 * ./enums.ts), so Ajv accepts any string. This walks `data` along the named schema (following
 * `$ref`, `properties`, `additionalProperties`, `items`, `allOf`/`anyOf`/`oneOf` and if/then/else)
 * and lists every string at an `x-known-values` location that is not a known value. The suite reports
 * each as WARN (DESIGN, oracle principle 3: additive values are tolerated).
 */
import { ajv } from './ajv.ts';
import { registerSchemas, resourceById, SCHEMAS, type SchemaName } from './registry.ts';

export interface UnknownEnumValue {
  /** JSON pointer of the value in `data` (same form as the paths of `validate` errors). */
  path: string;
  value: string;
  known: string[];
}

type Json = Record<string, unknown>;

const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);
const esc = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');
const unesc = (s: string): string => s.replace(/~1/g, '/').replace(/~0/g, '~');

/** Walks on from one place of the schema and data (the parameters of `walk` below). */
type Walk = (schema: unknown, base: string, ptr: string, value: unknown, path: string) => void;
type SchemaObject = Record<string, unknown>;

/** Into an object's properties: the named ones, then the others under additionalProperties. */
function walkProperties(schema: SchemaObject, base: string, ptr: string, value: Record<string, unknown>, path: string, walk: Walk): void {
  const props = isObject(schema['properties']) ? schema['properties'] : {};
  for (const [name, sub] of Object.entries(props)) {
    if (Object.hasOwn(value, name)) walk(sub, base, `${ptr}/properties/${esc(name)}`, value[name], `${path}/${esc(name)}`);
  }
  const additional = schema['additionalProperties'];
  if (!isObject(additional)) return;
  for (const name of Object.keys(value)) {
    if (!Object.hasOwn(props, name)) walk(additional, base, `${ptr}/additionalProperties`, value[name], `${path}/${esc(name)}`);
  }
}

/** Through a `$ref`, into the resource it names. */
function walkRef(ref: string, base: string, ptr: string, value: unknown, path: string, walk: Walk): void {
  const url = new URL(ref, base);
  const fragment = url.hash.replace(/^#/, ''); // URI-encoded JSON pointer, decoded by atPointer
  url.hash = '';
  const targetId = url.href;
  const resource = resourceById(targetId);
  if (resource === undefined) throw new Error(`unresolvable $ref ${ref} from ${base}#${ptr}`);
  walk(atPointer(resource, fragment), targetId, fragment, value, path);
}

/** Into every branch of allOf/anyOf/oneOf, and the branch of if/then/else the value takes. */
function walkBranches(schema: SchemaObject, base: string, ptr: string, value: unknown, path: string, walk: Walk): void {
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = schema[k];
    if (Array.isArray(branches)) branches.forEach((b, i) => walk(b, base, `${ptr}/${k}/${i}`, value, path));
  }
  if ('if' in schema) {
    const test = ajv.getSchema(`${base}#${ptr}/if`);
    if (test === undefined) throw new Error(`cannot compile ${base}#${ptr}/if`);
    const branch = test(value) ? 'then' : 'else';
    if (branch in schema) walk(schema[branch], base, `${ptr}/${branch}`, value, path);
  }
}

/** The subschema at a JSON pointer inside a schema resource. */
function atPointer(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  let node = root;
  for (const part of pointer.slice(1).split('/')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Json)[unesc(decodeURIComponent(part))];
  }
  return node;
}

export function unknownEnumValues(schemaName: SchemaName, data: unknown): UnknownEnumValue[] {
  registerSchemas();
  const out = new Map<string, UnknownEnumValue>();
  const visiting = new Set<string>();

  /**
   * @param schema the subschema
   * @param base   `$id` of the resource holding it
   * @param ptr    JSON pointer of the subschema inside that resource
   * @param value  the data at this place
   * @param path   JSON pointer of `value` in `data`
   */
  const walk: Walk = (schema, base, ptr, value, path) => {
    if (!isObject(schema)) return; // boolean schemas hold no enumeration
    const key = `${base}#${ptr}@${path}`;
    if (visiting.has(key)) return; // a $ref cycle at the same data location
    visiting.add(key);
    const known = schema['x-known-values'];
    if (Array.isArray(known) && typeof value === 'string' && !known.includes(value)) {
      const p = path === '' ? '/' : path;
      out.set(`${p}\u0000${value}`, { path: p, value, known: known.map(String) });
    }
    if (isObject(value)) walkProperties(schema, base, ptr, value, path, walk);
    if (Array.isArray(value) && isObject(schema['items'])) value.forEach((
      item,
      i,
    ) => walk(schema['items'], base, `${ptr}/items`, item, `${path}/${i}`));
    const ref = schema['$ref'];
    if (typeof ref === 'string') walkRef(ref, base, ptr, value, path, walk);
    walkBranches(schema, base, ptr, value, path, walk);
    visiting.delete(key);
  };

  const root = SCHEMAS[schemaName];
  walk(root, root.$id, '', data, '');
  return [...out.values()];
}

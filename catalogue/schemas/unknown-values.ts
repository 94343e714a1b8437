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

type SchemaObject = Record<string, unknown>;

/**
 * One place of the schemas (a subschema at `base#ptr`), with what the walk needs of it prepared once: its known values,
 * its properties with their escaped names, and its subschemas as places of their own. A `$ref` and an `if` are resolved
 * on their first use (an unresolvable one throws only when data reaches it, as before).
 */
interface Place {
  known?: readonly unknown[];
  props: ReadonlyArray<{ name: string; esc: string; place: Place | null }>;
  named: SchemaObject;
  additional: Place | null;
  items: Place | null;
  /** The `$ref`'s target, resolved on first use. */
  ref: (() => Place | null) | null;
  branches: Place[];
  /** `if`: the test (compiled on first use) and the two branches. */
  cond: { test: () => (value: unknown) => boolean; then: Place | null; else: Place | null } | null;
}

/** Places by `base#ptr`: the schemas never change once registered. */
const places = new Map<string, Place | null>();

function placeAt(schema: unknown, base: string, ptr: string): Place | null {
  const id = `${base}#${ptr}`;
  if (places.has(id)) return places.get(id)!;
  if (!isObject(schema)) {
    places.set(id, null); // boolean schemas hold no enumeration
    return null;
  }
  const named = isObject(schema['properties']) ? schema['properties'] : {};
  const known = schema['x-known-values'];
  const place: Place = { named, props: [], additional: null, items: null, ref: null, branches: [], cond: null };
  if (Array.isArray(known)) place.known = known;
  places.set(id, place); // before its subschemas: a cycle of places finds this one
  place.props = Object.entries(named).map(([name, sub]) => {
    const e = esc(name);
    return { name, esc: e, place: placeAt(sub, base, `${ptr}/properties/${e}`) };
  });
  const additional = schema['additionalProperties'];
  if (isObject(additional)) place.additional = placeAt(additional, base, `${ptr}/additionalProperties`);
  if (isObject(schema['items'])) place.items = placeAt(schema['items'], base, `${ptr}/items`);
  const ref = schema['$ref'];
  if (typeof ref === 'string') place.ref = once(() => refTarget(ref, base, ptr));
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = schema[k];
    if (Array.isArray(branches)) branches.forEach((sub, i) => place.branches.push(...nonNull(placeAt(sub, base, `${ptr}/${k}/${i}`))));
  }
  if ('if' in schema) place.cond = {
    test: once(() => {
      const test = ajv.getSchema(`${base}#${ptr}/if`);
      if (test === undefined) throw new Error(`cannot compile ${base}#${ptr}/if`);
      return (value: unknown) => test(value) as boolean;
    }),
    then: 'then' in schema ? placeAt(schema['then'], base, `${ptr}/then`) : null,
    else: 'else' in schema ? placeAt(schema['else'], base, `${ptr}/else`) : null,
  };
  return place;
}

const nonNull = (p: Place | null): Place[] => (p ? [p] : []);

function once<T>(f: () => T): () => T {
  let done = false;
  let v: T;
  return () => (done ? v : ((done = true), (v = f())));
}

/** Where a `$ref` from `base#ptr` leads. */
function refTarget(ref: string, base: string, ptr: string): Place | null {
  const url = new URL(ref, base);
  const fragment = url.hash.replace(/^#/, ''); // URI-encoded JSON pointer, decoded by atPointer
  url.hash = '';
  const resource = resourceById(url.href);
  if (resource === undefined) throw new Error(`unresolvable $ref ${ref} from ${base}#${ptr}`);
  return placeAt(atPointer(resource, fragment), url.href, fragment);
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

  /**
   * @param place the place of the schema
   * @param value the data at this place
   * @param path  JSON pointer of `value` in `data`
   * @param here  the places already walked at this very data location (a $ref cycle there ends the walk)
   */
  const walk = (place: Place | null, value: unknown, path: string, here: Set<Place>): void => {
    if (place === null || here.has(place)) return;
    here.add(place);
    const known = place.known;
    if (known && typeof value === 'string' && !known.includes(value)) {
      const p = path === '' ? '/' : path;
      out.set(`${p}\u0000${value}`, { path: p, value, known: known.map(String) });
    }
    if (isObject(value)) {
      for (const { name, esc: e, place: sub } of place.props) {
        if (Object.hasOwn(value, name)) walk(sub, value[name], `${path}/${e}`, new Set());
      }
      if (place.additional) {
        for (const name of Object.keys(value)) {
          if (!Object.hasOwn(place.named, name)) walk(place.additional, value[name], `${path}/${esc(name)}`, new Set());
        }
      }
    }
    if (Array.isArray(value) && place.items) value.forEach((item, i) => walk(place.items, item, `${path}/${i}`, new Set()));
    if (place.ref) walk(place.ref(), value, path, here);
    for (const b of place.branches) walk(b, value, path, here);
    if (place.cond) walk(place.cond.test()(value) ? place.cond.then : place.cond.else, value, path, here);
    here.delete(place);
  };

  const root = SCHEMAS[schemaName];
  walk(placeAt(root, root.$id, ''), data, '', new Set());
  return [...out.values()];
}

/**
 * Canonical JSON in the style of RFC 8785 (JCS): object members sorted by their names' UTF-16
 * code units, no whitespace, strings and numbers serialised as ECMAScript's JSON.stringify does.
 * What is signed or hashed is this text, so the same value always gives the same bytes whatever
 * the key order or indentation of the file it was read from. Values JSON cannot carry exactly
 * (a non-finite number, undefined in an array, a function, a lone surrogate) are refused.
 */
export function canonicalize(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonical JSON: ${value} is not a JSON number`);
      return JSON.stringify(value);
    case 'string':
      if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value)) throw new TypeError('canonical JSON: a ' +
        'string holds a lone surrogate');
      return JSON.stringify(value);
    case 'object':
      return Array.isArray(value) ? canonicalArray(value) : canonicalObject(value as Record<string, unknown>);
    default:
      throw new TypeError(`canonical JSON: a ${typeof value} is not JSON`);
  }
}

function canonicalArray(a: unknown[]): string {
  return `[${a.map((x) => {
    if (x === undefined) throw new TypeError('canonical JSON: undefined in an array');
    return canonicalize(x);
  }).join(',')}]`;
}

function canonicalObject(o: Record<string, unknown>): string {
  // Members whose value is undefined are absent, as JSON.stringify drops them.
  const names = Object.keys(o).filter((k) => o[k] !== undefined).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${names.map((k) => `${canonicalize(k)}:${canonicalize(o[k])}`).join(',')}}`;
}

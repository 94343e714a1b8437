/**
 * JSON from outside (a target's answer, a file someone else wrote) parsed with a nesting limit
 * (issue 31): a text nested deeper than MAX_JSON_DEPTH is not parsed, so nothing downstream
 * (redaction, schema validation, serialisation into the report) walks a structure deep enough to
 * overflow the stack. And a width limit (issue 44): a text holding an object or an array of more
 * than MAX_JSON_MEMBERS members is not parsed either. No answer of the API comes near it (a page
 * holds at most 100 Payments, a Payment some 25 fields, metadata 20 keys); a hostile target's
 * 7.5 MB list of 200 000 items cost 0.4-0.9 s of CPU and ~30 MB of heap per answer parsed, on a busy
 * 2-core machine, and a whole run against it did not end in 600 s. Both are measured by one linear
 * scan before JSON.parse (jsonBounds), which stops at the first bound passed: the 10 001st item of
 * that list, some 400 KB in.
 */

/** Deepest nesting of objects and arrays parsed from outside. */
export const MAX_JSON_DEPTH = 256;
/** Most members of one object, or items of one array, parsed from outside. */
export const MAX_JSON_MEMBERS = 10_000;

/** The deepest nesting of `text` read as JSON (brackets outside strings), stopping early once past `limit`. */
export function jsonDepth(text: string, limit = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > deepest && (deepest = depth) > limit) return deepest;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

export type BoundedJson = { json: unknown; bound?: undefined } | { json: undefined; bound: string };

/** The index of the quote closing the string opened at `open` (-1: never closed), found with indexOf. */
function stringEnd(text: string, open: number): number {
  for (let j = text.indexOf('"', open + 1); j >= 0; j = text.indexOf('"', j + 1)) {
    let slashes = 0;
    while (text.charCodeAt(j - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return j;
  }
  return -1;
}

/**
 * The first bound `text` passes, in words, or undefined: nested deeper than `maxDepth`, or an object
 * or array with more than `maxMembers` members (counted by their commas, outside strings). Strings
 * are skipped with indexOf (most of a large answer's characters are inside them).
 */
function jsonBounds(text: string, maxDepth = MAX_JSON_DEPTH, maxMembers = MAX_JSON_MEMBERS): string | undefined {
  const commas = new Int32Array(maxDepth + 2);
  const isArray = new Uint8Array(maxDepth + 2);
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(text, i);
      if (i < 0) return undefined; // not JSON: JSON.parse says so
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return `the body is nested deeper than ${maxDepth} levels (the suite's JSON nesting bound): not parsed`;
      commas[depth] = 0;
      isArray[depth] = c === 0x5b ? 1 : 0;
    } else if (c === 0x7d || c === 0x5d) {
      if (depth > 0) depth--;
    } else if (c === 0x2c && depth > 0 && ++commas[depth]! >= maxMembers) {
      const what = isArray[depth] ? `an array of more than ${maxMembers} items` : `an object of more than ${maxMembers} members`;
      return `the body holds ${what} (the suite's JSON width bound): not parsed`;
    }
  }
  return undefined;
}

/** The parsed text (undefined when empty or not JSON), or, past the nesting or width limit, no value and the bound named. */
export function parseBoundedJson(text: string, maxDepth = MAX_JSON_DEPTH): BoundedJson {
  if (!text.length) return { json: undefined };
  const bound = jsonBounds(text, maxDepth);
  if (bound) return { json: undefined, bound };
  try {
    return { json: JSON.parse(text) };
  } catch {
    return { json: undefined };
  }
}

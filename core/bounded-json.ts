/**
 * JSON from outside (a target's answer, a file someone else wrote) parsed with a nesting limit
 * (issue 31): a text nested deeper than MAX_JSON_DEPTH is not parsed, so nothing downstream
 * (redaction, schema validation, serialisation into the report) walks a structure deep enough to
 * overflow the stack. The depth is measured by one linear scan before JSON.parse.
 */

/** Deepest nesting of objects and arrays parsed from outside. */
export const MAX_JSON_DEPTH = 256;

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

/** The parsed text (undefined when empty or not JSON), or, past the nesting limit, no value and the bound named. */
export function parseBoundedJson(text: string, maxDepth = MAX_JSON_DEPTH): BoundedJson {
  if (!text.length) return { json: undefined };
  if (jsonDepth(text, maxDepth) > maxDepth) {
    return { json: undefined, bound: `the body is nested deeper than ${maxDepth} levels (the suite's JSON nesting bound): not parsed` };
  }
  try {
    return { json: JSON.parse(text) };
  } catch {
    return { json: undefined };
  }
}

/**
 * Schema checks of a target's answer within a budget (issue 31): whatever the target sends inside
 * the byte cap, one answer costs a bounded amount of validation and of memory kept as evidence.
 *  - a body not parsed because it passed the nesting bound (core/bounded-json.ts) is not the shape:
 *    the error names the bound;
 *  - a list page holding more items than the spec's largest page (`limit` 1 to 100) is not the
 *    shape: the first 100 are validated, the rest are not walked, and the error says so;
 *  - a body over LARGE_ANSWER_CHARS is validated by a validator that stops at its first error
 *    (every error of an 8 MiB answer would be millions of them);
 *  - what a finding shows of the body is the parsed value only when the body is small.
 */
import type { ApiResponse } from './client.ts';
import { validate, type SchemaName, type ValidationResult } from '../catalogue/schemas/index.ts';
import { ownString } from './bounded-value.ts';

/** The spec's largest list page ("list page size `limit` | 1 to 100"). */
export const LARGEST_PAGE = 100;
/** Above this many characters an answer is validated to its first error only. */
export const LARGE_ANSWER_CHARS = 64 * 1024;
const SHOWN_CHARS = 200;

/** The answer's body against `name`, bounded as this module says. */
export function validateAnswer(name: SchemaName, res: ApiResponse): ValidationResult {
  if (res.jsonBound) return { valid: false, errors: [res.jsonBound] };
  const { data, cut } = pageWithin(name, res.json);
  const v = validate(name, data, bodyChars(res) > LARGE_ANSWER_CHARS);
  if (cut === undefined) return v;
  return {
    valid: false,
    errors: [
      `/data: ${cut} items, more than the spec's largest page (limit 1 to ${LARGEST_PAGE}); the first ${LARGEST_PAGE} validated, the ` +
        `rest not walked`,
      ...v.errors,
    ],
  };
}

/** A list page cut to the spec's largest page (for validation and enumeration walks), and how many items it had when cut. */
export function pageWithin(name: SchemaName, json: unknown): { data: unknown; cut?: number } {
  if (name !== 'PaymentList' || !json || typeof json !== 'object') return { data: json };
  const items = (json as { data?: unknown }).data;
  if (!Array.isArray(items) || items.length <= LARGEST_PAGE) return { data: json };
  return { data: { ...json, data: items.slice(0, LARGEST_PAGE) }, cut: items.length };
}

/** What a finding keeps of the body: the parsed value of a small answer, else its first characters and its size. */
export function bodyShown(res: ApiResponse): unknown {
  if (res.jsonBound) return `${res.jsonBound}; it begins ${res.text.slice(0, SHOWN_CHARS)}…`;
  if (bodyChars(res) > LARGE_ANSWER_CHARS) return `${res.text.slice(0, SHOWN_CHARS)}… (${bodyChars(res)} chars)`;
  return res.json ?? res.text.slice(0, SHOWN_CHARS);
}

/** The body's length in characters, also when only its start is kept (ApiResponse.textChars). */
function bodyChars(res: ApiResponse): number {
  return res.textChars ?? res.text.length;
}

/**
 * What is worth keeping of an answer held for later judging (the RESP traffic's tour): the answer
 * itself, or, when its body is large and was not parsed (past a bound, or not JSON), a copy holding
 * the first LARGE_ANSWER_CHARS of it and its length: everything a rule reads of such an answer.
 */
export function keptAnswer(res: ApiResponse): ApiResponse {
  if (res.json !== undefined || res.text.length <= LARGE_ANSWER_CHARS) return res;
  return { ...res, text: ownString(res.text.slice(0, LARGE_ANSWER_CHARS + 1)), textChars: bodyChars(res) };
}

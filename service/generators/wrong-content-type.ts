/**
 * wrongContentType: Content-Type header values other than application/json, to send with a valid
 * JSON body; observed only.
 *
 * Spec, Endpoints: "Requests with a body use `Content-Type: application/json`". What a target does
 * with another type (415, 400 `invalid_request`, or reading the JSON anyway) is not stated, so the
 * suite records the answer and asserts nothing beyond the usual (no 5xx is a SHOULD elsewhere).
 *
 *   content-type = "text/plain" [ params ] / "application/x-www-form-urlencoded" / "multipart/form-data" params
 *                / "application/xml" / "text/json" / "application/octet-stream"
 *                / a "+json" suffix type / "" (empty header) / null (no header at all)
 *
 * `application/json; charset=utf-8` and a different letter case of `application/json` are the same
 * media type (RFC 9110), so they are not here.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';

export interface ContentTypeCase {
  /** The header value to send; null means no Content-Type header at all. */
  contentType: string | null;
  /** One line: why the case is worth observing. */
  why: string;
}

const CASES: readonly ContentTypeCase[] = [
  { contentType: 'text/plain', why: 'text/plain is not application/json' },
  { contentType: 'text/plain; charset=utf-8', why: 'text/plain with a charset is not application/json' },
  { contentType: 'application/x-www-form-urlencoded', why: 'a form encoding with a JSON body' },
  { contentType: 'multipart/form-data; boundary=----hps-conformance', why: 'multipart with a JSON body' },
  { contentType: 'application/xml', why: 'XML is not application/json' },
  { contentType: 'text/json', why: 'text/json is a legacy alias, not application/json' },
  { contentType: 'application/octet-stream', why: 'raw bytes are not application/json' },
  { contentType: 'application/merge-patch+json', why: 'a +json suffix type other than application/json' },
  { contentType: 'application/vnd.api+json', why: 'a +json suffix type other than application/json' },
  { contentType: '', why: 'an empty Content-Type header' },
  { contentType: null, why: 'no Content-Type header at all' },
];

/** Content types a createPayment request should not carry, for observation. */
export function wrongContentType(): Arbitrary<ContentTypeCase> {
  return fc.constantFrom(...CASES);
}

/**
 * What only the auth suite needs: a Bearer key split into prefix and secret, and the answer a
 * request whose only fault is its credentials must get.
 */
import type { ApiResponse } from '../../core/client.ts';
import { expectError } from '../../runner/expect.ts';
import type { Operation } from '../../schemas/index.ts';
import type { Credentials } from '../_shared/valid-request.ts';

/** The token of a Bearer key: prefix and random part. */
export function splitKey(key: string): { prefix: string; secret: string } {
  const m = /^(pt_(?:test|live)_sk_)(.*)$/.exec(key);
  return m ? { prefix: m[1]!, secret: m[2]! } : { prefix: '', secret: key };
}

/** A `/test_helpers` request with a Live-prefixed token may be judged by Rule 6 (404 not_found) before the key is. */
export function liveShaped(token: string | undefined | null): boolean {
  return typeof token === 'string' && /(^|\s)pt_live_sk_/.test(token);
}

/**
 * The answer to a request whose only fault is its credentials: 401 invalid_api_key. On a
 * `/test_helpers` route a Live-shaped token may instead meet Rule 6 first (404 not_found, "as if
 * the route did not exist"); the order of the two checks is not shown, so both are accepted.
 */
export function expectInvalidKey(res: ApiResponse, op: Operation, auth: Credentials, what: string): void {
  const token = auth.authorization ?? auth.key;
  if (op.testOnly && liveShaped(token) && res.status === 404) return expectError(res, 404, ['not_found'], what);
  expectError(res, 401, ['invalid_api_key'], what);
}

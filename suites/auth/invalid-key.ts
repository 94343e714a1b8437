/**
 * What only the auth suite needs: the answer a request whose only fault is its credentials must get.
 */
import type { ApiResponse } from '../../core/client.ts';
import { expectError } from '../../service/harness/worker/expect.ts';
import type { Operation } from '../../catalogue/schemas/index.ts';
import type { Credentials } from '../_shared/valid-request.ts';
import { livemodeOfKey } from '../../core/api-key.ts';

/** A `/test_helpers` request with a Live-prefixed token may be judged by Rule 6 (404 not_found) before the key is. */
export function liveShaped(token: string | undefined | null): boolean {
  return typeof token === 'string' && token.split(/\s/).some((word) => livemodeOfKey(word) === true);
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

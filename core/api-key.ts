/**
 * What a key's prefix says (spec: "The key alone determines the business and the environment"):
 * `pt_live_sk_` is Live, `pt_test_sk_` is Test. The suite side reads it here once; the reference
 * keeps its own reading (references/service/auth.ts), so a mistake in one is never copied into the other.
 */

export const TEST_KEY_PREFIX = 'pt_test_sk_';
export const LIVE_KEY_PREFIX = 'pt_live_sk_';

/** true for a Live-prefixed key, false for a Test-prefixed one, undefined for anything else (none, malformed). */
export function livemodeOfKey(key: string | null | undefined): boolean | undefined {
  if (typeof key !== 'string') return undefined;
  if (key.startsWith(LIVE_KEY_PREFIX)) return true;
  if (key.startsWith(TEST_KEY_PREFIX)) return false;
  return undefined;
}

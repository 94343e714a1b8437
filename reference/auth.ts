/**
 * Authentication (spec, "Authentication"): `Authorization: Bearer <API_KEY>`.
 * Missing, malformed, unknown or revoked → 401 `invalid_api_key` (with
 * `WWW-Authenticate: Bearer`); a key without the scope → 403 `insufficient_scope`.
 */
import { ApiError } from './errors.ts';
import { NO_FAULTS, type FaultSet } from './faults.ts';
import type { ApiKeyRecord, Scope } from './types.ts';

/** `Bearer <token>`: scheme case-insensitive (RFC 9110 11.1), one or more spaces, one token. */
const BEARER = /^Bearer +(\S+)$/i;
const KEY_SHAPE = /^pt_(test|live)_sk_[A-Za-z0-9]+$/;

// Parsed headers memoised (bounded, short headers only): a client sends the same one on every
// request. Kept per header: its bearer token and whether that token has a key's shape.
const TOKENS_MAX_ENTRIES = 1024;
const TOKENS_MAX_HEADER = 512;
const tokens = new Map<string, ParsedAuthorization>();

interface ParsedAuthorization {
  token: string | null;
  keyShaped: boolean;
}

const NO_TOKEN: ParsedAuthorization = Object.freeze({ token: null, keyShaped: false });

// The header parsed last: a client sending the same one again costs a comparison, not the hashing of a new string.
let lastHeader: string | null = null;
let lastParsed: ParsedAuthorization = NO_TOKEN;

function parseAuthorization(header: string | undefined): ParsedAuthorization {
  if (header === undefined) return NO_TOKEN;
  if (header === lastHeader) return lastParsed;
  let parsed = tokens.get(header);
  if (parsed === undefined) {
    const token = BEARER.exec(header.trim())?.[1] ?? null;
    parsed = token === null ? NO_TOKEN : Object.freeze({ token, keyShaped: KEY_SHAPE.test(token) });
    if (header.length > TOKENS_MAX_HEADER) return parsed;
    if (tokens.size >= TOKENS_MAX_ENTRIES) tokens.clear();
    tokens.set(header, parsed);
  }
  lastHeader = header;
  lastParsed = parsed;
  return parsed;
}

/** The active key record named by the header, or null (any reason: missing, malformed, unknown, revoked). */
export function findActiveKey(
  keys: ReadonlyMap<string, ApiKeyRecord>,
  header: string | undefined,
  faults: FaultSet = NO_FAULTS,
): ApiKeyRecord | null {
  if (faults.has('missing-key-uses-default-key') && header === undefined) {
    // FAULT missing-key-uses-default-key: no Authorization header falls back to the first Test key.
    return [...keys.values()].find((r) => r.env === 'test' && !r.revoked) ?? null;
  }
  const parsed = parseAuthorization(header);
  let token = parsed.token;
  if (faults.has('bearer-scheme-not-checked') && header !== undefined) {
    // FAULT bearer-scheme-not-checked: the key is the header's last word, whatever the scheme.
    token = header.trim().split(/\s+/).pop() ?? null;
  }
  if (faults.has('basic-scheme-accepted') && header !== undefined && /^Basic +\S+$/i.test(header.trim())) {
    // FAULT basic-scheme-accepted: `Basic base64(key:)` is taken as the key (the first non-empty part).
    const user = Buffer.from(header.trim().split(/ +/)[1]!, 'base64').toString('utf8').split(':').find((p) => p !== '') ?? '';
    if (user !== '') token = user;
  }
  if (faults.has('key-prefix-not-checked') && token !== null) {
    // FAULT key-prefix-not-checked: looked up by the random part only, whatever the prefix.
    const secret = token.slice(token.lastIndexOf('_') + 1);
    const found = [...keys.values()].find((r) => secret !== '' && r.key.endsWith(`_${secret}`));
    if (found !== undefined && !found.revoked) return found;
  }
  if (faults.has('key-compared-by-prefix') && token !== null && token.length >= 20) {
    // FAULT key-compared-by-prefix: only the first 20 characters of the key are compared.
    const found = [...keys.values()].find((r) => r.key.slice(0, 20) === token!.slice(0, 20));
    if (found !== undefined && !found.revoked) return found;
  }
  // The shape test is the memoised one unless a fault above took another token.
  if (token === null || !(token === parsed.token ? parsed.keyShaped : KEY_SHAPE.test(token))) return null;
  const record = keys.get(token);
  if (faults.has('revoked-key-accepted') && record !== undefined) {
    // FAULT revoked-key-accepted: the revoked flag is never consulted.
    return record;
  }
  if (record === undefined || record.revoked) return null;
  return record;
}

export function authenticate(
  keys: ReadonlyMap<string, ApiKeyRecord>,
  header: string | undefined,
  faults: FaultSet = NO_FAULTS,
): ApiKeyRecord {
  const record = findActiveKey(keys, header, faults);
  if (record === null) {
    if (faults.has('no-www-authenticate-on-401')) {
      // FAULT no-www-authenticate-on-401: the 401 carries no WWW-Authenticate challenge.
      throw new ApiError('invalid_api_key');
    }
    throw new ApiError('invalid_api_key', { headers: { 'WWW-Authenticate': 'Bearer' } });
  }
  return record;
}

export function requireScope(key: ApiKeyRecord, scope: Scope, faults: FaultSet = NO_FAULTS): void {
  if (faults.has('read-scope-not-enforced') && scope === 'payments:read') {
    // FAULT read-scope-not-enforced: payments:read is never checked.
    return;
  }
  if (!key.scopes.has(scope)) {
    throw new ApiError('insufficient_scope', {
      message: `This API key lacks the ${scope} scope.`,
      headers: { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}"` },
    });
  }
}

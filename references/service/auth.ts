/**
 * Authentication (spec, "Authentication"): `Authorization: Bearer <API_KEY>`.
 * Missing, malformed, unknown or revoked → 401 `invalid_api_key` (with
 * `WWW-Authenticate: Bearer`); a key without the scope → 403 `insufficient_scope`.
 *
 * The planted faults of this file are overrides named after the defect, in the `faulty` table of
 * the step they break (references/service/steps.ts says how an override replaces a check).
 */
import { ApiError } from './errors.ts';
import { NO_FAULTS, type FaultSet } from './faults.ts';
import { checkOf, type PlantingStep, type Step } from './steps.ts';
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

/** The bearer token of the Authorization header, and whether it has a key's shape. */
const TOKEN: Step<string | undefined, ParsedAuthorization> = {
  name: 'the key is the token of `Bearer <token>`',
  check: parseAuthorization,
  faulty: {
    'bearer-scheme-not-checked': {
      does: 'The key is taken as the last word of the Authorization header whatever the scheme: `Token <key>`, `Basic <key>` and a ' +
        'bare key are accepted.',
      breaks: ['AUTH-MALFORMED-KEY', 'AUTH-NO-KEY-NEVER-SUCCEEDS'],
      violates: ['auth.scheme-bearer#only-bearer', 'endpoints.bearer-required#bearer-scheme'],
      plant: (header, next) => {
        if (header === undefined) return next(header);
        return shaped(header.trim().split(/\s+/).pop() ?? null);
      },
    },
    'bearer-glued-to-key-accepted': {
      does: 'The scheme is matched with an optional separator (`/^Bearer[:=]?\\s*/`): `Bearer<key>`, `Bearer:<key>` and ' +
        '`Bearer=<key>` authenticate as <key>.',
      breaks: ['AUTH-MALFORMED-KEY'],
      violates: ['auth.header-form'],
      plant: (header, next) => {
        const glued = header === undefined ? null : /^Bearer[:=]?(pt_\S+)$/i.exec(header.trim());
        return glued === null ? next(header) : shaped(glued[1]!);
      },
    },
    'quoted-key-accepted': {
      does: 'Quotes and brackets around the token are stripped (as for a quoted-string): `Bearer "<key>"`, `Bearer \'<key>\'`, ' +
        '`Bearer <<key>>` authenticate as <key>, so the value is not the key itself.',
      breaks: ['AUTH-MALFORMED-KEY'],
      violates: ['auth.value-is-key'],
      plant: (header, next) => {
        const quoted = header === undefined ? null : /^Bearer +([\x22\x27<\x7b])(\S+)([\x22\x27>\x7d])$/i.exec(header.trim());
        return quoted === null ? next(header) : shaped(quoted[2]!);
      },
    },
    'key-trailing-punctuation-trimmed': {
      does: 'Trailing punctuation is trimmed from the token (a copy-paste convenience): `<key>.`, `<key>;`, `<key>,` and `<key>\\` ' +
        'authenticate as <key>, though malformed.',
      breaks: ['AUTH-MALFORMED-KEY'],
      violates: ['auth.invalid-key-401#malformed'],
      plant: (header, next) => {
        const parsed = next(header);
        return parsed.token === null ? parsed : shaped(parsed.token.replace(/[.;,\\]+$/, ''));
      },
    },
    'basic-scheme-accepted': {
      does: 'HTTP Basic is accepted as well as Bearer: `Basic base64(<key>:)` authenticates as <key> (a gateway convenience left on).',
      breaks: ['AUTH-MALFORMED-KEY', 'AUTH-NO-KEY-NEVER-SUCCEEDS'],
      violates: ['auth.scheme-bearer#only-bearer', 'endpoints.bearer-required#bearer-scheme'],
      plant: (header, next) => {
        if (header === undefined || !/^Basic +\S+$/i.test(header.trim())) return next(header);
        const user = Buffer.from(header.trim().split(/ +/)[1]!, 'base64').toString('utf8').split(':').find((p) => p !== '') ?? '';
        return user !== '' ? shaped(user) : next(header);
      },
    },
  },
};

/** A token other than the memoised parse's (a fault took another one), with its shape tested. */
function shaped(token: string | null): ParsedAuthorization {
  return token === null ? NO_TOKEN : { token, keyShaped: KEY_SHAPE.test(token) };
}

interface KeyLookup {
  readonly keys: ReadonlyMap<string, ApiKeyRecord>;
  readonly header: string | undefined;
  readonly parsed: ParsedAuthorization;
  readonly faults: FaultSet;
}

/** The first key of `keys` matching `match` that is not revoked, else undefined. */
function activeWhere(keys: ReadonlyMap<string, ApiKeyRecord>, match: (r: ApiKeyRecord) => boolean): ApiKeyRecord | undefined {
  const found = [...keys.values()].find(match);
  return found !== undefined && !found.revoked ? found : undefined;
}

/** The key record of exactly that token (faults outermost last: the last one listed is tried first). */
const LOOKUP: Step<KeyLookup, ApiKeyRecord | null> = {
  name: 'a key-shaped token names a key record exactly',
  check: ({ keys, parsed, faults }) => {
    if (parsed.token === null || !parsed.keyShaped) return null;
    return checkOf(ACTIVE, faults)(keys.get(parsed.token));
  },
  faulty: {
    'key-compared-by-prefix': {
      does: 'Keys are compared on their first 20 characters only: a near miss of an issued key (last character changed, extended, ' +
        'truncated to 20+) is accepted as that key.',
      breaks: ['AUTH-UNKNOWN-KEY', 'AUTH-MALFORMED-KEY', 'AUTH-NO-KEY-NEVER-SUCCEEDS'],
      violates: ['auth.invalid-key-401#unknown'],
      plant: (input, next) => {
        const token = input.parsed.token;
        if (token === null || token.length < 20) return next(input);
        return activeWhere(input.keys, (r) => r.key.slice(0, 20) === token.slice(0, 20)) ?? next(input);
      },
    },
    'key-prefix-not-checked': {
      does: 'Keys are looked up by their random part only: any prefix (`pt_prod_sk_`, `sk_test_`, the other environment\'s) in front ' +
        'of an issued key\'s random part is accepted.',
      breaks: ['AUTH-MALFORMED-KEY', 'AUTH-UNKNOWN-KEY', 'AUTH-NO-KEY-NEVER-SUCCEEDS'],
      violates: ['auth.key-prefixes'],
      plant: (input, next) => {
        const token = input.parsed.token;
        if (token === null) return next(input);
        const secret = token.slice(token.lastIndexOf('_') + 1);
        return activeWhere(input.keys, (r) => secret !== '' && r.key.endsWith(`_${secret}`)) ?? next(input);
      },
    },
    'missing-key-uses-default-key': {
      does: 'A request without an Authorization header is served as the first Test key of the store (a development fallback left on).',
      breaks: ['AUTH-MISSING-KEY', 'AUTH-NO-KEY-NEVER-SUCCEEDS'],
      violates: ['auth.invalid-key-401#missing', 'endpoints.bearer-required#missing-refused'],
      plant: (input, next) =>
        input.header === undefined ? ([...input.keys.values()].find((r) => r.env === 'test' && !r.revoked) ?? null) : next(input),
    },
  },
};

/** The record found, if it is not revoked. */
const ACTIVE: Step<ApiKeyRecord | undefined, ApiKeyRecord | null> = {
  name: 'a revoked key authenticates nothing',
  check: (record) => (record === undefined || record.revoked ? null : record),
  faulty: {
    'revoked-key-accepted': {
      does: 'The revoked flag of a key is never consulted: a revoked key keeps working.',
      breaks: ['AUTH-REVOKED-KEY', 'AUTH-NO-KEY-NEVER-SUCCEEDS'],
      violates: ['auth.invalid-key-401#revoked'],
      plant: (record) => record ?? null,
    },
  },
};

/** The active key record named by the header, or null (any reason: missing, malformed, unknown, revoked). */
export function findActiveKey(
  keys: ReadonlyMap<string, ApiKeyRecord>,
  header: string | undefined,
  faults: FaultSet = NO_FAULTS,
): ApiKeyRecord | null {
  return checkOf(LOOKUP, faults)({ keys, header, parsed: checkOf(TOKEN, faults)(header), faults });
}

/** What a request without an active key answers. */
const UNAUTHENTICATED: Step<void, ApiError> = {
  name: '401 invalid_api_key with a WWW-Authenticate: Bearer challenge',
  check: () => new ApiError('invalid_api_key', { headers: { 'WWW-Authenticate': 'Bearer' } }),
  faulty: {
    'no-www-authenticate-on-401': {
      does: '401 invalid_api_key answers carry no WWW-Authenticate header.',
      breaks: ['AUTH-WWW-AUTHENTICATE'],
      violates: ['auth.scheme-bearer#challenge'],
      plant: () => new ApiError('invalid_api_key'),
    },
  },
};

export function authenticate(
  keys: ReadonlyMap<string, ApiKeyRecord>,
  header: string | undefined,
  faults: FaultSet = NO_FAULTS,
): ApiKeyRecord {
  const record = findActiveKey(keys, header, faults);
  if (record === null) throw checkOf(UNAUTHENTICATED, faults)();
  return record;
}

const SCOPE: Step<{ readonly key: ApiKeyRecord; readonly scope: Scope }, void> = {
  name: 'a key without the scope → 403 insufficient_scope',
  check: ({ key, scope }) => {
    if (!key.scopes.has(scope)) {
      throw new ApiError('insufficient_scope', {
        message: `This API key lacks the ${scope} scope.`,
        headers: { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}"` },
      });
    }
  },
  faulty: {
    'read-scope-not-enforced': {
      does: 'payments:read is never checked: a write-only key can list and get Payments.',
      breaks: ['AUTH-READ-SCOPE-REQUIRED'],
      violates: ['auth.scopes#read'],
      plant: (input, next) => (input.scope === 'payments:read' ? undefined : next(input)),
    },
  },
};

export function requireScope(key: ApiKeyRecord, scope: Scope, faults: FaultSet = NO_FAULTS): void {
  checkOf(SCOPE, faults)({ key, scope });
}

/** The steps of this file that plant faults (references/service/fault-registry.ts reads their declarations). */
export const FAULTY_STEPS: readonly PlantingStep[] = [TOKEN, LOOKUP, ACTIVE, UNAUTHENTICATED, SCOPE];

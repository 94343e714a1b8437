/**
 * The route table of /v1 (spec, "Endpoints"): path patterns, allowed methods, the
 * operation each method maps to and the scope it requires.
 *
 * Matching is on the raw (still percent-encoded) path, segment by segment and exactly:
 * no trailing-slash or case folding, no decoding of literal segments. Only a `{id}`
 * segment is percent-decoded (leniently: an undecodable segment is kept raw, and then
 * simply names no payment).
 */
import type { Scope } from './types.ts';

export type OperationId =
  | 'createPayment'
  | 'listPayments'
  | 'getPayment'
  | 'cancelPayment'
  | 'simulatePaymentSucceeded'
  | 'simulatePaymentCancelled';

export interface MethodBinding {
  operation: OperationId;
  scope: Scope;
}

export interface RouteDefinition {
  /** e.g. `/v1/payments/{id}/cancel`. */
  pattern: string;
  methods: Readonly<Record<string, MethodBinding>>;
  /** A `/test_helpers` route: Test keys only; a Live key gets 404 `not_found` (Rule 6). */
  testHelper: boolean;
}

export const ROUTES: readonly RouteDefinition[] = [
  {
    pattern: '/v1/payments',
    methods: {
      GET: { operation: 'listPayments', scope: 'payments:read' },
      POST: { operation: 'createPayment', scope: 'payments:write' },
    },
    testHelper: false,
  },
  {
    pattern: '/v1/payments/{id}',
    methods: { GET: { operation: 'getPayment', scope: 'payments:read' } },
    testHelper: false,
  },
  {
    pattern: '/v1/payments/{id}/cancel',
    methods: { POST: { operation: 'cancelPayment', scope: 'payments:write' } },
    testHelper: false,
  },
  {
    pattern: '/v1/test_helpers/payments/{id}/succeed',
    methods: { POST: { operation: 'simulatePaymentSucceeded', scope: 'payments:write' } },
    testHelper: true,
  },
  {
    pattern: '/v1/test_helpers/payments/{id}/cancel',
    methods: { POST: { operation: 'simulatePaymentCancelled', scope: 'payments:write' } },
    testHelper: true,
  },
];

export interface RouteMatch<R> {
  route: R;
  params: Record<string, string>;
}

// Route patterns split once, not per request.
const splitPatterns = new Map<string, string[]>();

function patternParts(pattern: string): string[] {
  let parts = splitPatterns.get(pattern);
  if (!parts) {
    parts = pattern.split('/');
    splitPatterns.set(pattern, parts);
  }
  return parts;
}

// Matches memoised per route table and path (bounded, short paths only): clients ask for the
// same few paths again and again. A memoised match is frozen: callers only read it.
const MEMO_MAX_ENTRIES = 4096;
const MEMO_MAX_PATH = 256;
const memo = new WeakMap<readonly object[], Map<string, RouteMatch<unknown> | null>>();
// The table and path asked last, with the table's memo and the match: a client asking for the
// same path again costs two comparisons, not a WeakMap lookup and the hashing of a new string.
let lastRoutes: readonly object[] | null = null;
let lastByPath: Map<string, RouteMatch<unknown> | null> | undefined;
let lastPath: string | null = null;
let lastMatch: RouteMatch<unknown> | null = null;

/** The first route of `routes` whose pattern matches `path`, with its decoded params. */
export function matchPath<R extends { pattern: string }>(
  routes: readonly R[],
  path: string,
): RouteMatch<R> | null {
  if (path.length > MEMO_MAX_PATH) return matchUncached(routes, path);
  if (routes === lastRoutes && path === lastPath) return lastMatch as RouteMatch<R> | null;
  let byPath = routes === lastRoutes ? lastByPath : memo.get(routes);
  if (byPath === undefined) memo.set(routes, (byPath = new Map()));
  let kept = byPath.get(path);
  if (kept === undefined) {
    const found = matchUncached(routes, path);
    kept = found === null ? null : Object.freeze({ route: found.route, params: Object.freeze(found.params) });
    if (byPath.size >= MEMO_MAX_ENTRIES) byPath.clear();
    byPath.set(path, kept);
  }
  lastRoutes = routes;
  lastByPath = byPath;
  lastPath = path;
  lastMatch = kept;
  return kept as RouteMatch<R> | null;
}

function matchUncached<R extends { pattern: string }>(routes: readonly R[], path: string): RouteMatch<R> | null {
  const segments = path.split('/');
  for (const route of routes) {
    const parts = patternParts(route.pattern);
    if (parts.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < parts.length && ok; i += 1) {
      const part = parts[i] ?? '';
      const segment = segments[i] ?? '';
      if (part.startsWith('{') && part.endsWith('}')) {
        if (segment === '') ok = false;
        else params[part.slice(1, -1)] = segment.includes('%') ? decodeSegment(segment) : segment; // nothing to decode: skip the call
      } else if (part !== segment) {
        ok = false;
      }
    }
    if (ok) return { route, params };
  }
  return null;
}

/** The Allow header; with `headAsGet` (head decision 'as-get') a GET route also allows HEAD. */
export function allowHeader(methods: Readonly<Record<string, unknown>>, headAsGet = false): string {
  const names = Object.keys(methods);
  if (headAsGet && names.includes('GET')) names.push('HEAD');
  return names.sort().join(', ');
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

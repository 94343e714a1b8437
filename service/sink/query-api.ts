/**
 * The sink's own HTTP API, for suites running in other processes; served on the sink's port under
 * `/_sink/` (endpoint paths may not start with `/_sink`, so the two never collide). Read-only, GET only.
 *
 *   GET /_sink/health                 -> { ok: true, deliveries, dropped, rejected, redirectHits, unknownRedirectHits, clientErrors,
 * skippedLogLines }
 *   GET /_sink/deliveries?payment_id=&event_id=&type=&path=&since_seq=&no_object_id=1&type_not_prefix=&limit=
 *                                     -> { deliveries: Delivery[] }   (body base64, with its sha256)
 *   GET /_sink/redirect-hits          -> { redirectHits: RedirectHit[] }
 *   GET /_sink/rejected               -> { rejected: number, recent: Delivery[] }   (the capped ring)
 *
 * Every call needs `Authorization: Bearer <queryToken>` (compared in constant time; 401 otherwise).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { filterFromSearchParams } from './delivery-filter.ts';
import type { DeliveryStore } from './delivery-store.ts';
import { sendJson } from './send-json.ts';
import type { SinkStats } from './types.ts';

export const QUERY_PREFIX = '/_sink';

export interface QueryApiContext {
  store: DeliveryStore;
  stats(): SinkStats;
  queryToken: string;
}

/** `path` and `query` are the request target split at its first "?". */
export function handleQueryRequest(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  query: URLSearchParams,
  ctx: QueryApiContext,
): void {
  req.resume(); // no call takes a body
  if (!bearerMatches(req.headers.authorization, ctx.queryToken)) {
    return sendJson(res, 401, { error: 'unauthorized' }, { 'www-authenticate': 'Bearer' });
  }
  const route = ROUTES.get(path);
  if (!route) return sendJson(res, 404, { error: 'not_found' });
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return sendJson(res, 405, { error: 'method_not_allowed' }, { allow: 'GET, HEAD' });
  }
  route(query, res, ctx);
}

type Route = (query: URLSearchParams, res: ServerResponse, ctx: QueryApiContext) => void;

const ROUTES = new Map<string, Route>([
  [`${QUERY_PREFIX}/health`, (_query, res, ctx) => sendJson(res, 200, { ok: true, ...ctx.stats() })],
  [`${QUERY_PREFIX}/deliveries`, (query, res, ctx) => {
    const parsed = filterFromSearchParams(query);
    if (!parsed.ok) return sendJson(res, 400, { error: 'invalid_query', message: parsed.problem });
    sendJson(res, 200, { deliveries: ctx.store.deliveries(parsed.filter) });
  }],
  [`${QUERY_PREFIX}/redirect-hits`, (query, res, ctx) => {
    if ([...query.keys()].length > 0) {
      return sendJson(res, 400, { error: 'invalid_query', message: 'redirect-hits takes no query parameters' });
    }
    sendJson(res, 200, { redirectHits: ctx.store.redirectHits() });
  }],
  [
    `${QUERY_PREFIX}/rejected`,
    (_query, res, ctx) => sendJson(res, 200, { rejected: ctx.store.rejectedCount, recent: ctx.store.rejected() }),
  ],
]);

/** Constant time whatever the header: both sides are hashed to 32 bytes before the comparison. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = createHash('sha256').update(header ?? '', 'utf8').digest();
  const expected = createHash('sha256').update(`Bearer ${token}`, 'utf8').digest();
  return timingSafeEqual(given, expected);
}

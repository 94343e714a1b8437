/**
 * Routing and dispatch of one request. Order of checks for /v1 (the spec does not fix it):
 *
 *  1. Route: no pattern matches the path → 404 `not_found`.
 *  2. Rule 6: a `/test_helpers` route called with an active Live key → 404 `not_found`,
 *     as if the route did not exist (whatever the method, id or scope; not rate-counted).
 *  3. Method: the route exists but not for this method → 405 `method_not_allowed` + `Allow`.
 *  4. Authentication → 401 `invalid_api_key` + `WWW-Authenticate: Bearer`.
 *  5. Scope → 403 `insufficient_scope`.
 *  6. Rate limit (per key, counted from here on) → 429 `rate_limit_exceeded` + `Retry-After`.
 *  7. The operation (its own checks: body, idempotency, validation, 404 payment_not_found, 409s).
 *
 * `/_control/...` is handled by control.ts. Anything thrown that is not an ApiError is
 * answered 500 `internal_error` (reported to ctx.onError, never to the client).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate, findActiveKey, requireScope } from './auth.ts';
import type { AppContext } from './context.ts';
import { handleControl, isControlPath } from './control.ts';
import { createPayment } from './create-payment.ts';
import { ApiError, errorEnvelope, internalError } from './errors.ts';
import { noBody, readBody, sendBytes, sendBytesWithRequestId, sendJson, splitTarget, type RequestBody } from './http-io.ts';
import { newRequestId } from './ids.ts';
import { listPayments } from './listing.ts';
import {
  cancelPayment,
  getPayment,
  simulatePaymentCancelled,
  simulatePaymentSucceeded,
} from './payment-actions.ts';
import type { Reply } from './reply.ts';
import { allowHeader, matchPath, ROUTES, type OperationId } from './router.ts';
import type { ApiKeyRecord } from './types.ts';

// One listener for every response (an answer the client no longer reads is nobody's concern).
const ignoreError = (): void => undefined;

export function createRequestHandler(ctx: AppContext): (req: IncomingMessage, res: ServerResponse) => void {
  const perConnection = new WeakMap<object, string>();
  return (req, res) => {
    let requestId = newRequestId();
    if (ctx.faults.has('request-id-per-connection')) {
      /* FAULT request-id-per-connection: the request id is minted once per keep-alive connection and reused by every request on it */
      requestId = perConnection.get(req.socket) ?? requestId;
      perConnection.set(req.socket, requestId);
    }
    res.on('error', ignoreError);
    const body = noBody(req);
    // A bodiless request is answered in this turn: no promise, no async function on the read path.
    if (body !== null) answer(ctx, req, res, requestId, body);
    else void readBody(req).then((read) => {
      if (read !== null) answer(ctx, req, res, requestId, read); // null: the client went away, nobody to answer
    });
  };
}

/** Dispatches and sends the reply, or the error envelope of whatever was thrown or rejected. */
function answer(ctx: AppContext, req: IncomingMessage, res: ServerResponse, requestId: string, body: RequestBody): void {
  try {
    const reply = dispatch(ctx, req, body);
    if (reply instanceof Promise) {
      reply.then((r) => sendReply(res, r, requestId)).catch((err: unknown) => sendError(ctx, res, err, requestId));
    } else {
      sendReply(res, reply, requestId);
    }
  } catch (err) {
    sendError(ctx, res, err, requestId);
  }
}

function sendReply(res: ServerResponse, reply: Reply, requestId: string): void {
  if (reply.headers === undefined) sendBytesWithRequestId(res, reply.status, reply.body, requestId);
  else sendBytes(res, reply.status, reply.body, { ...reply.headers, 'Request-Id': requestId });
}

function sendError(ctx: AppContext, res: ServerResponse, err: unknown, requestId: string): void {
  let apiError: ApiError;
  if (err instanceof ApiError) {
    apiError = err;
  } else {
    ctx.onError(err);
    apiError = internalError();
  }
  if (ctx.faults.has('error-envelope-without-request-id')) {
    /* FAULT error-envelope-without-request-id: request_id goes into the Request-Id header only, not into the envelope */
    const { request_id: _omitted, ...error } = errorEnvelope(apiError, requestId).error;
    sendJson(res, apiError.status, { error }, { ...apiError.headers, 'Request-Id': requestId });
    return;
  }
  sendJson(res, apiError.status, errorEnvelope(apiError, requestId), { ...apiError.headers, 'Request-Id': requestId });
}

/** The reply to one request: synchronous unless the operation is (createPayment); errors are thrown. */
export function dispatch(ctx: AppContext, req: IncomingMessage, body: RequestBody): Reply | Promise<Reply> {
  const method = req.method ?? 'GET';
  const { path, query } = splitTarget(req.url);
  const authorization = req.headers.authorization;
  if (isControlPath(path)) return handleControl(ctx, method, path, authorization, body);

  const match = matchRoute(ctx, path);
  if (match === null) {
    if (ctx.faults.has('unknown-route-answers-payment-not-found')) {
      // FAULT unknown-route-answers-payment-not-found: the catch-all 404 reuses the resource code.
      throw new ApiError('payment_not_found');
    }
    if (ctx.faults.has('unknown-route-plain-text')) {
      /* FAULT unknown-route-plain-text: the catch-all 404 goes out with the framework's default Content-Type text/plain */
      throw new ApiError('not_found', { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
    }
    throw new ApiError('not_found');
  }
  if (match.route.testHelper) rejectLiveKeyOnTestHelpers(ctx, authorization);
  let binding = match.route.methods[method];
  if (binding === undefined && method === 'HEAD' && ctx.decisions.head === 'as-get') binding = match.route.methods['GET'];
  if (binding === undefined && ctx.faults.has('delete-payment-cancels') && method === 'DELETE' && match.route.pattern === '/v1/payments/{id}') {
    // FAULT delete-payment-cancels: DELETE /payments/{id} is an undocumented alias of cancelPayment.
    binding = { operation: 'cancelPayment', scope: 'payments:write' };
  }
  if (binding === undefined) {
    if (ctx.faults.has('wrong-method-answers-404')) {
      // FAULT wrong-method-answers-404: the method is part of route matching, so a wrong one is "no route".
      throw new ApiError('not_found');
    }
    if (ctx.faults.has('no-allow-header-on-405')) {
      // FAULT no-allow-header-on-405: the 405 carries no Allow header.
      throw new ApiError('method_not_allowed');
    }
    throw new ApiError('method_not_allowed', { headers: { Allow: allowHeader(match.route.methods, ctx.decisions.head === 'as-get') } });
  }
  const key = authenticate(ctx.state.keys, authorization, ctx.faults);
  if (ctx.faults.has('write-scope-checked-after-operation') && binding.scope === 'payments:write') {
    // FAULT write-scope-checked-after-operation: the operation runs first, the scope is checked on its way out.
    ctx.state.limiter.take(key.key, key.rateLimit, ctx.now());
    const allowed = key.scopes.has(binding.scope);
    const scope = binding.scope;
    // A synchronous throw of the operation still goes out as is (as it did from an awaited call).
    return Promise.resolve(runOperation(ctx, binding.operation, key, match.params['id'] ?? '', req, body, query))
      .catch((err: unknown) => {
        if (allowed) throw err;
        return null;
      })
      .then((reply) => {
        requireScope(key, scope, ctx.faults);
        return reply!;
      });
  }
  if (ctx.decisions.scopeVsRateLimit === 'rate-limit-first') {
    ctx.state.limiter.take(key.key, key.rateLimit, ctx.now(), ctx.faults, key.businessId, ctx.decisions.retryAfter);
    requireScope(key, binding.scope, ctx.faults);
    return runOperation(ctx, binding.operation, key, match.params['id'] ?? '', req, body, query);
  }
  requireScope(key, binding.scope, ctx.faults);
  if (ctx.faults.has('cancel-requires-read-scope') && binding.operation === 'cancelPayment') {
    // FAULT cancel-requires-read-scope: cancel reuses getPayment's lookup and its payments:read scope.
    requireScope(key, 'payments:read');
  }
  ctx.state.limiter.take(key.key, key.rateLimit, ctx.now(), ctx.faults, key.businessId, ctx.decisions.retryAfter);
  return runOperation(ctx, binding.operation, key, match.params['id'] ?? '', req, body, query);
}

/** The route of a /v1 path, matched exactly (router.ts). */
function matchRoute(ctx: AppContext, path: string): ReturnType<typeof matchPath<(typeof ROUTES)[number]>> {
  let target = path;
  if (ctx.decisions.trailingSlash === 'same-route' && target.length > 1 && target.endsWith('/')) target = target.slice(0, -1);
  if (ctx.faults.has('version-prefix-case-insensitive')) {
    // FAULT version-prefix-case-insensitive: the version segment is compared case-insensitively.
    target = target.replace(/^\/v1(?=\/|$)/i, '/v1');
  }
  if (ctx.faults.has('any-version-prefix-served')) {
    // FAULT any-version-prefix-served: every /v<N> prefix is routed to the v1 handlers.
    target = target.replace(/^\/v\d+(?=\/|$)/, '/v1');
  }
  const match = matchPath(ROUTES, target);
  if (match === null && ctx.faults.has('route-prefix-match')) {
    // FAULT route-prefix-match: the longest known route that is a prefix of the path serves it.
    const segments = target.split('/');
    for (let n = segments.length - 1; n > 2; n -= 1) {
      const shorter = matchPath(ROUTES, segments.slice(0, n).join('/'));
      if (shorter !== null) return shorter;
    }
  }
  return match;
}

/** Rule 6: "A live secret key calling a /test_helpers path answers 404, as if the route did not exist." */
export function rejectLiveKeyOnTestHelpers(ctx: AppContext, authorization: string | undefined): void {
  const key = findActiveKey(ctx.state.keys, authorization);
  if (key !== null && key.env === 'live' && ctx.faults.has('live-key-test-helpers-payment-not-found')) {
    /* FAULT live-key-test-helpers-payment-not-found: the Live key is refused with the resource's 404 payment_not_found, revealing the route exists */
    throw new ApiError('payment_not_found', { param: 'id' });
  }
  if (key !== null && key.env === 'live') throw new ApiError('not_found');
}

function runOperation(
  ctx: AppContext,
  operation: OperationId,
  key: ApiKeyRecord,
  id: string,
  req: IncomingMessage,
  body: RequestBody,
  query: string,
): Reply | Promise<Reply> {
  const claimed = req.headers['x-business-id'];
  if (ctx.faults.has('x-business-id-honoured') && typeof claimed === 'string') {
    /* FAULT x-business-id-honoured: a legacy X-Business-ID header overrides the key's business */
    key = { ...key, businessId: claimed };
  }
  switch (operation) {
    case 'createPayment':
      return createPayment(ctx, key, req.headers, body);
    case 'listPayments':
      return listPayments(ctx, key, query);
    case 'getPayment':
      return getPayment(ctx, key, id);
    case 'cancelPayment':
      return cancelPayment(ctx, key, id);
    case 'simulatePaymentSucceeded':
      return simulatePaymentSucceeded(ctx, key, id);
    case 'simulatePaymentCancelled':
      return simulatePaymentCancelled(ctx, key, id);
  }
}

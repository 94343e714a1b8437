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
 *
 * Each of these is a small named step; the planted faults of this file are overrides named after
 * the defect, in the `faulty` table of the step they break (references/service/steps.ts says how).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate, findActiveKey, requireScope } from './auth.ts';
import type { AppContext } from './context.ts';
import { handleControl, isControlPath } from './control.ts';
import { createPayment, holdIdempotencyKey } from './create-payment.ts';
import { ERROR_ANSWER } from './error-answers.ts';
import { OPERATION_ANSWER, OPERATION_SCOPE } from './operation-contract.ts';
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
import { allowHeader, matchPath, ROUTES, type MethodBinding, type OperationId, type RouteDefinition, type RouteMatch } from './router.ts';
import { checkOf, type PlantingStep, type Step } from './steps.ts';
import type { ApiKeyRecord } from './types.ts';

// One listener for every response (an answer the client no longer reads is nobody's concern).
const ignoreError = (): void => undefined;

export function createRequestHandler(ctx: AppContext): (req: IncomingMessage, res: ServerResponse) => void {
  const perConnection = new WeakMap<object, string>();
  const requestIdOf = checkOf(REQUEST_ID, ctx.faults);
  return (req, res) => {
    const requestId = requestIdOf({ connection: req.socket, perConnection });
    res.on('error', ignoreError);
    const body = noBody(req);
    // A bodiless request is answered in this turn: no promise, no async function on the read path.
    if (body !== null) answer(ctx, req, res, requestId, body);
    else void readBody(req).then((read) => {
      if (read !== null) answer(ctx, req, res, requestId, read); // null: the client went away, nobody to answer
    });
  };
}

interface RequestIdInput {
  readonly connection: object;
  /** The ids already given on each connection (for the fault that reuses them). */
  readonly perConnection: WeakMap<object, string>;
}

const REQUEST_ID: Step<RequestIdInput, string> = {
  name: 'a fresh request id per request',
  check: () => newRequestId(),
  faulty: {
    'request-id-per-connection': {
      does: 'The request id is minted once per keep-alive connection, so every request on one connection quotes the same request_id.',
      breaks: ['RESP-REQUEST-ID-UNIQUE'],
      violates: ['errors.request-id-quoted'],
      plant: (input, next) => {
        const requestId = input.perConnection.get(input.connection) ?? next(input);
        input.perConnection.set(input.connection, requestId);
        return requestId;
      },
    },
  },
};

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
  const row = checkOf(ERROR_ANSWER, ctx.faults)({ code: apiError.code, status: apiError.status });
  const envelope = checkOf(ENVELOPE, ctx.faults)({ apiError, requestId });
  const body = row.code === apiError.code ? envelope : { error: { ...envelope.error, code: row.code } };
  sendJson(res, row.status, body, { ...apiError.headers, 'Request-Id': requestId });
}

const ENVELOPE: Step<{ apiError: ApiError; requestId: string }, { error: object }> = {
  name: 'the error envelope, with the request id',
  check: ({ apiError, requestId }) => errorEnvelope(apiError, requestId),
  faulty: {
    'error-envelope-flat': {
      does: 'Errors are answered flat ({ "code", "message", "request_id" } at the top level, an older envelope), not inside { ' +
        '"error": … }.',
      breaks: ['RESP-ERROR-ENVELOPE'],
      violates: ['error.shape', 'errors.shape'],
      // The step's type is the spec's envelope; the fault answers another shape on purpose.
      plant: ({ apiError, requestId }) => errorEnvelope(apiError, requestId).error as unknown as { error: object },
    },
    'error-param-json-pointer': {
      does: 'param names the offending parameter as a JSON pointer ("/amount"), not by its name ("amount").',
      breaks: ['CREATE-AMOUNT-INVALID'],
      violates: ['error.param-optional#names-parameter'],
      plant: ({ apiError, requestId }) => {
        const { error } = errorEnvelope(apiError, requestId);
        return { error: error.param === undefined ? error : { ...error, param: `/${error.param}` } };
      },
    },
    'error-envelope-without-request-id': {
      does: 'Error answers leave request_id out of the envelope (it only goes into the Request-Id header).',
      breaks: ['RESP-ERROR-ENVELOPE'],
      violates: ['error.fields-always-present'],
      plant: ({ apiError, requestId }) => {
        const { request_id: _omitted, ...error } = errorEnvelope(apiError, requestId).error;
        return { error };
      },
    },
  },
};

/** The reply to one request: synchronous unless the operation is (createPayment); errors are thrown. */
export function dispatch(ctx: AppContext, req: IncomingMessage, body: RequestBody): Reply | Promise<Reply> {
  const method = req.method ?? 'GET';
  const { path, query } = splitTarget(req.url);
  const authorization = req.headers.authorization;
  if (isControlPath(path)) return handleControl(ctx, method, path, authorization, body);

  const match = matchRoute(ctx, path);
  if (match === null) throw checkOf(NO_ROUTE, ctx.faults)();
  if (match.route.testHelper) rejectLiveKeyOnTestHelpers(ctx, authorization);
  const binding = checkOf(BINDING, ctx.faults)({ ctx, route: match.route, method });
  if (binding === undefined) throw checkOf(WRONG_METHOD, ctx.faults)({ ctx, route: match.route });
  const key = authenticate(ctx.state.keys, authorization, ctx.faults);
  // Plain data, no closure: a function made per request is also named per request under tsx
  // (esbuild's keepNames: an Object.defineProperty each), half of this file's cost on the read path.
  return checkOf(GUARDS, ctx.faults)({ ctx, key, binding, request: { id: match.params['id'] ?? '', req, body, query } });
}

type Match = RouteMatch<RouteDefinition>;

/** What a path no route matches answers. */
const NO_ROUTE: Step<void, ApiError> = {
  name: 'no route: 404 not_found',
  check: () => new ApiError('not_found'),
  faulty: {
    'unknown-route-answers-payment-not-found': {
      does: 'The catch-all 404 reuses the resource code: an unknown route answers 404 payment_not_found instead of not_found.',
      breaks: ['ROUTE-UNKNOWN-404', 'VERS-UNKNOWN-VERSION-404'],
      violates: ['rules.unknown-route-wrong-method#unknown-route'],
      plant: () => new ApiError('payment_not_found'),
    },
    'unknown-route-plain-text': {
      does: 'The 404 not_found of an unknown route is sent with Content-Type text/plain (the framework\'s default), although the body ' +
        'is the JSON envelope.',
      breaks: ['RESP-JSON-CONTENT-TYPE'],
      violates: ['overview.json-over-https#json'],
      plant: () => new ApiError('not_found', { headers: { 'Content-Type': 'text/plain; charset=utf-8' } }),
    },
  },
};

interface MethodInput {
  readonly ctx: AppContext;
  readonly route: RouteDefinition;
  readonly method: string;
}

/** The operation a method of the route binds to, if any (headMethod decision 'as-get': HEAD is GET). */
const BINDING: Step<MethodInput, MethodBinding | undefined> = {
  name: 'the operation of the method on the route',
  check: ({ ctx, route, method }) => route.methods[method] ?? (method === 'HEAD' && ctx.decisions.head === 'as-get' ? route.methods['GET'] : undefined),
  faulty: {
    'delete-payment-cancels': {
      does: 'DELETE /payments/{id} is wired to cancelPayment (an undocumented alias): it cancels the Payment instead of answering 405.',
      breaks: ['ROUTE-WRONG-METHOD-405'],
      violates: ['rules.unknown-route-wrong-method#wrong-method'],
      plant: (input, next) =>
        next(input) ?? (input.method === 'DELETE' && input.route.pattern === '/v1/payments/{id}' ? { operation: 'cancelPayment', scope: 'payments:write' } : undefined),
    },
  },
};

/** What a method the route does not have answers. */
const WRONG_METHOD: Step<{ ctx: AppContext; route: RouteDefinition }, ApiError> = {
  name: 'a method the route lacks: 405 with Allow',
  check: ({ ctx, route }) => new ApiError('method_not_allowed', { headers: { Allow: allowHeader(route.methods, ctx.decisions.head === 'as-get') } }),
  faulty: {
    'wrong-method-answers-404': {
      does: 'The method is part of route matching: a known route called with a method it does not bind answers 404 not_found instead ' +
        'of 405.',
      breaks: ['ROUTE-WRONG-METHOD-405'],
      violates: ['rules.unknown-route-wrong-method#wrong-method'],
      plant: () => new ApiError('not_found'),
    },
    'no-allow-header-on-405': {
      does: '405 method_not_allowed answers carry no Allow header.',
      breaks: ['ROUTE-ALLOW-HEADER'],
      violates: ['rules.unknown-route-wrong-method#allow-header'],
      plant: () => new ApiError('method_not_allowed'),
    },
  },
};

interface Guarded {
  readonly ctx: AppContext;
  readonly key: ApiKeyRecord;
  readonly binding: MethodBinding;
  /** What the operation reads of the request (`run` runs it). */
  readonly request: OperationRequest;
}

/** The operation itself, for the authenticated key. */
function run({ ctx, key, binding, request }: Guarded): Reply | Promise<Reply> {
  return runOperation(ctx, binding.operation, key, request);
}

/** One request counted against the key's rate limit (throws 429 past it). */
function takeRateLimit(ctx: AppContext, key: ApiKeyRecord): void {
  ctx.state.limiter.take(key.key, key.rateLimit, ctx.now(), ctx.faults, key.businessId, ctx.decisions.retryAfter);
}

/** Scope and rate limit, in the variant's order (scopeVsRateLimit decision), then the operation. */
const GUARDS: Step<Guarded, Reply | Promise<Reply>> = {
  name: 'scope and rate limit before the operation',
  check: (guarded) => {
    const { ctx, key } = guarded;
    const rateLimitFirst = ctx.decisions.scopeVsRateLimit === 'rate-limit-first';
    if (rateLimitFirst) takeRateLimit(ctx, key);
    checkOf(SCOPE, ctx.faults)(guarded);
    if (!rateLimitFirst) takeRateLimit(ctx, key);
    return run(guarded);
  },
  faulty: {
    'throttled-create-holds-key': {
      does: 'A create\'s Idempotency-Key is marked in progress before the rate limit is taken, and a 429 never releases it: the ' +
        'retry the client guidance prescribes (same key and body, after Retry-After) is refused 409 idempotency_in_progress.',
      breaks: ['LIMIT-THROTTLED-CREATE-RETRY', 'MODEL-SEQUENCES'],
      violates: ['errors.retry.create#throttled-retry-served'],
      plant: (guarded, next) => {
        try {
          return next(guarded);
        } catch (err) {
          const throttled = err instanceof ApiError && err.code === 'rate_limit_exceeded' && guarded.binding.operation === 'createPayment';
          if (throttled) holdIdempotencyKey(guarded.ctx, guarded.key, guarded.request.req.headers, guarded.request.body);
          throw err;
        }
      },
    },
    'write-scope-checked-after-operation': {
      does: 'payments:write is checked after the operation ran: a read-only key gets 403 insufficient_scope but the Payment is ' +
        'created, cancelled or completed all the same.',
      breaks: ['AUTH-WRITE-SCOPE-REQUIRED'],
      violates: ['auth.scopes#write'],
      plant: (guarded, next) => (guarded.binding.scope === 'payments:write' ? scopeAfterOperation(guarded) : next(guarded)),
    },
  },
};

function scopeAfterOperation(guarded: Guarded): Promise<Reply> {
  const { ctx, key, binding } = guarded;
  ctx.state.limiter.take(key.key, key.rateLimit, ctx.now());
  const allowed = key.scopes.has(binding.scope);
  // A synchronous throw of the operation still goes out as is (as it did from an awaited call).
  return Promise.resolve(run(guarded))
    .catch((err: unknown) => {
      if (allowed) throw err;
      return null;
    })
    .then((reply) => {
      requireScope(key, binding.scope, ctx.faults);
      return reply!;
    });
}

const SCOPE: Step<Guarded, void> = {
  name: "the key holds the operation's scope",
  check: ({ ctx, key, binding }) => {
    const scope = checkOf(OPERATION_SCOPE, ctx.faults)(binding);
    if (scope !== null) requireScope(key, scope, ctx.faults);
  },
  faulty: {
    'cancel-requires-read-scope': {
      does: 'cancelPayment also demands payments:read (it reuses the getPayment lookup with its scope): a write-only key gets 403 on ' +
        'cancel.',
      breaks: ['AUTH-SCOPE-SUFFICIENT'],
      violates: ['auth.scopes#sufficient'],
      plant: (guarded, next) => {
        next(guarded);
        if (guarded.binding.operation === 'cancelPayment') requireScope(guarded.key, 'payments:read');
      },
    },
  },
};

/** The route of a /v1 path, matched exactly (router.ts). */
function matchRoute(ctx: AppContext, path: string): Match | null {
  let target = path;
  if (ctx.decisions.trailingSlash === 'same-route' && target.length > 1 && target.endsWith('/')) target = target.slice(0, -1);
  return checkOf(MATCH, ctx.faults)(target);
}

const MATCH: Step<string, Match | null> = {
  name: 'the route whose pattern matches the whole path, /v1 exactly',
  check: (target) => matchPath(ROUTES, target),
  faulty: {
    'version-prefix-case-insensitive': {
      does: 'The version prefix is matched case-insensitively: /V1/payments is served as /v1/payments.',
      breaks: ['VERS-UNKNOWN-VERSION-404'],
      violates: ['versioning.path-prefix'],
      plant: (target, next) => next(target.replace(/^\/v1(?=\/|$)/i, '/v1')),
    },
    'any-version-prefix-served': {
      does: 'Any /v<N> prefix is routed to the v1 handlers: /v2/payments creates and reads Payments.',
      breaks: ['VERS-UNKNOWN-VERSION-404'],
      violates: ['versioning.path-prefix', 'overview.paths-relative', 'endpoints.paths-relative'],
      plant: (target, next) => next(target.replace(/^\/v\d+(?=\/|$)/, '/v1')),
    },
    'offline-payments-alias-mounted': {
      does: 'The dashboard\'s aliases /v1/offline_payments and /v1/manual_payments are left on the public router, served as the ' +
        'Payments collection (listed and created) instead of 404.',
      breaks: ['ROUTE-UNKNOWN-404'],
      violates: ['overview.offline-payments-404', 'rules.unknown-route-wrong-method#unknown-route'],
      plant: (target, next) => next(target.replace(/^\/v1\/(?:offline|manual)_payments(?=\/|$)/, '/v1/payments')),
    },
    'route-prefix-match': {
      does: 'Routes are matched by prefix: a path with extra segments after a known route (`/payments/{id}/refund`, ' +
        '`/payments/{id}/cancel/x`) is served by that route.',
      breaks: ['ROUTE-UNKNOWN-404'],
      violates: ['rules.unknown-route-wrong-method#unknown-route'],
      plant: (target, next) => next(target) ?? longestPrefixRoute(target),
    },
  },
};

function longestPrefixRoute(target: string): Match | null {
  const segments = target.split('/');
  for (let n = segments.length - 1; n > 2; n -= 1) {
    const shorter = matchPath(ROUTES, segments.slice(0, n).join('/'));
    if (shorter !== null) return shorter;
  }
  return null;
}

/** Rule 6: "A live secret key calling a /test_helpers path answers 404, as if the route did not exist." */
export function rejectLiveKeyOnTestHelpers(ctx: AppContext, authorization: string | undefined): void {
  if (checkOf(TEST_KEYS_ONLY, ctx.faults)(findActiveKey(ctx.state.keys, authorization))) throw checkOf(LIVE_KEY_ON_TEST_HELPER, ctx.faults)();
}

/** Whether the key is refused on /test_helpers: an active Live key is (the only guard; the operations rely on it). */
const TEST_KEYS_ONLY: Step<ApiKeyRecord | null, boolean> = {
  name: '/test_helpers operations work for Test secret keys only',
  check: (key) => key !== null && key.env === 'live',
  faulty: {
    'test-helpers-serve-live-keys': {
      does: 'The /test_helpers routes are mounted without their Test-only guard: a Live key completes and cancels Live Payments ' +
        'through them.',
      breaks: ['ISO-LIVE-KEY-TEST-HELPERS'],
      violates: ['auth.test-helpers-test-keys-only', 'rules.live-key-test-helpers-404'],
      plant: () => false,
    },
  },
};

const LIVE_KEY_ON_TEST_HELPER: Step<void, ApiError> = {
  name: 'a Live key on /test_helpers: 404 not_found, as if the route did not exist',
  check: () => new ApiError('not_found'),
  faulty: {
    'live-key-test-helpers-payment-not-found': {
      does: 'A Live key on /test_helpers is refused with 404 payment_not_found (the route shows it exists) instead of not_found.',
      breaks: ['ISO-LIVE-KEY-TEST-HELPERS'],
      violates: ['rules.live-key-test-helpers-404'],
      plant: () => new ApiError('payment_not_found', { param: 'id' }),
    },
  },
};

/** What an operation reads of its request: the path's id, the request, its body and query. */
interface OperationRequest {
  readonly id: string;
  readonly req: IncomingMessage;
  readonly body: RequestBody;
  readonly query: string;
}

function runOperation(ctx: AppContext, operation: OperationId, key: ApiKeyRecord, request: OperationRequest): Reply | Promise<Reply> {
  key = checkOf(ACTING_KEY, ctx.faults)({ key, req: request.req });
  const reply = operationReply(ctx, operation, key, request);
  const answer = checkOf(OPERATION_ANSWER, ctx.faults);
  // Without an answer fault switched on the step is its check, which passes the reply on.
  if (answer === OPERATION_ANSWER.check) return reply;
  return reply instanceof Promise ? reply.then((r) => answer({ operation, reply: r })) : answer({ operation, reply });
}

function operationReply(ctx: AppContext, operation: OperationId, key: ApiKeyRecord, { id, req, body, query }: OperationRequest): Reply | Promise<Reply> {
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

/** The key the operation acts for: the authenticated one, whatever the request claims. */
const ACTING_KEY: Step<{ key: ApiKeyRecord; req: IncomingMessage }, ApiKeyRecord> = {
  name: "the operation acts for the key's business",
  check: ({ key }) => key,
  faulty: {
    'x-environment-honoured': {
      does: 'An X-Environment header (live or test) overrides the environment of the API key: a Test key with X-Environment: live ' +
        'creates and reads Live Payments.',
      breaks: ['ISO-KEY-ALONE'],
      violates: ['auth.key-determines-business-and-environment#environment'],
      plant: (input, next) => {
        const claimed = input.req.headers['x-environment'];
        return claimed === 'live' || claimed === 'test' ? { ...next(input), env: claimed } : next(input);
      },
    },
    'x-business-id-honoured': {
      does: 'A legacy X-Business-ID header overrides the business of the API key.',
      breaks: ['ISO-KEY-ALONE'],
      violates: ['auth.no-business-header', 'auth.key-determines-business-and-environment#business'],
      plant: (input, next) => {
        const claimed = input.req.headers['x-business-id'];
        return typeof claimed === 'string' ? { ...next(input), businessId: claimed } : next(input);
      },
    },
  },
};

/** The steps of this file that plant faults (references/service/fault-registry.ts reads their declarations). */
export const FAULTY_STEPS: readonly PlantingStep[] = [REQUEST_ID, ENVELOPE, NO_ROUTE, BINDING, WRONG_METHOD, GUARDS, SCOPE, MATCH, LIVE_KEY_ON_TEST_HELPER, TEST_KEYS_ONLY, ACTING_KEY];

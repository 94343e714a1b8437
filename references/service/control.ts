/**
 * The control API at {base_url}/_control (docs/profile.md, "The control capability"):
 * what v1 cannot trigger. Every call carries `Authorization: Bearer <control.token>`.
 *
 * | call                              | answers                                             |
 * | POST /_control/payments/{id}/reverse | 200 Payment; 404 payment_not_found; 409 invalid_transition |
 * | POST /_control/endpoints/test     | 202; 404 not_found (unknown path); 400 invalid_request (Live or disabled endpoint, bad body) |
 *
 * Order of checks: route (404/405), token (401), then the call.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AppContext } from './context.ts';
import { ApiError } from './errors.ts';
import type { RequestBody } from './http-io.ts';
import { newObjectId } from './ids.ts';
import { reversePayment } from './payment-actions.ts';
import { jsonReply, type Reply } from './reply.ts';
import { allowHeader, matchPath } from './router.ts';
import { checkOf, type PlantingStep, type Step } from './steps.ts';
import { formatTimestamp } from './time.ts';
import type { WebhookEndpoint } from './types.ts';
import { emitEventTo } from './webhooks/emit.ts';

export const CONTROL_PREFIX = '/_control';

type ControlOperation = 'reversePayment' | 'sendTestEvent';

interface ControlRoute {
  pattern: string;
  methods: Readonly<Record<string, ControlOperation>>;
}

const CONTROL_ROUTES: readonly ControlRoute[] = [
  { pattern: '/_control/payments/{id}/reverse', methods: { POST: 'reversePayment' } },
  { pattern: '/_control/endpoints/test', methods: { POST: 'sendTestEvent' } },
];

export function isControlPath(path: string): boolean {
  return path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`);
}

export function handleControl(
  ctx: AppContext,
  method: string,
  path: string,
  authorization: string | undefined,
  body: RequestBody,
): Reply {
  const match = matchPath(CONTROL_ROUTES, path);
  if (match === null) throw new ApiError('not_found');
  const operation = match.route.methods[method];
  if (operation === undefined) {
    throw new ApiError('method_not_allowed', { headers: { Allow: allowHeader(match.route.methods) } });
  }
  checkControlToken(ctx.state.controlToken, authorization);
  switch (operation) {
    case 'reversePayment':
      return reversePayment(ctx, match.params['id'] ?? '');
    case 'sendTestEvent':
      return sendTestEvent(ctx, body);
  }
}

/** Bearer <control.token>, compared in constant time; anything else → 401. */
export function checkControlToken(token: string, authorization: string | undefined): void {
  const m = /^Bearer +(\S+)$/i.exec(authorization?.trim() ?? '');
  const given = m?.[1];
  if (given === undefined || !sameSecret(given, token)) {
    throw new ApiError('invalid_api_key', {
      message: 'The control token is missing or wrong.',
      headers: { 'WWW-Authenticate': 'Bearer' },
    });
  }
}

function sameSecret(a: string, b: string): boolean {
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db);
}

/** A test event goes to a Test endpoint only (the planted fault is an override: references/service/steps.ts). */
const TEST_ENDPOINT: Step<WebhookEndpoint, void> = {
  name: 'test events go to Test endpoints only',
  check: (endpoint) => {
    if (endpoint.env !== 'test') throw new ApiError('invalid_request', { param: 'path', message: 'Test events go to Test endpoints only.' });
  },
  faulty: {
    'endpoint-test-sent-to-live-endpoints': {
      does: 'Send test event accepts a Live endpoint (202) and delivers endpoint.test to it.',
      breaks: ['HOOK-ENDPOINT-TEST'],
      violates: ['events.type.endpoint.test'],
      plant: () => undefined,
    },
  },
};

/** The dashboard's "Send test event": one endpoint.test event to one Test endpoint of the seed. */
function sendTestEvent(ctx: AppContext, body: RequestBody): Reply {
  const path = readPath(body);
  const endpoint = ctx.state.endpoints.find((e) => e.path === path);
  if (endpoint === undefined) throw new ApiError('not_found', { param: 'path', message: `No webhook endpoint ${path}.` });
  checkOf(TEST_ENDPOINT, ctx.faults)(endpoint);
  if (!endpoint.enabled) {
    throw new ApiError('invalid_request', { param: 'path', message: 'The endpoint is disabled.' });
  }
  const at = ctx.now();
  const object = {
    id: newObjectId('tst'),
    object: 'endpoint_test',
    endpoint: endpoint.path,
    message: 'Test event sent from the dashboard. It is synthetic and carries no payment.',
    created_at: formatTimestamp(at, ctx.decisions.timestampOffset),
  };
  const event = emitEventTo(ctx, endpoint, 'endpoint.test', object, at);
  const named = ctx.decisions.testEventAnswer === 'names-event' ? { event_id: event.id } : {};
  return jsonReply(202, { object: 'endpoint_test_request', ...named, endpoint: endpoint.path });
}

function readPath(body: RequestBody): string {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body.bytes));
  } catch {
    throw new ApiError('invalid_request', { message: 'The body must be JSON: {"path": "/hooks/..."}.' });
  }
  const path = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)['path'] : undefined;
  if (typeof path !== 'string') throw new ApiError('invalid_request', { param: 'path', message: 'path must be a string.' });
  return path;
}

/** The steps of this file that plant faults (references/service/fault-registry.ts reads their declarations). */
export const FAULTY_STEPS: readonly PlantingStep[] = [TEST_ENDPOINT];

/**
 * What is a route (spec, Endpoints › Rules, Rule 8: "Unknown routes answer 404 not_found"): paths
 * no operation's template matches, and (OBSERVE) the borderline forms of the known ones.
 */
import fc from 'fast-check';
import { ruleTest } from '../../service/harness/worker/rule-test.ts';
import { TransportError, type ApiResponse, type RequestOptions } from '../../core/client.ts';
import { expectError } from '../../service/harness/worker/expect.ts';
import { createBody, expectUntouched, newSubject, outcome } from '../_shared/valid-request.ts';
import { unknownRoutePath } from '../../service/generators/unknown-route-path.ts';
import { METHODS, ROUTES, routePath } from '../../service/generators/routes.ts';
import { UNKNOWN_ROUTE_CASES } from '../../service/generators/cases/routes-versions.ts';
import { share } from '../../service/harness/worker/depth.ts';
import { batched } from '../../service/harness/worker/batch.ts';

type Probe = (label: string, req: RequestOptions) => Promise<ApiResponse | undefined>;

/** ROUTE-EDGE-FORMS' reads of borderline forms: no state can change. */
async function probeReads(probe: Probe, id: string): Promise<void> {
  await probe('GET /v1/payments/ (trailing slash)', { method: 'GET', path: '/v1/payments/' });
  await probe('GET /v1/payments/{id}/ (trailing slash)', { method: 'GET', path: `/v1/payments/${id}/` });
  await probe('GET /v1//payments (doubled slash)', { method: 'GET', path: '/v1//payments' });
  await probe('GET /v1/payments//{id} (doubled slash)', { method: 'GET', path: `/v1/payments//${id}` });
  await probe('GET //v1/payments (leading doubled slash)', { method: 'GET', path: '//v1/payments' });
  await probe('GET /v1/./payments (dot segment)', { method: 'GET', path: '/v1/./payments' });
  await probe('GET /v1/refunds/../payments (dot-dot segment)', { method: 'GET', path: '/v1/refunds/../payments' });
  await probe('GET /v1/Payments (letter case)', { method: 'GET', path: '/v1/Payments' });
  await probe('GET /v1/PAYMENTS/{id} (letter case)', { method: 'GET', path: `/v1/PAYMENTS/${id}` });
  await probe('GET /v1/%70ayments (percent-encoded literal)', { method: 'GET', path: '/v1/%70ayments' });
  await probe('GET /v1/payments/{fully percent-encoded id}', { method: 'GET', path: `/v1/payments/${pctAll(id)}` });
  await probe('GET /v1/payments/{id}%2Fcancel (encoded slash)', { method: 'GET', path: `/v1/payments/${id}%2Fcancel` });
  await probe('GET /v1/payments? (empty query)', { method: 'GET', path: '/v1/payments?' });
  await probe('GET /v1/payments#frag (fragment sent)', { method: 'GET', path: '/v1/payments#frag', outsideHttp: 'a fragment on the wire (RFC 9112 request-targets carry none)' });
  await probe('GET /v1/payments/{id};x=1 (matrix parameter)', { method: 'GET', path: `/v1/payments/${id};x=1` });

}

/** HEAD and OPTIONS on every route and on an unknown one, and a CORS preflight. */
async function probeHeadAndOptions(probe: Probe, id: string): Promise<void> {
  for (const route of ROUTES) {
    await probe(`HEAD ${route.template}`, { method: 'HEAD', path: routePath(route, id) });
    await probe(`OPTIONS ${route.template}`, { method: 'OPTIONS', path: routePath(route, id) });
  }
  await probe('HEAD /v1/refunds (unknown route)', { method: 'HEAD', path: '/v1/refunds' });
  await probe('OPTIONS /v1/refunds (unknown route)', { method: 'OPTIONS', path: '/v1/refunds' });
  await probe('OPTIONS /v1/payments as a CORS preflight (Origin, Access-Control-Request-Method, no key)', { method: 'OPTIONS', path: '/v1/payments', key: null, headers: { 'access-control-request-method': 'POST', origin: 'https://example.com' } });

}

/** Methods the API never binds, and wrong methods on an unknown Payment. */
async function probeOtherMethods(probe: Probe): Promise<void> {
  await probe('PROPFIND /v1/payments (unregistered method)', { method: 'PROPFIND', path: '/v1/payments', outsideHttp: 'a WebDAV method the API never binds' });
  await probe('TRACE /v1/payments', { method: 'TRACE', path: '/v1/payments', outsideHttp: 'TRACE, a method the API never binds and front ends commonly refuse' });
  await probe('PUT /v1/payments/{unknown id} (wrong method, unknown Payment)', { method: 'PUT', path: '/v1/payments/pay_conformance_missing_0000' });
  await probe('DELETE /v1/payments/{unknown id} (wrong method, unknown Payment)', { method: 'DELETE', path: '/v1/payments/pay_conformance_missing_0000' });

}

/**
 * esid: Endpoints › Rules, Rule 8 — "Unknown routes answer 404 not_found."
 * A path under /v1 that no operation's template matches (another resource, a sub-resource or a
 * helper that does not exist, a segment too many or too few) answers 404 not_found to any method,
 * with a valid key (Test, or Live), with or without a body, and creates nothing.
 */
ruleTest('ROUTE-UNKNOWN-404', async (t) => {
  const subject = await newSubject(t, 'unkroute');
  const paths = unknownRoutePath(subject.paymentId);
  // A fixed handful first, whatever the seed.
  await t.cases(UNKNOWN_ROUTE_CASES, async ({ method, path: template }) => {
    const path = template.replace('{id}', subject.paymentId);
    const res = await t.client.request({ method, path, key: t.keys.test, ...(method === 'POST' ? { json: createBody(t, subject) } : {}) });
    expectError(res, 404, ['not_found'], 'an unknown route');
  });
  const keys = [t.keys.test, ...(t.keys.live ? [t.keys.live] : [])];
  const body = fc.constantFrom<'none' | 'create' | 'empty'>('none', 'create', 'empty');
  await batched(t, fc.record({ path: paths, method: fc.constantFrom(...METHODS), key: fc.constantFrom(...keys), body }), async ({ path, method, key, body }) => {
    const res = await t.client.request({ method, path, key, ...(body === 'create' ? { json: createBody(t, subject) } : body === 'empty' ? { json: {} } : {}) });
    expectError(res, 404, ['not_found'], 'an unknown route');
  }, share(t.runs, 0.6));
  await expectUntouched(t, subject, 'requests to unknown routes');
});

const pctAll = (s: string) => [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/**
 * esid: Endpoints › Rules, Rule 8 — what counts as "a route" at its edges is not shown.
 * OBSERVE: how the target answers borderline forms of the known routes, with a valid key: a
 * trailing slash, a doubled slash, a dot segment, another letter case, a percent-encoded literal
 * or id, an empty query; HEAD and OPTIONS on every route (status, Allow, body); a lowercase or
 * unregistered method; a wrong method on an unknown Payment id. State-changing forms are sent
 * at Payments of their own, and whether the Payment moved is recorded too.
 */
ruleTest('ROUTE-EDGE-FORMS', async (t) => {
  const key = t.keys.test;
  const p = await t.createPayment();
  const id = p.id as string;
  const seen: Record<string, string> = {};
  const probe: Probe = async (label, req) => {
    try {
      const res = await t.client.request({ key, ...req });
      const allow = res.headers['allow'];
      seen[label] = `${outcome(res)}${allow !== undefined ? ` (Allow: ${allow})` : ''}${req.method === 'HEAD' && res.text.length ? ` (body of ${res.text.length} bytes)` : ''}`;
      return res;
    } catch (e) {
      if (!(e instanceof TransportError)) throw e;
      seen[label] = `no HTTP answer (${e.code})`;
      return undefined;
    }
  };

  await probeReads(probe, id);

  await probeHeadAndOptions(probe, id);

  await probeOtherMethods(probe);

  // State-changing forms, each at a Payment of its own; the Payment's status afterwards is recorded.
  const moved = async (label: string, method: string, path: (id: string) => string) => {
    const own = await t.createPayment();
    await probe(label, { method, path: path(own.id) });
    const after = await t.client.getPayment(key, own.id);
    seen[label] += ` → Payment ${after.json?.status ?? after.status}`;
  };
  await moved('POST /v1/payments/{id}/cancel/ (trailing slash)', 'POST', (x) => `/v1/payments/${x}/cancel/`);
  await moved('POST /v1/payments/{id}/CANCEL (letter case)', 'POST', (x) => `/v1/payments/${x}/CANCEL`);
  await moved('POST /v1/payments/{fully percent-encoded id}/cancel', 'POST', (x) => `/v1/payments/${pctAll(x)}/cancel`);
  await moved('POST /v1/test_helpers/payments/{id}/succeed/ (trailing slash)', 'POST', (x) => `/v1/test_helpers/payments/${x}/succeed/`);
  await moved('POST /v1//test_helpers/payments/{id}/cancel (doubled slash)', 'POST', (x) => `/v1//test_helpers/payments/${x}/cancel`);
  await moved('DELETE /v1/payments/{id} (wrong method, real Payment)', 'DELETE', (x) => `/v1/payments/${x}`);

  t.observe('answers to borderline route forms (valid Test key)', seen);
});

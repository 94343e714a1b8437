/**
 * esid: Endpoints › Rules, Rule 8 — "a wrong method on a route answers 405 method_not_allowed."
 *       RFC 9110 §15.5.6 — "The origin server MUST generate an Allow header field in a 405 response
 *       containing a list of the target resource's currently supported methods."
 * Every method of GET, POST, PUT, PATCH, DELETE that a route does not bind, on every route, with a
 * valid key and a real PENDING Payment, answers 405 method_not_allowed, changes nothing, and (SHOULD)
 * names the route's methods in Allow. HEAD and OPTIONS are observed under ROUTE-EDGE-FORMS.
 */
import fc from 'fast-check';
import { ruleTest } from '../../service/harness/worker/rule-test.ts';
import type { ApiResponse } from '../../core/client.ts';
import { expectError, expectTrue } from '../../service/harness/worker/expect.ts';
import { createBody, expectUntouched, newSubject, type Subject } from '../_shared/valid-request.ts';
import type { RuleContext } from '../../service/harness/worker/rule-test.ts';
import { WRONG_METHODS, routePath, type Route } from '../../service/generators/routes.ts';
import { ALLOW_HEADER_CASES, WRONG_METHOD_CASES } from '../../service/generators/cases/routes-versions.ts';
import { share } from '../../service/harness/worker/depth.ts';
import { batched } from '../../service/harness/worker/batch.ts';

type BodyKind = 'none' | 'create' | 'garbage';

function send(t: RuleContext, subject: Subject, route: Route, method: string, body: BodyKind, key = t.keys.test, query = ''): Promise<ApiResponse> {
  const path = routePath(route, subject.paymentId) + query;
  if (body === 'create') return t.client.request({ method, path, key, json: createBody(t, subject) });
  if (body === 'garbage') return t.client.request({ method, path, key, raw: '{"amount":', headers: { 'content-type': 'application/json' } });
  return t.client.request({ method, path, key });
}

ruleTest('ROUTE-WRONG-METHOD-405', async (t) => {
  const subject = await newSubject(t, 'wrongmethod');
  await t.cases(WRONG_METHOD_CASES, async ({ route, method }) => {
    const res = await send(t, subject, route, method, 'none');
    expectError(res, 405, ['method_not_allowed'], `${method} on ${route.template}`);
  });
  // The same with bodies, a query string, and a Live key where Rule 6 does not apply.
  const keys = (route: Route) => (route.testOnly || !t.keys.live ? [t.keys.test] : [t.keys.test, t.keys.live]);
  const probe = fc
    .tuple(fc.constantFrom(...WRONG_METHODS), fc.constantFrom<BodyKind>('none', 'create', 'garbage'), fc.constantFrom('', '?limit=1', '?x=1'), fc.nat())
    .map(([wm, body, query, k]) => ({ ...wm, body, query, key: keys(wm.route)[k % keys(wm.route).length]! }));
  await batched(t, probe, async ({ route, method, body, query, key }) => {
    const res = await send(t, subject, route, method, body, key, query);
    expectError(res, 405, ['method_not_allowed'], `${method} on ${route.template}`);
  }, share(t.runs, 0.4));
  await expectUntouched(t, subject, 'wrong methods on known routes');
});

ruleTest('ROUTE-ALLOW-HEADER', async (t) => {
  const subject = await newSubject(t, 'allow');
  let checked = 0;
  await t.cases(ALLOW_HEADER_CASES, async ({ route, method }) => {
    const res = await send(t, subject, route, method, 'none');
    if (res.status !== 405) return;
    checked++;
    const allow = res.headers['allow'];
    const listed = new Set((allow ?? '').split(',').map((m) => m.trim().toUpperCase()).filter(Boolean));
    const missing = route.methods.filter((m) => !listed.has(m));
    const extra = [...listed].filter((m) => !route.methods.includes(m) && m !== 'HEAD' && m !== 'OPTIONS');
    expectTrue(
      allow !== undefined && missing.length === 0 && extra.length === 0,
      `${method} on ${route.template}: 405 with ${allow === undefined ? 'no Allow header' : `Allow: ${allow}`}, expected ${route.methods.join(', ')}`,
      { allow: route.methods.join(', ') },
      { allow: allow ?? null },
    );
  });
  if (checked === 0) t.skip('no wrong method was answered 405');
  t.note(`${checked} answers 405 checked`);
});

/**
 * esid: Endpoints › Error statuses per operation — "createPayment | 400, 401, 403, 409, 429 (plus 201)" …
 * esid: Errors — "internal_error | 500 | server-side failure" (and DESIGN: no 5xx on any generated input)
 * esid: What the service does — "The API is JSON over HTTPS."
 *
 * Ambient rules: each answer of the whole run is judged by core/ambient.ts. These tests
 * drive varied traffic (every operation; valid and invalid bodies, keys and ids; unknown
 * routes and wrong methods) so that the rules run in any selection, and judge it directly.
 */
import { ruleTest } from '../../service/harness/worker/rule-test.ts';
import { expectTrue } from '../../service/harness/worker/expect.ts';
import { acceptedStatuses } from '../../catalogue/schemas/index.ts';
import { describeSeen, driveTraffic } from './traffic.ts';

ruleTest('RESP-STATUS-LISTED', async (t) => {
  const counts = new Map<string, Set<number>>();
  const traffic = await driveTraffic(t, (s) => {
    if (s.op === null) return; // not an operation: routing's rules judge those answers
    const listed = acceptedStatuses(s.op);
    (counts.get(s.op) ?? counts.set(s.op, new Set()).get(s.op)!).add(s.res.status);
    expectTrue(listed.includes(s.res.status), `${describeSeen(s)} answered ${s.res.status}, not a status ${s.op} lists (${listed.join(', ')})`, listed, s.res.status);
  });
  t.note(`${traffic.answers} answers judged; statuses seen: ${[...counts].map(([op, st]) => `${op} ${[...st].sort().join('/')}`).join('; ')}`);
});

ruleTest('RESP-NO-5XX', async (t) => {
  const traffic = await driveTraffic(t, (s) => {
    expectTrue(s.res.status < 500, `${describeSeen(s)} answered ${s.res.status}${s.res.json?.error?.code ? ` ${s.res.json.error.code}` : ''}`, '< 500', s.res.status);
  });
  t.note(`${traffic.answers} answers, none 5xx`);
});

ruleTest('RESP-JSON-CONTENT-TYPE', async (t) => {
  const traffic = await driveTraffic(t, (s) => {
    if (s.res.text.length === 0) return;
    const ct = s.res.headers['content-type'] ?? null;
    expectTrue(ct !== null && /^application\/json\s*(;|$)/i.test(ct), `${describeSeen(s)} answered ${s.res.status} with Content-Type ${JSON.stringify(ct)}`, 'application/json', ct);
  });
  t.note(`${traffic.answers} answers declared application/json`);
});

/**
 * esid: Resources and their fields › Error — "{ error: { code: string, message: string, param?: string, request_id: string } }.
 *       code, message and request_id are always present."
 * esid: Errors — "Every error response has the Error shape." and the table of code and status;
 *       "request_id is quoted to support."
 *
 * Ambient rules (core/ambient.ts judges every error answer of the run); these tests drive
 * traffic that provokes every kind of error and judge each one directly.
 */
import { ERROR_TABLE } from '../../catalogue/error-codes.ts';
import { ruleTest } from '../../service/harness/worker/rule-test.ts';
import { expectTrue } from '../../service/harness/worker/expect.ts';
import { validate } from '../../catalogue/schemas/index.ts';
import { describeSeen, driveTraffic } from './traffic.ts';

ruleTest('RESP-ERROR-ENVELOPE', async (t) => {
  const codes = new Set<string>();
  await driveTraffic(t, (s) => {
    if (s.res.status < 400) return;
    const v = validate('Error', s.res.json);
    expectTrue(v.valid, `${describeSeen(s)} answered ${s.res.status} with a body that is not the Error shape: ${v.errors.slice(0, 3).join('; ')}`, 'Error', s.res.json ?? s.res.text.slice(0, 200));
    codes.add(`${s.res.status} ${s.res.json.error.code}`);
  });
  t.note(`error answers judged: ${[...codes].sort().join(', ')}`);
});

ruleTest('RESP-ERROR-STATUS-MATCHES-CODE', async (t) => {
  const pairs = new Set<string>();
  await driveTraffic(t, (s) => {
    const code = s.res.json?.error?.code;
    if (typeof code !== 'string') return;
    if (!(code in ERROR_TABLE)) {
      pairs.add(`${code} (not in the table)`);
      return;
    }
    const want = ERROR_TABLE[code as keyof typeof ERROR_TABLE];
    expectTrue(s.res.status === want, `${describeSeen(s)}: code ${code} came with status ${s.res.status}; the error table gives ${want}`, want, s.res.status);
    pairs.add(`${code} ${want}`);
  });
  t.note(`code/status pairs seen: ${[...pairs].sort().join(', ')}`);
});

ruleTest('RESP-REQUEST-ID-UNIQUE', async (t) => {
  // request_id of error answers to requests without an Idempotency-Key (a replayed error may
  // legitimately repeat the original answer, request_id included).
  const seen = new Map<string, string>();
  await driveTraffic(t, (s) => {
    if (s.res.status < 400 || s.idempotent) return;
    const rid = s.res.json?.error?.request_id;
    if (typeof rid !== 'string') return; // RESP-ERROR-ENVELOPE's business
    const before = seen.get(rid);
    expectTrue(before === undefined, `${describeSeen(s)} answered request_id ${rid}, already given to ${before}`, 'a request_id of its own', rid);
    seen.set(rid, describeSeen(s));
  });
  t.note(`${seen.size} error answers, each with its own request_id`);
});

/**
 * esid: Endpoints › Rules, Rules 1 and 3 — "... creates no duplicate"; "createPayment while a
 * request with that key is still processing answers 409 idempotency_in_progress."
 * N identical requests fired at once (Promise.all) create exactly one Payment (found again by its
 * external_id) and each is answered with the original result or 409 idempotency_in_progress.
 */
import fc from 'fast-check';
import { ruleTest } from '../../service/harness/worker/rule-test.ts';
import { Mismatch, expectStatus, expectTrue } from '../../service/harness/worker/expect.ts';
import { idempotencyBodyFields } from '../../service/generators/idempotency-body-fields.ts';
import { idempotencyKeySuffix } from '../../service/generators/idempotency-key-suffix.ts';
import { bodyOf, idempotencyKey } from './bodies.ts';
import { expectExactlyOne } from '../_shared/by-external-id.ts';
import { share } from '../../service/harness/worker/depth.ts';

ruleTest('IDEM-IN-PROGRESS', async (t) => {
  const tally = { original: 0, in_progress: 0, requests: 0 };
  const cases = fc.tuple(idempotencyKeySuffix(), idempotencyBodyFields(), fc.integer({ min: 8, max: 16 }));
  await t.property(cases, async ([suffix, fields, n]) => {
    const idem = idempotencyKey(t, suffix);
    const externalId = t.externalId('idemp');
    const body = bodyOf(t, fields, externalId);
    const answers = await Promise.all(Array.from({ length: n }, () => t.client.createPayment(t.keys.test, body, { idempotencyKey: idem })));
    const created = answers.filter((r) => r.status === 201);
    const ids = [...new Set(created.map((r) => r.json?.id))];
    for (const r of answers) {
      const ok = r.status === 201 || (r.status === 409 && r.json?.error?.code === 'idempotency_in_progress');
      if (!ok) {
        throw new Mismatch(
          `${n} concurrent identical requests: one answered ${r.status} ${r.json?.error?.code ?? ''}, expected 201 (the original) or 409 idempotency_in_progress`,
          { status: [201, 409], code: 'idempotency_in_progress' },
          { status: r.status, code: r.json?.error?.code ?? null, all: answers.map((a) => `${a.status} ${a.json?.error?.code ?? a.json?.id ?? ''}`) },
        );
      }
    }
    expectTrue(created.length >= 1, `${n} concurrent identical requests: none answered 201 (the request that ran must answer the original result)`, '>= 1', created.length);
    expectTrue(ids.length === 1, `${n} concurrent identical requests answered ${ids.length} different Payments: ${ids.join(', ')}`, 1, ids);
    tally.original += created.length;
    tally.in_progress += n - created.length;
    tally.requests += n;
    await expectExactlyOne(t, t.keys.test, externalId, ids[0], `${n} concurrent identical requests`);
    // Once done, the key replays the original.
    const replay = await t.client.createPayment(t.keys.test, body, { idempotencyKey: idem });
    expectStatus(replay, 201, 'the same request once all have finished');
    expectTrue(replay.json?.id === ids[0], `the replay answered Payment ${replay.json?.id}, not the original ${ids[0]}`, ids[0], replay.json?.id);
  }, { runs: share(t.runs, 0.04) });
  t.observe('concurrent_answers', tally);
});

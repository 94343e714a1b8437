import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createPayment, startReference, type RunningReference } from './helpers.ts';

let ref: RunningReference;
beforeAll(async () => {
  // A long processing time makes "still processing" observable without races.
  ref = await startReference({ createDelayMs: 60, webhookBaseUrl: 'http://127.0.0.1:9', onError: (e) => { throw e; } });
});
afterAll(async () => ref.close());

const idem = (key: string) => ({ headers: { 'idempotency-key': key } });
const count = (): number => ref.built.state.payments.size;

describe('idempotency (Rules 1-3)', () => {
  it('Rule 1: same key and identical body replays the original 201, no new payment', async () => {
    const body = { amount: '10.00', metadata: { a: '1', b: '2' } };
    const first = await createPayment(ref, body, idem('k-replay'));
    expect(first.status).toBe(201);
    const size = count();
    // Same JSON, other key order and spacing: still identical.
    const second = await call(ref, 'POST', '/v1/payments', {
      rawBody: '{ "metadata": {"b":"2", "a":"1"}, "amount": "10.00" }',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'k-replay' },
    });
    expect(second.status).toBe(201);
    expect(second.text).toBe(first.text);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(count()).toBe(size);
  });

  it('replays the original snapshot even after the payment changed', async () => {
    const first = await createPayment(ref, { amount: '11' }, idem('k-snapshot'));
    await call(ref, 'POST', `/v1/payments/${first.json.id}/cancel`);
    const replay = await createPayment(ref, { amount: '11' }, idem('k-snapshot'));
    expect(replay.json).toEqual(first.json);
  });

  it('Rule 2: same key and a different body → 409 idempotency_conflict', async () => {
    expect((await createPayment(ref, { amount: '1' }, idem('k-conflict'))).status).toBe(201);
    const r = await createPayment(ref, { amount: '2' }, idem('k-conflict'));
    expect(r.status).toBe(409);
    expect(r.json.error.code).toBe('idempotency_conflict');
  });

  it('Rule 3: concurrent identical requests → one payment; the overlapping ones 409 idempotency_in_progress', async () => {
    const size = count();
    const results = await Promise.all(Array.from({ length: 5 }, () => createPayment(ref, { amount: '3' }, idem('k-concurrent'))));
    const created = results.filter((r) => r.status === 201);
    const inProgress = results.filter((r) => r.status === 409);
    // Under load a late request may arrive after the first completed: it is then a replay.
    expect(created.length + inProgress.length).toBe(5);
    expect(new Set(created.map((r) => r.json.id)).size).toBe(1);
    expect(inProgress.length).toBeGreaterThanOrEqual(1);
    for (const r of inProgress) expect(r.json.error.code).toBe('idempotency_in_progress');
    expect(count()).toBe(size + 1);
    const after = await createPayment(ref, { amount: '3' }, idem('k-concurrent'));
    expect(after.json.id).toBe(created[0]?.json.id);
  });

  it('a replay of a create with an external_id returns the original, never external_id_conflict', async () => {
    const body = { amount: '4', external_id: 'idem-ext-1' };
    const first = await createPayment(ref, body, idem('k-ext'));
    const replay = await createPayment(ref, body, idem('k-ext'));
    expect(replay.status).toBe(201);
    expect(replay.json.id).toBe(first.json.id);
    const withoutKey = await createPayment(ref, body);
    expect(withoutKey.json.error.code).toBe('external_id_conflict');
  });

  it('keys are scoped to the API key', async () => {
    const a = await createPayment(ref, { amount: '5' }, idem('k-scoped'));
    const b = await createPayment(ref, { amount: '5' }, { ...idem('k-scoped'), key: ref.profile.keys.test_write_only });
    expect(b.status).toBe(201);
    expect(b.json.id).not.toBe(a.json.id);
  });

  it('an error result is not stored: the key can be used again', async () => {
    const bad = await createPayment(ref, { amount: 'x' }, idem('k-error'));
    expect(bad.json.error.code).toBe('invalid_amount');
    expect((await createPayment(ref, { amount: '6' }, idem('k-error'))).status).toBe(201);
  });

  it('an empty or over-long Idempotency-Key → 400 invalid_request', async () => {
    for (const key of ['', 'x'.repeat(256)]) {
      const r = await createPayment(ref, { amount: '1' }, idem(key));
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('invalid_request');
    }
    expect((await createPayment(ref, { amount: '1' }, idem('y'.repeat(255)))).status).toBe(201);
  });

  it('expires after 24 hours', async () => {
    let now = Date.now();
    const r2 = await startReference({ createDelayMs: 0, webhookBaseUrl: 'http://127.0.0.1:9', now: () => now });
    try {
      const first = await createPayment(r2, { amount: '1' }, idem('k-expire'));
      now += 24 * 3600 * 1000 - 1;
      expect((await createPayment(r2, { amount: '2' }, idem('k-expire'))).json.error.code).toBe('idempotency_conflict');
      now += 1;
      const later = await createPayment(r2, { amount: '2' }, idem('k-expire'));
      expect(later.status).toBe(201);
      expect(later.json.id).not.toBe(first.json.id);
    } finally {
      await r2.close();
    }
  });
});

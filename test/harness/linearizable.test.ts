/**
 * suites/_shared/linearizable.ts: the linearizability check of IDEM-CONCURRENT-UNIQUE, on
 * histories made by hand (what a conformant target may answer, and what check-then-write answers).
 */
import { describe, expect, it } from 'vitest';
import { linearize, type Answer, type Branch, type Command, type ModelState } from '../../suites/_shared/linearizable.ts';

const EMPTY: ModelState = { payments: new Map(), keys: new Map() };
const created = (id: string): Answer => ({ status: 201, code: null, id, state: 'PENDING' });
const refused = (status: number, code: string): Answer => ({ status, code, id: null, state: null });
const moved = (id: string, state: string): Answer => ({ status: 200, code: null, id, state });
const create = (idem: string | null, body = 'b0'): Command => ({ op: 'create', idem, ext: 'X', body });
const branches = (...pairs: Array<[Command, Answer]>): Branch[] => pairs.map(([cmd, answer], i) => ({ label: `b${i + 1}`, cmd, answer }));
/** The read: the Payments listed under external_id X. */
const lists = (...ids: string[]) => (end: ModelState) => {
  const model = [...end.payments].filter(([, p]) => p.ext === 'X').map(([id]) => id).sort();
  return model.join() === [...ids].sort().join() ? null : `lists [${ids.join(', ')}], this order ends with [${model.join(', ')}]`;
};

describe('linearize', () => {
  it('one 201 and external_id_conflicts: the order with the winner first, whichever branch won', () => {
    const h = branches([create('k1'), refused(409, 'external_id_conflict')], [create(null), refused(409, 'external_id_conflict')],
      [create('k2'), created('pay_2')]);
    const v = linearize(EMPTY, h, lists('pay_2'));
    expect(v.order?.[0]).toBe('b3');
  });

  it('two 201s for one external_id (check, then insert): no order, and every order tried says where it broke', () => {
    const h = branches([create('k1'), created('pay_1')], [create('k2'), created('pay_2')]);
    const v = linearize(EMPTY, h, lists('pay_1', 'pay_2'));
    expect(v.order).toBeNull();
    expect(v.tried.map((t) => t.order.join(' '))).toEqual(['b1 b2', 'b2 b1']);
    expect(v.tried[0]!.broke).toMatch(/b2 answered 201 pay_2 PENDING, the model expects 409 external_id_conflict/);
  });

  it('the answers fit but the read does not: not linearizable', () => {
    const h = branches([create('k1'), created('pay_1')], [create('k2'), refused(409, 'external_id_conflict')]);
    expect(linearize(EMPTY, h, lists('pay_1', 'pay_9')).order).toBeNull();
    expect(linearize(EMPTY, h, lists('pay_1')).order).toEqual(['b1', 'b2']);
  });

  it('replays racing the original: 201 with the one id or idempotency_in_progress; in_progress alone is not', () => {
    const inProgress = refused(409, 'idempotency_in_progress');
    const ok = branches([create('k'), inProgress], [create('k'), created('pay_1')], [create('k'), created('pay_1')]);
    expect(linearize(EMPTY, ok, lists('pay_1')).order).not.toBeNull();
    const twoIds = branches([create('k'), created('pay_1')], [create('k'), created('pay_2')]);
    expect(linearize(EMPTY, twoIds, lists('pay_1', 'pay_2')).order).toBeNull();
    const allInProgress = branches([create('k'), inProgress], [create('k'), inProgress]);
    expect(linearize(EMPTY, allInProgress, lists()).order).toBeNull();
  });

  it('a key a refused create used: another body under it may be refused as a conflict (kept) or evaluated anew', () => {
    const h = branches([create(null), created('pay_1')], [create('k', 'b0'), refused(409, 'external_id_conflict')],
      [create('k', 'b1'), refused(409, 'idempotency_conflict')]);
    expect(linearize(EMPTY, h, lists('pay_1')).order).not.toBeNull();
  });

  it('a cancel racing the succeed helper: one 200, the other invalid_transition, the read shows the winner', () => {
    const initial: ModelState = { payments: new Map([['p', { ext: null, status: 'PENDING' }]]), keys: new Map() };
    const cancel: Command = { op: 'cancel', payment: 'p' };
    const succeed: Command = { op: 'succeed', payment: 'p' };
    const reads = (status: string) => (end: ModelState) => (end.payments.get('p')?.status === status ? null : 'differs');
    const fine = branches([cancel, refused(409, 'invalid_transition')], [succeed, moved('p', 'PAID')]);
    expect(linearize(initial, fine, reads('PAID')).order).toEqual(['b2', 'b1']);
    expect(linearize(initial, fine, reads('CANCELLED')).order).toBeNull();
    const both = branches([cancel, moved('p', 'CANCELLED')], [succeed, moved('p', 'PAID')]);
    expect(linearize(initial, both, reads('CANCELLED')).order).toBeNull();
  });
});

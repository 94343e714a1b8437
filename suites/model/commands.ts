/**
 * MODEL-SEQUENCES' one-request commands (./sequences.rules.ts): create, replay, conflicting replay,
 * the transitions (cancel, the two test helpers, the control hook's reversal), get and list by
 * external_id, each judged against the model (./model.ts) and applied to it.
 */
import { decimalEquals, short } from '../../service/harness/worker/expect.ts';
import { controlRequest } from '../_shared/stories.ts';
import {
  describe, expectErr, fail, label, money, ok, passed, pick, reader, sendCreate, tally,
  type Cmd, type Handle, type KeyName, type Model, type Real,
} from './model.ts';

export const EXT_LABELS = ['e0', 'e1', 'e2'] as const;

export class CreateCmd implements Cmd {
  /** `extra`: the optional fields the body carries beside amount, external_id and the run's metadata marker. */
  constructor(
    readonly key: KeyName, readonly cents: number, readonly withIdem: boolean, readonly ext: string | null,
    readonly extra: Readonly<Record<string, unknown>> = {},
  ) {}
  check(): boolean { return true; }
  async run(m: Model, r: Real): Promise<void> {
    const body: Record<string, unknown> = { amount: money(this.cents), ...liveReady(r, this.key, this.extra) };
    if (this.ext !== null) body.external_id = `${r.prefix}-${this.ext}`;
    body.metadata = r.t.metadata({ suite: 'model' });
    const idem = this.withIdem ? `${r.prefix}-k${++r.creates}` : null;
    await sendCreate(m, r, this.toString(), this.key, body, idem);
  }
  toString(): string {
    const extra = Object.keys(this.extra).length > 0 ? `, ${JSON.stringify(this.extra)}` : '';
    return `create(${this.key}, amount=${money(this.cents)}, idem=${this.withIdem ? 'new' : 'none'}, ext=${this.ext ?? 'none'}${extra})`;
  }
}

/**
 * Under a Live key, the methods and channels a body allows are cut to those `live_receiving` says
 * are ready (the others are Live readiness refusals, ./refusals.ts's); a list left empty is dropped.
 */
function liveReady(r: Real, key: KeyName, extra: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (!r.keys[key]!.live) return { ...extra };
  const receiving = r.t.profile.live_receiving;
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(extra)) {
    const ready = field === 'allowed_methods' ? receiving?.methods : field === 'allowed_channels' ? receiving?.channels : undefined;
    if (!Array.isArray(value) || (field !== 'allowed_methods' && field !== 'allowed_channels')) out[field] = value;
    else if (ready !== undefined && value.some((v) => ready.includes(v))) out[field] = value.filter((v) => ready.includes(v));
  }
  return out;
}

/** The request that created pN again: same Idempotency-Key (if any) and same body, by its own or another API key. */
export class ReplayCmd implements Cmd {
  constructor(readonly h: number, readonly as: KeyName | null) {}
  check(m: Readonly<Model>): boolean { return m.handles.length > 0; }
  async run(m: Model, r: Real): Promise<void> {
    const [p, i] = pick(m, this.h);
    const as = this.as ?? p.key;
    // Under another Live key it is a new request (keys scope Idempotency-Keys): only what that key's business has ready.
    await sendCreate(m, r, `${this} [${label(m, i)}]`, as, as === p.key ? p.body : liveReady(r, as, p.body), p.idem);
  }
  toString(): string { return `replay(p${this.h}${this.as ? `, as=${this.as}` : ''})`; }
}

/** pN's Idempotency-Key with another body: another amount and a fresh external_id. */
export class ConflictCmd implements Cmd {
  constructor(readonly h: number, readonly deltaCents: number) {}
  check(m: Readonly<Model>): boolean { return m.handles.length > 0; }
  async run(m: Model, r: Real): Promise<void> {
    const [p, i] = pick(m, this.h);
    const cents = Number(p.amount.replace('.', '')) + this.deltaCents; // amounts are sent as money(cents)
    const body: Record<string, unknown> = { ...p.body, amount: money(cents) };
    if (p.externalId !== null) body.external_id = `${r.prefix}-c${++r.creates}`;
    await sendCreate(m, r, `${this} [${label(m, i)}]`, p.key, body, p.idem);
  }
  toString(): string { return `conflict(p${this.h}, amount+${money(this.deltaCents)})`; }
}

export type Action = 'cancel' | 'helperSucceed' | 'helperCancel';

export class TransitionCmd implements Cmd {
  /** `key` null: the API key that created pN. */
  constructor(readonly action: Action, readonly key: KeyName | null, readonly h: number) {}
  check(m: Readonly<Model>): boolean { return m.handles.length > 0; }
  async run(m: Model, r: Real): Promise<void> {
    const [p, i] = pick(m, this.h);
    const k = r.keys[this.key ?? p.key]!;
    const c = r.t.client;
    const res = this.action === 'cancel' ? await c.cancelPayment(k.key, p.id)
      : this.action === 'helperSucceed' ? await c.simulateSucceeded(k.key, p.id)
        : await c.simulateCancelled(k.key, p.id);
    const step = `${this} [${label(m, i)}, ${p.status}, ${p.scope}]`;
    if (this.action !== 'cancel' && k.live) return expectErr(r, step, res, 404, ['not_found'], 'test helper under a Live key');
    if (p.scope !== k.scope) return expectErr(r, step, res, 404, ['payment_not_found'], `${this.action}: other business or environment`);
    if (p.status !== 'PENDING') return expectErr(r, step, res, 409, ['invalid_transition'], `${this.action}: invalid_transition`);
    moved(r, step, res, p, this.action === 'helperSucceed' ? 'PAID' : 'CANCELLED', this.action);
  }
  toString(): string { return `${this.action}(${this.key ?? 'own'}, p${this.h})`; }
}

/** A 200 the model expects to move `p` to `to`: checked, then applied. */
function moved(r: Real, step: string, res: Parameters<typeof describe>[0], p: Handle, to: string, what: string): void {
  if (res.status !== 200) fail(r, step, res, `answered ${describe(res)}, the model expects 200 ${to}`, { status: 200, state: to });
  if (res.json?.id !== p.id || res.json?.status !== to) {
    const said = `answered Payment ${short(res.json?.id)} in ${short(res.json?.status)}`;
    fail(r, step, res, `${said}, the model expects ${p.id} in ${to}`, { id: p.id, status: to });
  }
  p.status = to;
  ok(r, step, res, `${what}: ${to}`);
}

/**
 * The control hook's reversal (PROFILE: `POST {control.url}/payments/{id}/reverse`, the move the
 * public API cannot make): sent only to a PAID Payment, which becomes REVERSED; on any other state
 * nothing is sent (the hook's refusal is the profile's contract, not the API's answer).
 */
export class ReverseCmd implements Cmd {
  constructor(readonly h: number) {}
  check(m: Readonly<Model>): boolean { return m.handles.length > 0; }
  async run(m: Model, r: Real): Promise<void> {
    const [p, i] = pick(m, this.h);
    if (p.status !== 'PAID' || !r.t.profile.control) return tally(r, 'reverse: not sent (not PAID)');
    const res = await controlRequest(r.t, 'POST', `/payments/${encodeURIComponent(p.id)}/reverse`);
    moved(r, `${this} [${label(m, i)}, PAID, ${p.scope}]`, res, p, 'REVERSED', 'reverse (control hook)');
  }
  toString(): string { return `reverse(p${this.h})`; }
}

export class GetCmd implements Cmd {
  /** `key` null: the API key that created pN. */
  constructor(readonly key: KeyName | null, readonly h: number) {}
  check(m: Readonly<Model>): boolean { return m.handles.length > 0; }
  async run(m: Model, r: Real): Promise<void> {
    const [p, i] = pick(m, this.h);
    const k = r.keys[this.key ?? reader(r, p)]!;
    const res = await r.t.client.getPayment(k.key, p.id);
    const step = `${this} [${label(m, i)}, ${p.scope}]`;
    if (p.scope !== k.scope) return expectErr(r, step, res, 404, ['payment_not_found'], 'get: other business or environment');
    if (res.status !== 200) fail(r, step, res, `answered ${describe(res)}, the model expects 200`, { status: 200 });
    const g = res.json ?? {};
    if (g.id !== p.id || g.status !== p.status || !decimalEquals(g.amount, p.amount) || (g.external_id ?? null) !== p.externalId) {
      const has = { id: p.id, status: p.status, amount: p.amount, external_id: p.externalId };
      const read = short({ id: g.id, status: g.status, amount: g.amount, external_id: g.external_id });
      fail(r, step, res, `read ${read}, the model has ${short(has)}`, has);
    }
    ok(r, step, res, p.status === 'PENDING' ? 'get' : `get after a transition (${p.status})`);
  }
  toString(): string { return `get(${this.key ?? 'own'}, p${this.h})`; }
}

/**
 * list?external_id= (and status=, when given) under `k`: exactly the model's Payments with it in the
 * key's business and environment, has_more false.
 */
export async function listExternalId(
  r: Real, m: Readonly<Model>, step: string, keyName: KeyName, ext: string, status: string | null,
): Promise<void> {
  const k = r.keys[keyName]!;
  const res = await r.t.client.listPayments(k.key, { external_id: ext, ...(status ? { status } : {}) });
  const want = m.handles.filter((h) => h.scope === k.scope && h.externalId === ext && (status === null || h.status === status));
  if (res.status !== 200 || !Array.isArray(res.json?.data)) {
    fail(r, step, res, `answered ${describe(res)}, the model expects 200 with a list`, { status: 200 });
  }
  const got = (res.json.data as any[]).map((p) => ({ id: p?.id, status: p?.status }));
  const exp = want.map((h) => ({ id: h.id, status: h.status }));
  if (JSON.stringify(got) !== JSON.stringify(exp)) fail(r, step, res, `listed ${short(got)}, the model expects ${short(exp)}`, exp);
  if (res.json.has_more !== false) {
    fail(r, step, res, `has_more is ${short(res.json.has_more)} with at most one match`, { has_more: false });
  }
  passed(r, `${step} → 200 [${got.map((g) => `${g.id} ${g.status}`).join(', ')}]`, null);
}

/** list?external_id= with pN's external_id (e0's when pN has none, or before any create), by pN's own or another key. */
export class ListCmd implements Cmd {
  constructor(readonly key: KeyName | null, readonly h: number, readonly status: string | null) {}
  check(): boolean { return true; }
  async run(m: Model, r: Real): Promise<void> {
    const p = m.handles.length > 0 ? pick(m, this.h)[0] : undefined;
    const keyName = this.key ?? reader(r, p);
    const ext = p?.externalId ?? `${r.prefix}-e0`;
    await listExternalId(r, m, `${this} [external_id=…${ext.slice(r.prefix.length)}]`, keyName, ext, this.status);
    const holder = m.handles.find((h) => h.scope === r.keys[keyName]!.scope && h.externalId === ext);
    tally(r, holder === undefined ? 'list: no Payment with it in the key\'s business and environment'
      : holder.status === 'PENDING' ? 'list: PENDING Payment' : `list: Payment after a transition (${holder.status})`);
  }
  toString(): string { return `list(${this.key ?? 'own'}, ext of p${this.h}${this.status ? `, status=${this.status}` : ''})`; }
}

/**
 * esid: States and transitions; Endpoints › Rules 1, 2, 4, 5, 6, 7.
 *
 * Model-based test: random sequences of create, replay (same Idempotency-Key, same body),
 * conflicting replay (same key, other body), cancel, the two test helpers, get and list by
 * external_id, across the Test key of business A, a second (write-only) Test key of A, the Test
 * key of another business B and the Live keys (Live writes only when probes.live_writes; creates
 * only under A's Live key, the one the profile promises is ready), each step checked against an
 * in-memory model of the spec:
 *
 *  - create → 201 PENDING with livemode of the key; same API key + same Idempotency-Key +
 *    same body → 201 with the same id (Rule 1), whatever happened to the Payment since;
 *    other body → 409 idempotency_conflict (Rule 2); the same Idempotency-Key under another
 *    API key is a new request (keys are scoped to the API key); an external_id already used
 *    in the key's business and environment → 409 external_id_conflict (Rule 4).
 *  - cancel / succeed / helper cancel on a PENDING Payment → 200 and the new state; on any
 *    other state → 409 invalid_transition; a Payment of another business or environment →
 *    404 payment_not_found (Rules 5, 7); a Live key on /test_helpers → 404 not_found (Rule 6).
 *  - get → the model's state; list?external_id= → exactly the model's Payment in the key's
 *    business and environment (the external ids carry this sequence's marker, so nothing else
 *    on the shared target can match).
 *
 * Sequences run a few side by side (service/harness/worker/batch.ts `batched`), each one step after
 * another: a failing batch first drops the sequences that pass, then the failing one is shrunk and
 * reported as the list of commands (their toString is the script: `pN` names the N-th Payment
 * the sequence created, counted modulo how many exist), with the trace of the failing run (which
 * pN was which id, and every answer) in the evidence.
 *
 * The commands are an fc.array run by fc.asyncModelRun rather than fc.commands: the shrinking
 * of fc.commands depends on which commands ran, so the harness's replay of the shrunk
 * counterexample by seed and path does not find it again and reports FLAKY instead of FAIL.
 * An array shrinks the same way on replay.
 */
import fc from 'fast-check';
import type { ApiResponse } from '../../core/client.ts';
import { ruleTest, type RuleContext } from '../../service/harness/worker/rule-test.ts';
import { countCheck, decimalEquals, Mismatch, short } from '../../service/harness/worker/expect.ts';
import { share } from '../../service/harness/worker/depth.ts';
import { batched } from '../../service/harness/worker/batch.ts';

type KeyName = 'test' | 'test_w' | 'other' | 'live' | 'other_live';
/** scope: business/environment, what the spec says a key alone determines. read: has payments:read. */
interface KeyInfo { name: KeyName; key: string; scope: string; live: boolean; read: boolean }

interface Handle {
  id: string;
  key: KeyName;
  scope: string;
  status: string;
  amount: string;
  externalId: string | null;
  idem: string | null;
  body: Record<string, unknown>;
}

interface Model {
  handles: Handle[];
  /** (API key name, Idempotency-Key) → the body first accepted and the Payment it made. */
  idem: Map<string, { body: string; handle: number }>;
}

interface Real {
  t: RuleContext;
  /** What the steps exercised, by kind (reported as a note: the coverage of the run). */
  stats: Map<string, number>;
  keys: Record<string, KeyInfo>;
  prefix: string;
  creates: number;
  trace: string[];
}

type Cmd = fc.AsyncCommand<Model, Real, false>;

const money = (cents: number): string => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
const EXT_LABELS = ['e0', 'e1', 'e2'] as const;
/** Sequences side by side at most (each its own Payments): a run's chain is its longest sequence, ~15 steps. */
const SEQUENCES_AT_ONCE = 12;

function describe(res: ApiResponse): string {
  const code = res.json?.error?.code;
  return code ? `${res.status} ${code}` : `${res.status}${res.json?.id ? ` ${res.json.id}` : ''}${res.json?.status ? ` ${res.json.status}` : ''}`;
}

/** Fails the step: the message names the step and what differed; the trace goes along as evidence. */
function fail(r: Real, step: string, res: ApiResponse | null, message: string, expected: unknown): never {
  countCheck();
  r.trace.push(`${r.trace.length + 1}. ${step} → ${res ? describe(res) : '?'}  ✗ ${message}`);
  throw new Mismatch(`step ${r.trace.length} ${step}: ${message}\n${r.trace.join('\n')}`, expected,
    { status: res?.status, body: res?.json ?? res?.text.slice(0, 300), trace: r.trace });
}

function ok(r: Real, step: string, res: ApiResponse, kind: string): void {
  countCheck();
  r.trace.push(`${r.trace.length + 1}. ${step} → ${describe(res)}`);
  r.stats.set(kind, (r.stats.get(kind) ?? 0) + 1);
}

function expectErr(r: Real, step: string, res: ApiResponse, status: number, codes: readonly string[], kind: string): void {
  const code = res.json?.error?.code;
  if (res.status !== status || !codes.includes(code)) {
    fail(r, step, res, `answered ${describe(res)}, the model expects ${status} ${codes.join(' or ')}`, { status, code: codes });
  }
  ok(r, step, res, kind);
}

/** The key a read command uses for "own": pN's creator, or A's Test key when the creator cannot read (test_w, also A/Test). */
function reader(r: Real, p: Handle | undefined): KeyName {
  return p !== undefined && r.keys[p.key]!.read ? p.key : 'test';
}

function pick(m: Readonly<Model>, h: number): [Handle, number] {
  const i = h % m.handles.length;
  return [m.handles[i]!, i];
}

const label = (m: Readonly<Model>, i: number): string => `p${i}=${m.handles[i]!.id}`;

/**
 * Sends a create and checks it against the model: replay, idempotency conflict,
 * external_id conflict or a new PENDING Payment.
 */
async function sendCreate(m: Model, r: Real, step: string, keyName: KeyName, body: Record<string, unknown>, idem: string | null): Promise<void> {
  const k = r.keys[keyName]!;
  const res = await r.t.client.createPayment(k.key, body, idem === null ? {} : { idempotencyKey: idem });
  const bodyText = JSON.stringify(body);
  const prior = idem === null ? undefined : m.idem.get(`${keyName}\u0000${idem}`);
  if (prior !== undefined) {
    if (prior.body !== bodyText) return expectErr(r, step, res, 409, ['idempotency_conflict'], 'idempotency_conflict');
    const original = m.handles[prior.handle]!;
    if (res.status !== 201) fail(r, step, res, `a replay (same key, same body) answered ${describe(res)}, the original answer was 201`, { status: 201, id: original.id });
    if (res.json?.id !== original.id) fail(r, step, res, `a replay returned id ${short(res.json?.id)}, the original create made ${original.id} (${label(m, prior.handle)})`, { id: original.id });
    return ok(r, `${step} [replay of p${prior.handle}, now ${original.status}]`, res, original.status === 'PENDING' ? 'replay' : 'replay after a transition');
  }
  const ext = typeof body.external_id === 'string' ? body.external_id : null;
  if (ext !== null && m.handles.some((h) => h.scope === k.scope && h.externalId === ext)) {
    return expectErr(r, step, res, 409, ['external_id_conflict'], 'external_id_conflict');
  }
  if (res.status !== 201) fail(r, step, res, `answered ${describe(res)}, the model expects 201 (a new Payment)`, { status: 201 });
  const p = res.json ?? {};
  const problems: string[] = [];
  if (typeof p.id !== 'string' || p.id === '') problems.push('no id');
  else if (m.handles.some((h) => h.id === p.id)) problems.push(`id ${p.id} is the id of an earlier Payment`);
  if (p.status !== 'PENDING') problems.push(`status ${short(p.status)}, not PENDING`);
  if (p.livemode !== k.live) problems.push(`livemode ${short(p.livemode)} under a ${k.live ? 'Live' : 'Test'} key`);
  if (!decimalEquals(p.amount, body.amount)) problems.push(`amount ${short(p.amount)}, sent ${short(body.amount)}`);
  if ((p.external_id ?? null) !== ext) problems.push(`external_id ${short(p.external_id)}, sent ${short(ext)}`);
  if (problems.length) fail(r, step, res, problems.join('; '), { status: 'PENDING', livemode: k.live, amount: body.amount, external_id: ext });
  m.handles.push({ id: p.id, key: keyName, scope: k.scope, status: 'PENDING', amount: String(body.amount), externalId: ext, idem, body });
  if (idem !== null) m.idem.set(`${keyName}\u0000${idem}`, { body: bodyText, handle: m.handles.length - 1 });
  ok(r, `${step} [new p${m.handles.length - 1}]`, res, idem !== null && [...m.idem.keys()].some((x) => x !== `${keyName}\u0000${idem}` && x.endsWith(`\u0000${idem}`)) ? 'same Idempotency-Key, other API key: new' : 'create');
}

class CreateCmd implements Cmd {
  constructor(readonly key: KeyName, readonly cents: number, readonly withIdem: boolean, readonly ext: string | null) {}
  check(): boolean { return true; }
  async run(m: Model, r: Real): Promise<void> {
    const body: Record<string, unknown> = { amount: money(this.cents) };
    if (this.ext !== null) body.external_id = `${r.prefix}-${this.ext}`;
    body.metadata = r.t.metadata({ suite: 'model' });
    const idem = this.withIdem ? `${r.prefix}-k${++r.creates}` : null;
    await sendCreate(m, r, this.toString(), this.key, body, idem);
  }
  toString(): string { return `create(${this.key}, amount=${money(this.cents)}, idem=${this.withIdem ? 'new' : 'none'}, ext=${this.ext ?? 'none'})`; }
}

/** The request that created pN again: same Idempotency-Key (if any) and same body, by its own or another API key. */
class ReplayCmd implements Cmd {
  constructor(readonly h: number, readonly as: KeyName | null) {}
  check(m: Readonly<Model>): boolean { return m.handles.length > 0; }
  async run(m: Model, r: Real): Promise<void> {
    const [p, i] = pick(m, this.h);
    await sendCreate(m, r, `${this} [${label(m, i)}]`, this.as ?? p.key, p.body, p.idem);
  }
  toString(): string { return `replay(p${this.h}${this.as ? `, as=${this.as}` : ''})`; }
}

/** pN's Idempotency-Key with another body: another amount and a fresh external_id. */
class ConflictCmd implements Cmd {
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

type Action = 'cancel' | 'helperSucceed' | 'helperCancel';

class TransitionCmd implements Cmd {
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
    const to = this.action === 'helperSucceed' ? 'PAID' : 'CANCELLED';
    if (res.status !== 200) fail(r, step, res, `answered ${describe(res)}, the model expects 200 ${to}`, { status: 200, state: to });
    if (res.json?.id !== p.id || res.json?.status !== to) fail(r, step, res, `answered Payment ${short(res.json?.id)} in ${short(res.json?.status)}, the model expects ${p.id} in ${to}`, { id: p.id, status: to });
    p.status = to;
    ok(r, step, res, `${this.action}: ${to}`);
  }
  toString(): string { return `${this.action}(${this.key ?? 'own'}, p${this.h})`; }
}

class GetCmd implements Cmd {
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
      fail(r, step, res, `read ${short({ id: g.id, status: g.status, amount: g.amount, external_id: g.external_id })}, the model has ${short({ id: p.id, status: p.status, amount: p.amount, external_id: p.externalId })}`,
        { id: p.id, status: p.status, amount: p.amount, external_id: p.externalId });
    }
    ok(r, step, res, p.status === 'PENDING' ? 'get' : 'get after a transition');
  }
  toString(): string { return `get(${this.key ?? 'own'}, p${this.h})`; }
}

/** list?external_id= with pN's external_id (e0's when pN has none, or before any create), by pN's own or another key. */
class ListCmd implements Cmd {
  constructor(readonly key: KeyName | null, readonly h: number, readonly status: string | null) {}
  check(): boolean { return true; }
  async run(m: Model, r: Real): Promise<void> {
    const p = m.handles.length > 0 ? pick(m, this.h)[0] : undefined;
    const k = r.keys[this.key ?? reader(r, p)]!;
    const ext = p?.externalId ?? `${r.prefix}-e0`;
    const res = await r.t.client.listPayments(k.key, { external_id: ext, ...(this.status ? { status: this.status } : {}) });
    const step = `${this} [external_id=…${ext.slice(r.prefix.length)}]`;
    const want = m.handles.filter((h) => h.scope === k.scope && h.externalId === ext && (this.status === null || h.status === this.status));
    if (res.status !== 200 || !Array.isArray(res.json?.data)) fail(r, step, res, `answered ${describe(res)}, the model expects 200 with a list`, { status: 200 });
    const got = (res.json.data as any[]).map((p) => ({ id: p?.id, status: p?.status }));
    const exp = want.map((h) => ({ id: h.id, status: h.status }));
    if (JSON.stringify(got) !== JSON.stringify(exp)) fail(r, step, res, `listed ${short(got)}, the model expects ${short(exp)}`, exp);
    if (res.json.has_more !== false) fail(r, step, res, `has_more is ${short(res.json.has_more)} with at most one match`, { has_more: false });
    r.trace.push(`${r.trace.length + 1}. ${step} → 200 [${got.map((g) => `${g.id} ${g.status}`).join(', ')}]`);
    const holder = m.handles.find((h) => h.scope === k.scope && h.externalId === ext);
    const kind = holder === undefined ? 'list: no Payment with it in the key\'s business and environment'
      : holder.status === 'PENDING' ? 'list: PENDING Payment' : 'list: Payment after a transition';
    r.stats.set(kind, (r.stats.get(kind) ?? 0) + 1);
  }
  toString(): string { return `list(${this.key ?? 'own'}, ext of p${this.h}${this.status ? `, status=${this.status}` : ''})`; }
}

/**
 * A generated sequence. Printed (fast-check's counterexample) as the commands up to the one
 * that failed; the commands after it never ran and are only counted.
 */
class Script implements Iterable<Cmd> {
  reached: number;
  constructor(readonly cmds: readonly Cmd[]) { this.reached = cmds.length; }
  /** asyncModelRun chains every command up front: the reached index is taken when a command is checked. */
  *[Symbol.iterator](): Iterator<Cmd> {
    this.reached = 0;
    for (const [i, c] of this.cmds.entries()) {
      yield {
        check: (m: Readonly<Model>) => {
          this.reached = i + 1;
          return c.check(m);
        },
        run: (m: Model, r: Real) => c.run(m, r),
        toString: () => c.toString(),
      };
    }
  }
  toString(): string {
    const rest = this.cmds.length - this.reached;
    return `${this.cmds.slice(0, this.reached).join('; ')}${rest > 0 ? ` /* ${rest} later command(s) not reached */` : ''}`;
  }
}

ruleTest('MODEL-SEQUENCES', async (t) => {
  const keys: Record<string, KeyInfo> = { test: { name: 'test', key: t.keys.test, scope: 'A/test', live: false, read: true } };
  // A second API key of the same business and environment (write-only): idempotency keys are
  // scoped to the API key, while Payments are shared by the business and environment.
  if (t.keys.test_write_only) keys.test_w = { name: 'test_w', key: t.keys.test_write_only, scope: 'A/test', live: false, read: false };
  if (t.keys.other_test) keys.other = { name: 'other', key: t.keys.other_test, scope: 'B/test', live: false, read: true };
  if (t.keys.live) keys.live = { name: 'live', key: t.keys.live, scope: 'A/live', live: true, read: true };
  if (t.keys.other_live) keys.other_live = { name: 'other_live', key: t.keys.other_live, scope: 'B/live', live: true, read: true };
  const liveWrites = t.profile.probes?.live_writes === true;
  const all = Object.keys(keys) as KeyName[];
  const readers = all.filter((n) => keys[n]!.read);
  // Creates: A's Test key, B's Test key, and A's Live key (the profile promises A's Live side
  // is ready and has credit; nothing is promised of B's). Other writes may use any Live key.
  const creators = all.filter((n) => n !== 'other_live' && (!keys[n]!.live || liveWrites));
  const writers = all.filter((n) => !keys[n]!.live || liveWrites);
  const handle = fc.nat({ max: 3 });
  const anyKey = fc.constantFrom(...all);
  const anyReader = fc.constantFrom(...readers);
  const writer = fc.constantFrom(...writers);
  const creator = fc.constantFrom(...creators);

  // Two thirds of the commands on pN use the key that created it (null = "own"), the rest any key.
  const own = <K extends KeyName>(arb: fc.Arbitrary<K>): fc.Arbitrary<K | null> =>
    fc.oneof({ weight: 2, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });
  // Creates carry an Idempotency-Key 3 times in 4 and an external_id (one of three labels) 4 in 5.
  const create: fc.Arbitrary<Cmd> = fc.tuple(creator, fc.integer({ min: 1, max: 500_000 }), fc.nat({ max: 3 }).map((n) => n > 0), fc.option(fc.constantFrom(...EXT_LABELS), { freq: 5 }))
    .map(([k, c, i, e]) => new CreateCmd(k, c, i, e));
  const command: fc.Arbitrary<Cmd> = fc.oneof(
    { weight: 3, arbitrary: create },
    { weight: 5, arbitrary: fc.tuple(handle, own(creator)).map(([h, as]) => new ReplayCmd(h, as)) },
    { weight: 1, arbitrary: fc.tuple(handle, fc.integer({ min: 1, max: 10_000 })).map(([h, d]) => new ConflictCmd(h, d)) },
    { weight: 2, arbitrary: fc.tuple(own(writer), handle).map(([k, h]) => new TransitionCmd('cancel', k, h)) },
    { weight: 2, arbitrary: fc.tuple(own(anyKey), handle).map(([k, h]) => new TransitionCmd('helperSucceed', k, h)) },
    { weight: 2, arbitrary: fc.tuple(own(anyKey), handle).map(([k, h]) => new TransitionCmd('helperCancel', k, h)) },
    { weight: 2, arbitrary: fc.tuple(own(anyReader), handle).map(([k, h]) => new GetCmd(k, h)) },
    { weight: 4, arbitrary: fc.tuple(own(anyReader), handle, fc.option(fc.constantFrom('PENDING', 'PAID', 'CANCELLED'), { freq: 2 }))
      .map(([k, h, s]) => new ListCmd(k, h, s)) },
  );

  let sequences = 0;
  let steps = 0;
  const stats = new Map<string, number>();
  // A sequence opens with a create (nothing else has a Payment to act on), then up to 14 commands.
  const script = fc.noBias(fc.tuple(create, fc.array(command, { minLength: 1, maxLength: 14, size: 'max' })))
    .map(([first, rest]) => new Script([first, ...rest]));
  // Sequences are independent of one another (each its own Payments, external ids and
  // Idempotency-Keys under its own marker): a few run side by side, each one step after another.
  await batched(t, script, async (cmds) => {
    const real: Real = { t, stats, keys, prefix: t.externalId('m'), creates: 0, trace: [] };
    await fc.asyncModelRun(() => ({ model: { handles: [], idem: new Map() }, real }), cmds);
    sequences++;
    steps += real.trace.length;
  }, share(t.runs, 0.25), SEQUENCES_AT_ONCE);
  t.note(`${sequences} sequences, ${steps} steps, keys ${all.join(', ')}${liveWrites ? '' : ' (Live: reads and helpers only, probes.live_writes is off)'}; every step agreed with the model`);
  t.note(`steps by kind: ${[...stats].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ')}`);
});

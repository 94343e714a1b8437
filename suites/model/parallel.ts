/**
 * MODEL-SEQUENCES' last step: 2 to 4 commands sent at once (every request started before any answer
 * is awaited), from the state the sequence reached; their answers and the read after them must be
 * those of SOME order of the same commands run one by one against the model (linearizability, as
 * Erlang QuickCheck's parallel state machines and Knossos check it; the model of the moves is
 * ../_shared/linearizable.ts). The order found is then the sequence's state.
 *  - keys: creates sharing an external_id, each its own Idempotency-Key, under A's Test keys in turn;
 *  - no-keys: the same, without Idempotency-Keys;
 *  - replays: one new create sent n times (one key, one body): one Payment;
 *  - mixed: a create, its replay, another key's create and a keyless one, sharing the external_id;
 *  - race: cancel and the succeed helper in turn on pN (under the key that made it).
 * The external_id is one of the sequence's (maybe held already: every create then conflicts) or new.
 * A branch answered 429 is back-pressure: left out of the history, never judged.
 */
import { Mismatch, countCheck } from '../../service/harness/worker/expect.ts';
import {
  answerOf, describeAnswer, describeCommand, linearize, type Branch, type Command, type ModelState,
} from '../_shared/linearizable.ts';
import { idemKey, money, readerOf, remember, tally, type Cmd, type KeyName, type Model, type Real } from './model.ts';

export const PARALLEL_KINDS = ['keys', 'no-keys', 'replays', 'mixed', 'race'] as const;
export type ParallelKind = (typeof PARALLEL_KINDS)[number];

interface Planned {
  readonly label: string;
  readonly cmd: Command;
  readonly keyName: KeyName;
  readonly body: Record<string, unknown> | null;
  readonly idem: string | null;
}

/** The model's state in one business and environment, as the linearizability check reads it (Idempotency-Keys by API key). */
function stateOf(m: Readonly<Model>, r: Real, scope: string): ModelState {
  const payments = new Map(m.handles.filter((h) => h.scope === scope).map((h) => [h.id, { ext: h.externalId, status: h.status }] as const));
  const keys = new Map<string, { body: string; id: string }>();
  for (const [k, v] of m.idem) {
    const name = k.split('\u0000')[0]!;
    if (r.keys[name]?.scope === scope) keys.set(k, { body: v.body, id: m.handles[v.handle]!.id });
  }
  return { payments, keys };
}

/** (key slot, body slot) per branch: the slot's API key is A's Test keys in turn; a null key slot sends no Idempotency-Key. */
function createSlots(kind: ParallelKind, n: number): Array<{ key: number | null; body: number }> {
  const all = Array.from({ length: n }, (_, i) => i);
  switch (kind) {
    case 'keys': return all.map((i) => ({ key: i, body: i }));
    case 'no-keys': return all.map((i) => ({ key: null, body: i }));
    case 'replays': return all.map(() => ({ key: 0, body: 0 }));
    default: return [{ key: 0, body: 0 }, { key: 0, body: 0 }, { key: 1, body: 1 }, { key: null, body: 2 }].slice(0, Math.max(2, n));
  }
}

function plannedCreates(r: Real, kind: ParallelKind, n: number, ext: string): Planned[] {
  const writers = (['test', 'test_w'] as const).filter((k) => r.keys[k] !== undefined);
  const idems = new Map<number, string>();
  return createSlots(kind, n).map((s, i) => {
    const keyName = s.key === null ? writers[i % writers.length]! : writers[s.key % writers.length]!;
    const body = { amount: money(1000 + 100 * s.body), external_id: ext, metadata: r.t.metadata({ suite: 'model' }) };
    const idem = s.key === null ? null : idems.get(s.key) ?? idems.set(s.key, `${r.prefix}-k${++r.creates}`).get(s.key)!;
    const cmd: Command = { op: 'create', idem: idem === null ? null : idemKey(keyName, idem), ext, body: JSON.stringify(body) };
    return { label: `b${i + 1}`, cmd, keyName, body, idem };
  });
}

function send(r: Real, p: Planned) {
  const key = r.keys[p.keyName]!.key;
  if (p.cmd.op === 'create') return r.t.client.createPayment(key, p.body!, p.idem === null ? {} : { idempotencyKey: p.idem });
  return p.cmd.op === 'cancel' ? r.t.client.cancelPayment(key, p.cmd.payment) : r.t.client.simulateSucceeded(key, p.cmd.payment);
}

/** What the read after the group shows, and the judge of an order's end state against it. */
interface ReadBack { readonly shows: string; readonly judge: (end: ModelState) => string | null }

async function readBack(r: Real, scope: string, planned: readonly Planned[]): Promise<ReadBack> {
  const first = planned[0]!.cmd;
  if (first.op !== 'create') {
    const g = await r.t.client.getPayment(r.keys[readerOf(r, scope) ?? 'test']!.key, first.payment);
    const got = g.status === 200 ? String(g.json?.status) : `${g.status} ${g.json?.error?.code ?? ''}`;
    const judge = (end: ModelState) => (end.payments.get(first.payment)?.status === got ? null : `reads ${got}`);
    return { shows: `get ${first.payment} → ${got}`, judge };
  }
  const res = await r.t.client.listPayments(r.keys.test!.key, { external_id: first.ext! });
  const listed = (Array.isArray(res.json?.data) ? res.json.data as any[] : []).map((p) => String(p?.id)).sort();
  const shows = `list external_id=${first.ext} → ${res.status} [${listed.join(', ')}]`;
  return {
    shows,
    judge: (end) => {
      const model = [...end.payments].filter(([, p]) => p.ext === first.ext).map(([id]) => id).sort();
      return model.join() === listed.join() ? null : `lists [${listed.join(', ')}], this order ends with [${model.join(', ')}]`;
    },
  };
}

/** The order found is the sequence's state from now on: its new Payments and Idempotency-Keys, every status. */
function adopt(m: Model, scope: string, end: ModelState, branches: readonly Branch[], planned: readonly Planned[]): void {
  for (const h of m.handles) if (h.scope === scope) h.status = end.payments.get(h.id)?.status ?? h.status;
  for (const [id, p] of end.payments) {
    if (m.handles.some((h) => h.id === id)) continue;
    const i = branches.findIndex((b) => b.answer.id === id && b.answer.status === 201);
    const made = planned.find((x) => x.label === branches[i]?.label);
    if (made?.body) remember(m, made.keyName, scope, id, made.body, made.idem);
    if (made === undefined) {
      m.handles.push({ id, key: 'test', scope, status: p.status, amount: '0.00', externalId: p.ext, idem: null, body: {} });
    }
  }
}

export class ParallelCmd implements Cmd {
  constructor(readonly kind: ParallelKind, readonly n: number, readonly h: number, readonly ext: string | null) {}
  check(): boolean { return true; }
  async run(m: Model, r: Real): Promise<void> {
    const tests = m.handles.filter((x) => !r.keys[x.key]!.live);
    const p = this.kind === 'race' && tests.length > 0 ? tests[this.h % tests.length] : undefined;
    if (this.kind === 'race' && p === undefined) return tally(r, 'parallel race: no Test Payment to race on');
    const scope = p?.scope ?? r.keys.test!.scope;
    const ext = this.ext === null ? `${r.prefix}-n${++r.creates}` : `${r.prefix}-${this.ext}`;
    const planned: Planned[] = p === undefined ? plannedCreates(r, this.kind, this.n, ext)
      : Array.from({ length: this.n }, (_, i): Planned => ({
        label: `b${i + 1}`, cmd: { op: i % 2 === 0 ? 'cancel' : 'succeed', payment: p.id }, keyName: p.key, body: null, idem: null,
      }));
    const initial = stateOf(m, r, scope);
    const answers = await Promise.all(planned.map((x) => send(r, x))); // every request started before any is awaited
    const branches: Branch[] = planned.flatMap((x, i) =>
      (answers[i]!.status === 429 ? [] : [{ label: x.label, cmd: x.cmd, answer: answerOf(answers[i]!) }]));
    if (branches.length < planned.length) tally(r, 'parallel: a branch answered 429 (back-pressure, left out)');
    if (branches.length === 0) return;
    const read = await readBack(r, scope, planned);
    const verdict = linearize(initial, branches, read.judge);
    countCheck();
    const lines = branches.map((b) => `${b.label} ${describeCommand(b.cmd)} → ${describeAnswer(b.answer)}`);
    r.trace.push(`${r.trace.length + 1}. ${this} sent at once: ${lines.join('; ')}; then ${read.shows}`);
    if (verdict.end === null) {
      const tried = verdict.tried.map((o) => `    ${o.order.join(' ')}: ${o.broke}`);
      throw new Mismatch(
        `step ${r.trace.length} ${this}: no order of the ${branches.length} commands sent at once, run one by one against the model, ` +
          `gives these answers and the read (${verdict.tried.length} orders tried)\n${r.trace.join('\n')}\n` +
          `  orders tried:\n${tried.join('\n')}`,
        { linearizable: 'some order of the branches, run one by one against the model, gives every answer and the read' },
        { branches: lines, read: read.shows, tried: verdict.tried, trace: r.trace },
      );
    }
    adopt(m, scope, verdict.end, branches, planned);
    tally(r, `parallel ${this.kind} (${branches.length} at once)`);
  }
  toString(): string {
    const on = this.kind === 'race' ? `p${this.h}` : `ext=${this.ext ?? 'new'}`;
    return `parallel(${this.kind} x${this.n}, ${on})`;
  }
}

/**
 * A small sequential model of creates (Rules 1, 3 and 4) and of the moves of one PENDING Payment
 * (States and transitions), and a linearizability check against it: commands sent at once (2 to 4
 * branches) must have answered as SOME order of the same commands run one by one would have, and
 * the read after them must show that order's end state. With at most 4 branches every order is
 * tried (at most 24), as Erlang QuickCheck's parallel state machines and Knossos do on a history
 * whose operations all overlap.
 *
 * What the model says of one command, given the state its order has reached:
 *  - create with an Idempotency-Key already holding a created Payment: the same body answers 201
 *    with that Payment's id (Rule 1), another body 409 idempotency_conflict (Rule 2);
 *  - create with an external_id some Payment of the state holds: 409 external_id_conflict (Rule 4);
 *  - otherwise create: 201 with a new id (bound to the answer), PENDING, its key kept;
 *  - 409 idempotency_in_progress (Rule 3) changes nothing and is accepted for a create only while
 *    another branch with the same Idempotency-Key was in flight and was itself processed (not
 *    answered in_progress): all branches overlap, so "in flight" is every sibling;
 *  - cancel or succeed of a PENDING Payment: 200 with the Payment CANCELLED or PAID; of any other
 *    state: 409 invalid_transition.
 * Whether a refused create keeps its key is not shown: after one, the same key with the same body is
 * evaluated anew (a kept refusal replays the same code here), with another body it may also answer
 * 409 idempotency_conflict.
 */

import type { ApiResponse } from '../../core/client.ts';

export type Command =
  | { readonly op: 'create'; readonly idem: string | null; readonly ext: string | null; readonly body: string }
  | { readonly op: 'cancel' | 'succeed'; readonly payment: string };

/** What a branch was answered: the status, the error code or the Payment's id and status. */
export interface Answer {
  readonly status: number;
  readonly code: string | null;
  readonly id: string | null;
  readonly state: string | null;
}

export interface Branch {
  readonly label: string;
  readonly cmd: Command;
  readonly answer: Answer;
}

export interface ModelState {
  /** Payment id → its external_id and status. */
  readonly payments: ReadonlyMap<string, { readonly ext: string | null; readonly status: string }>;
  /** Idempotency-Key → the body first accepted under it and the Payment it made. */
  readonly keys: ReadonlyMap<string, { readonly body: string; readonly id: string }>;
  /** Idempotency-Key → the bodies refused under it (whether a refused create keeps its key is not shown). */
  readonly refused?: ReadonlyMap<string, readonly string[]>;
}

/** One order tried: the branches' labels in that order, and where it broke (null: it explains every answer and the read). */
export interface Tried {
  readonly order: readonly string[];
  readonly broke: string | null;
}

export interface Verdict {
  /** The first order that explains the answers and the read, or null. */
  readonly order: readonly string[] | null;
  readonly tried: readonly Tried[];
  /** The state that order ends in (null with no order). */
  readonly end: ModelState | null;
}

type Step = { readonly state: ModelState } | { readonly wrong: string };

/** What a branch was answered, as the model reads it. */
export function answerOf(res: ApiResponse): Answer {
  const error = res.status >= 400 ? res.json?.error : undefined;
  return {
    status: res.status,
    code: error === undefined ? null : String(error?.code ?? ''),
    id: error === undefined && typeof res.json?.id === 'string' ? res.json.id : null,
    state: error === undefined && typeof res.json?.status === 'string' ? res.json.status : null,
  };
}

export function describeAnswer(a: Answer): string {
  if (a.code !== null) return `${a.status} ${a.code}`;
  return [String(a.status), a.id ?? '', a.state ?? ''].filter((s) => s !== '').join(' ');
}

export function describeCommand(c: Command): string {
  if (c.op !== 'create') return `${c.op}(${c.payment})`;
  const key = c.idem === null ? 'no Idempotency-Key' : `key …${c.idem.slice(-6)}`;
  return `create(${key}, ${c.ext === null ? 'no external_id' : 'the external_id'})`;
}

const expecting = (a: Answer, want: string): Step => ({ wrong: `answered ${describeAnswer(a)}, the model expects ${want}` });

function withPayment(s: ModelState, id: string, ext: string | null, status: string): ModelState {
  return { ...s, payments: new Map(s.payments).set(id, { ext, status }) };
}

function withRefused(s: ModelState, key: string, body: string): ModelState {
  return { ...s, refused: new Map(s.refused).set(key, [...(s.refused?.get(key) ?? []), body]) };
}

function create(s: ModelState, c: Extract<Command, { op: 'create' }>, a: Answer, inProgressOk: boolean): Step {
  if (a.status === 409 && a.code === 'idempotency_in_progress') {
    return inProgressOk ? { state: s } : { wrong: 'answered 409 idempotency_in_progress, but no other request with its key was processed' };
  }
  const kept = c.idem === null ? undefined : s.keys.get(c.idem);
  const conflict = a.status === 409 && a.code === 'idempotency_conflict';
  // A key a refused create may have kept: another body under it may be refused as a conflict, or evaluated anew.
  if (kept === undefined && conflict && (s.refused?.get(c.idem ?? '') ?? []).some((body) => body !== c.body)) return { state: s };
  if (kept !== undefined && kept.body !== c.body) return conflict ? { state: s } : expecting(a, '409 idempotency_conflict');
  if (kept !== undefined) return a.status === 201 && a.id === kept.id ? { state: s } : expecting(a, `201 ${kept.id} (the original result)`);
  const holder = c.ext === null ? undefined : [...s.payments].find(([, p]) => p.ext === c.ext)?.[0];
  if (holder !== undefined) {
    if (a.status !== 409 || a.code !== 'external_id_conflict') {
      return expecting(a, `409 external_id_conflict (${holder} holds the external_id)`);
    }
    return { state: c.idem === null ? s : withRefused(s, c.idem, c.body) };
  }
  const fresh = a.status === 201 && a.id !== null && !s.payments.has(a.id) && a.state === 'PENDING';
  if (!fresh || a.id === null) return expecting(a, '201 with a new PENDING Payment');
  const next = withPayment(s, a.id, c.ext, 'PENDING');
  return { state: c.idem === null ? next : { ...next, keys: new Map(s.keys).set(c.idem, { body: c.body, id: a.id }) } };
}

function move(s: ModelState, c: Extract<Command, { op: 'cancel' | 'succeed' }>, a: Answer): Step {
  const p = s.payments.get(c.payment);
  if (p === undefined) return { wrong: `${c.payment} is not in the model` };
  if (p.status !== 'PENDING') {
    return a.status === 409 && a.code === 'invalid_transition' ? { state: s } : expecting(a, `409 invalid_transition (it is ${p.status})`);
  }
  const to = c.op === 'cancel' ? 'CANCELLED' : 'PAID';
  if (a.status !== 200 || a.id !== c.payment || a.state !== to) return expecting(a, `200 ${c.payment} ${to}`);
  return { state: withPayment(s, c.payment, p.ext, to) };
}

/** Whether a branch may answer idempotency_in_progress: a sibling with its key was processed. */
function inProgressAllowed(branches: readonly Branch[], i: number): boolean {
  const c = branches[i]!.cmd;
  if (c.op !== 'create' || c.idem === null) return false;
  return branches.some((b, j) => j !== i && b.cmd.op === 'create' && b.cmd.idem === c.idem && b.answer.code !== 'idempotency_in_progress');
}

function permutations(n: number): number[][] {
  if (n === 0) return [[]];
  return permutations(n - 1).flatMap((p) => Array.from({ length: n }, (_, k) => [...p.slice(0, k), n - 1, ...p.slice(k)]));
}

/**
 * Tries every order of the branches against the model from `initial`; `read` judges the end state
 * of an order that explains every answer (the follow-up read), returning what differs or null.
 */
export function linearize(initial: ModelState, branches: readonly Branch[], read: (end: ModelState) => string | null): Verdict {
  const tried: Tried[] = [];
  const orders = permutations(branches.length).sort((x, y) => x.join().localeCompare(y.join()));
  for (const order of orders) {
    let state = initial;
    let broke: string | null = null;
    for (const i of order) {
      const b = branches[i]!;
      const step = b.cmd.op === 'create' ? create(state, b.cmd, b.answer, inProgressAllowed(branches, i)) : move(state, b.cmd, b.answer);
      if ('wrong' in step) {
        broke = `${b.label} ${step.wrong}`;
        break;
      }
      state = step.state;
    }
    if (broke === null) {
      const differs = read(state);
      if (differs !== null) broke = `every answer fits, but the read after ${differs}`;
    }
    const labels = order.map((i) => branches[i]!.label);
    tried.push({ order: labels, broke });
    if (broke === null) return { order: labels, tried, end: state };
  }
  return { order: null, tried, end: null };
}

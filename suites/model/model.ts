/**
 * The model of MODEL-SEQUENCES (./sequences.rules.ts): what the spec says the service holds after
 * each step of a sequence, and the checks every command shares. One sequence's Payments, external
 * ids and Idempotency-Keys carry its own marker, so nothing else on a shared target meets them.
 */
import type fc from 'fast-check';
import type { ApiResponse } from '../../core/client.ts';
import type { RuleContext } from '../../service/harness/worker/rule-test.ts';
import { countCheck, decimalEquals, Mismatch, short } from '../../service/harness/worker/expect.ts';

/** `rl`: keys.test_rate_limited (A, Test), used only by the throttled create (./throttle.ts), never drawn at random. */
export type KeyName = 'test' | 'test_w' | 'other' | 'live' | 'other_live' | 'rl';
/** scope: business/environment, what the spec says a key alone determines. read: has payments:read. */
export interface KeyInfo { name: KeyName; key: string; scope: string; live: boolean; read: boolean }

export interface Handle {
  id: string;
  key: KeyName;
  scope: string;
  status: string;
  amount: string;
  externalId: string | null;
  idem: string | null;
  body: Record<string, unknown>;
  /** created_at as the create answered it (null when the model learnt of the Payment another way). */
  createdAt?: string | null;
}

/** A create the service refused (./refusals.ts): what the retry after it sends again. */
export interface Refused {
  /** The API key a valid retry goes under: the refused one's, or A's Test key when that one cannot create. */
  readonly retryAs: KeyName;
  /** The refusal went under this API key (a refused result it kept is then met by the retry: Rule 2). */
  readonly sameKey: boolean;
  readonly idem: string | null;
  readonly valid: Record<string, unknown>;
  readonly what: string;
}

/** One way to have a create refused, as this profile allows. */
export interface Stage {
  readonly name: string;
  /** The API key the refused create goes under (null: a well-formed key the service never issued). */
  readonly keyName: KeyName | null;
  readonly refused: Readonly<Record<string, unknown>>;
  readonly valid: Readonly<Record<string, unknown>>;
  readonly status: number;
  readonly codes: readonly string[];
  /** The refusal rests on a profile fixture (a foreign customer, a cancelled order, live_receiving): a wrong answer is its own rule's. */
  readonly fixture: boolean;
}

export interface Model {
  handles: Handle[];
  /** (API key name, Idempotency-Key) → the body first accepted and the Payment it made. */
  idem: Map<string, { body: string; handle: number }>;
  /** The creates refused so far, oldest first. */
  refused: Refused[];
}

export interface Real {
  t: RuleContext;
  /** What the steps exercised, by kind (reported as a note: the coverage of the run). */
  stats: Map<string, number>;
  keys: Record<string, KeyInfo>;
  prefix: string;
  creates: number;
  trace: string[];
  /** The refusals this profile can provoke (./refusals.ts). */
  stages: readonly Stage[];
  /** A well-formed key the service never issued (the 401 stage). */
  unknownKey: string;
}

export type Cmd = fc.AsyncCommand<Model, Real, false>;

export const money = (cents: number): string => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
export const idemKey = (keyName: KeyName, idem: string): string => `${keyName}\u0000${idem}`;

export function describe(res: ApiResponse): string {
  const code = res.json?.error?.code;
  if (code) return `${res.status} ${code}`;
  return `${res.status}${res.json?.id ? ` ${res.json.id}` : ''}${res.json?.status ? ` ${res.json.status}` : ''}`;
}

/** Fails the step: the message names the step and what differed; the trace goes along as evidence. */
export function fail(r: Real, step: string, res: ApiResponse | null, message: string, expected: unknown): never {
  countCheck();
  r.trace.push(`${r.trace.length + 1}. ${step} → ${res ? describe(res) : '?'}  ✗ ${message}`);
  throw new Mismatch(`step ${r.trace.length} ${step}: ${message}\n${r.trace.join('\n')}`, expected,
    { status: res?.status, body: res?.json ?? res?.text.slice(0, 300), trace: r.trace });
}

export function tally(r: Real, kind: string): void {
  r.stats.set(kind, (r.stats.get(kind) ?? 0) + 1);
}

export function ok(r: Real, step: string, res: ApiResponse, kind: string): void {
  passed(r, `${step} → ${describe(res)}`, kind);
}

/** A step that agreed with the model: counted, traced and tallied by kind (kind null: not tallied). */
export function passed(r: Real, line: string, kind: string | null): void {
  countCheck();
  r.trace.push(`${r.trace.length + 1}. ${line}`);
  if (kind !== null) tally(r, kind);
}

export function expectErr(r: Real, step: string, res: ApiResponse, status: number, codes: readonly string[], kind: string): void {
  const code = res.json?.error?.code;
  if (res.status !== status || !codes.includes(code)) {
    fail(r, step, res, `answered ${describe(res)}, the model expects ${status} ${codes.join(' or ')}`, { status, code: codes });
  }
  ok(r, step, res, kind);
}

/** The key a read command uses for "own": pN's creator, or A's Test key when the creator cannot read (test_w, also A/Test). */
export function reader(r: Real, p: Handle | undefined): KeyName {
  return p !== undefined && r.keys[p.key]!.read ? p.key : 'test';
}

/** A key that can read `scope` (the sequence's keys all have a name for each scope they cover). */
export function readerOf(r: Real, scope: string): KeyName | undefined {
  return (Object.values(r.keys).find((k) => k.scope === scope && k.read)?.name);
}

export function pick(m: Readonly<Model>, h: number): [Handle, number] {
  const i = h % m.handles.length;
  return [m.handles[i]!, i];
}

export const label = (m: Readonly<Model>, i: number): string => `p${i}=${m.handles[i]!.id}`;

/** A new Payment the model expects: its problems against the body sent under `k`, or an empty list. */
function newPaymentProblems(m: Readonly<Model>, k: KeyInfo, body: Record<string, unknown>, p: any): string[] {
  const ext = typeof body.external_id === 'string' ? body.external_id : null;
  const problems: string[] = [];
  if (typeof p.id !== 'string' || p.id === '') problems.push('no id');
  else if (m.handles.some((h) => h.id === p.id)) problems.push(`id ${p.id} is the id of an earlier Payment`);
  if (p.status !== 'PENDING') problems.push(`status ${short(p.status)}, not PENDING`);
  if (p.livemode !== k.live) problems.push(`livemode ${short(p.livemode)} under a ${k.live ? 'Live' : 'Test'} key`);
  if (!decimalEquals(p.amount, body.amount)) problems.push(`amount ${short(p.amount)}, sent ${short(body.amount)}`);
  if ((p.external_id ?? null) !== ext) problems.push(`external_id ${short(p.external_id)}, sent ${short(ext)}`);
  return problems;
}

/** Adds a Payment the service made to the model (and its Idempotency-Key, when it had one). */
export function remember(
  m: Model, keyName: KeyName, scope: string, id: string, body: Record<string, unknown>, idem: string | null, createdAt: unknown = null,
): number {
  const ext = typeof body.external_id === 'string' ? body.external_id : null;
  const at = typeof createdAt === 'string' ? createdAt : null;
  m.handles.push({ id, key: keyName, scope, status: 'PENDING', amount: String(body.amount), externalId: ext, idem, body, createdAt: at });
  if (idem !== null) m.idem.set(idemKey(keyName, idem), { body: JSON.stringify(body), handle: m.handles.length - 1 });
  return m.handles.length - 1;
}

/**
 * Judges a create's answer against the model: replay, idempotency conflict, external_id conflict
 * or a new PENDING Payment (which the model then holds).
 */
export function judgeCreate(
  m: Model, r: Real, step: string, keyName: KeyName, body: Record<string, unknown>, idem: string | null, res: ApiResponse,
): void {
  const k = r.keys[keyName]!;
  const prior = idem === null ? undefined : m.idem.get(idemKey(keyName, idem));
  if (prior !== undefined) {
    if (prior.body !== JSON.stringify(body)) return expectErr(r, step, res, 409, ['idempotency_conflict'], 'idempotency_conflict');
    const original = m.handles[prior.handle]!;
    const want = { status: 201, id: original.id };
    if (res.status !== 201) {
      fail(r, step, res, `a replay (same key, same body) answered ${describe(res)}, the original answer was 201`, want);
    }
    if (res.json?.id !== original.id) {
      const made = `the original create made ${original.id} (${label(m, prior.handle)})`;
      fail(r, step, res, `a replay returned id ${short(res.json?.id)}, ${made}`, want);
    }
    const kind = original.status === 'PENDING' ? 'replay' : 'replay after a transition';
    return ok(r, `${step} [replay of p${prior.handle}, now ${original.status}]`, res, kind);
  }
  const ext = typeof body.external_id === 'string' ? body.external_id : null;
  if (ext !== null && m.handles.some((h) => h.scope === k.scope && h.externalId === ext)) {
    return expectErr(r, step, res, 409, ['external_id_conflict'], 'external_id_conflict');
  }
  if (res.status !== 201) fail(r, step, res, `answered ${describe(res)}, the model expects 201 (a new Payment)`, { status: 201 });
  const problems = newPaymentProblems(m, k, body, res.json ?? {});
  if (problems.length) {
    fail(r, step, res, problems.join('; '), { status: 'PENDING', livemode: k.live, amount: body.amount, external_id: ext });
  }
  const shared = idem !== null && [...m.idem.keys()].some((x) => x.endsWith(`\u0000${idem}`));
  const n = remember(m, keyName, k.scope, res.json.id, body, idem, res.json.created_at);
  ok(r, `${step} [new p${n}]`, res, shared ? 'same Idempotency-Key, other API key: new' : 'create');
}

/** Sends a create and judges it (judgeCreate). */
export async function sendCreate(
  m: Model, r: Real, step: string, keyName: KeyName, body: Record<string, unknown>, idem: string | null,
): Promise<void> {
  const res = await r.t.client.createPayment(r.keys[keyName]!.key, body, idem === null ? {} : { idempotencyKey: idem });
  judgeCreate(m, r, step, keyName, body, idem, res);
}

/**
 * Helpers of the transitions suite (spec: "States and transitions"): reaching each state
 * through the public API (Test key, test helpers, cancelPayment) and the profile's control
 * API (PAID → REVERSED), and judging the timestamps a state implies, compared as instants.
 */
import { Client, type ApiResponse } from '../../core/client.ts';
import { profileSecrets } from '../../core/profile.ts';
import { clientForProfile } from '../../core/client-for-profile.ts';
import type { RuleContext } from '../../service/harness/worker/rule-test.ts';
import { expectError, expectStatus, expectTrue, Mismatch } from '../../service/harness/worker/expect.ts';

// ───────────────────────────── instants ─────────────────────────────

// RFC 3339 §5.6 date-time ("T"/"Z" in either case, any number of fraction digits).
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/**
 * The instant a date-time names, in nanoseconds since the epoch (exact: no float, every
 * fraction digit down to nanoseconds kept), or null when it is not an RFC 3339 date-time.
 */
export function instantOf(value: unknown): bigint | null {
  if (typeof value !== 'string') return null;
  const m = RFC3339.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac = '', , sign, oh, om] = m;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (Number.isNaN(ms)) return null;
  const offsetMin = sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
  const nanosFraction = BigInt((frac + '000000000').slice(0, 9));
  return (BigInt(ms) - BigInt(offsetMin) * 60_000n) * 1_000_000n + nanosFraction;
}

/** A timestamp field "not set": absent or null (the fields are optional, "string or null"). */
export function unset(v: unknown): boolean {
  return v === undefined || v === null;
}

function show(v: unknown): string {
  return v === undefined ? 'absent' : JSON.stringify(v);
}

/** `field` of `p` is a date-time not before `p.created_at`. */
export function expectSetNotBeforeCreated(p: any, field: 'paid_at' | 'cancelled_at', what: string): void {
  const at = instantOf(p?.[field]);
  expectTrue(at !== null, `${what}: ${field} is ${show(p?.[field])}, expected a date-time (status ${p?.status})`, 'a date-time', p?.[field] ?? null);
  const created = instantOf(p?.created_at);
  expectTrue(created !== null, `${what}: created_at is ${show(p?.created_at)}, expected a date-time`, 'a date-time', p?.created_at ?? null);
  expectTrue(at >= created, `${what}: ${field} ${p[field]} is before created_at ${p.created_at}`, `>= ${p.created_at}`, p[field]);
}

export function expectUnset(p: any, field: 'paid_at' | 'cancelled_at', what: string): void {
  expectTrue(unset(p?.[field]), `${what}: ${field} is ${show(p?.[field])} on a ${p?.status} Payment, expected it not set`, null, p?.[field]);
}

/** Two date-time values (or both unset) name the same instant. */
export function sameInstant(a: unknown, b: unknown): boolean {
  if (unset(a) || unset(b)) return unset(a) && unset(b);
  const ia = instantOf(a);
  return ia !== null && ia === instantOf(b);
}

export function expectSameInstant(actual: unknown, expected: unknown, what: string): void {
  expectTrue(sameInstant(actual, expected), `${what}: ${show(actual)}, expected the same instant as ${show(expected)}`, expected ?? null, actual ?? null);
}

/**
 * The timestamps a state implies: PENDING neither, PAID paid_at (cancelled_at not set),
 * CANCELLED cancelled_at (paid_at not set); each set one a date-time not before created_at.
 * What REVERSED keeps is not shown: it is left to the caller to observe.
 */
export function expectTimestampsOfState(p: any, what: string): void {
  const created = instantOf(p?.created_at);
  expectTrue(created !== null, `${what}: created_at is ${show(p?.created_at)}, expected a date-time`, 'a date-time', p?.created_at ?? null);
  switch (p?.status) {
    case 'PENDING':
      expectUnset(p, 'paid_at', what);
      expectUnset(p, 'cancelled_at', what);
      break;
    case 'PAID':
      expectSetNotBeforeCreated(p, 'paid_at', what);
      expectUnset(p, 'cancelled_at', what);
      break;
    case 'CANCELLED':
      expectSetNotBeforeCreated(p, 'cancelled_at', what);
      expectUnset(p, 'paid_at', what);
      break;
  }
}

/** Status, paid_at and cancelled_at of `after` are those of `before`. */
export function expectUnchanged(after: any, before: any, what: string): void {
  const pick = (p: any) => ({ status: p?.status, paid_at: p?.paid_at ?? null, cancelled_at: p?.cancelled_at ?? null });
  const ok = after?.status === before?.status && sameInstant(after?.paid_at, before?.paid_at) && sameInstant(after?.cancelled_at, before?.cancelled_at);
  if (!ok) throw new Mismatch(`${what}: the Payment changed from ${JSON.stringify(pick(before))} to ${JSON.stringify(pick(after))}`, pick(before), pick(after));
}

// ───────────────────────────── actions ─────────────────────────────

/** The three operations that move a PENDING Payment (spec: "A cancel or simulate operation"). */
export const ACTIONS = ['cancelPayment', 'simulatePaymentSucceeded', 'simulatePaymentCancelled'] as const;
export type Action = (typeof ACTIONS)[number];

/** Where each action takes a PENDING Payment. */
export const ACTION_TARGET: Record<Action, 'CANCELLED' | 'PAID'> = {
  cancelPayment: 'CANCELLED',
  simulatePaymentSucceeded: 'PAID',
  simulatePaymentCancelled: 'CANCELLED',
};

export function act(t: RuleContext, action: Action, id: string): Promise<ApiResponse> {
  switch (action) {
    case 'cancelPayment':
      return t.client.cancelPayment(t.keys.test, id);
    case 'simulatePaymentSucceeded':
      return t.client.simulateSucceeded(t.keys.test, id);
    case 'simulatePaymentCancelled':
      return t.client.simulateCancelled(t.keys.test, id);
  }
}

export async function getOk(t: RuleContext, id: string, what: string): Promise<any> {
  const g = await t.client.getPayment(t.keys.test, id);
  expectStatus(g, 200, what);
  return g.json;
}

// ───────────────────────────── control API ─────────────────────────────

const controlClients = new WeakMap<RuleContext, Client>();

/**
 * `POST {control.url}/payments/{id}/reverse` with the control token (docs/profile.md, "The control
 * capability"). The exchange joins the test's transcript, so a failure shows it as evidence.
 */
export function reverse(t: RuleContext, id: string): Promise<ApiResponse> {
  const control = t.profile.control;
  if (!control) t.skip('profile lacks control');
  let c = controlClients.get(t);
  if (!c) {
    c = clientForProfile(t.profile, { baseUrl: control.url, onExchange: (ex) => t.client.transcript.push(ex) });
    controlClients.set(t, c);
  }
  return c.request({ method: 'POST', path: `/payments/${encodeURIComponent(id)}/reverse`, authorization: `Bearer ${control.token}` });
}

// ───────────────────────────── reaching a state ─────────────────────────────

/** The non-PENDING states, each with the route that reaches it. */
export const ORIGINS = ['PAID', 'CANCELLED by cancelPayment', 'CANCELLED by the cancel helper', 'REVERSED'] as const;
export type Origin = (typeof ORIGINS)[number];

/**
 * A fresh Test Payment brought to `origin` through the public API (and the control API for
 * REVERSED); each step's answer is asserted, so a setup mismatch names the step.
 */
export async function reach(t: RuleContext, origin: Origin, body: Record<string, unknown> = {}): Promise<any> {
  const p = await t.createPayment(body);
  let res: ApiResponse;
  switch (origin) {
    case 'PAID':
      res = await t.client.simulateSucceeded(t.keys.test, p.id);
      break;
    case 'CANCELLED by cancelPayment':
      res = await t.client.cancelPayment(t.keys.test, p.id);
      break;
    case 'CANCELLED by the cancel helper':
      res = await t.client.simulateCancelled(t.keys.test, p.id);
      break;
    case 'REVERSED': {
      expectStatus(await t.client.simulateSucceeded(t.keys.test, p.id), 200, 'setup: succeed helper before the reversal');
      res = await reverse(t, p.id);
      break;
    }
  }
  expectStatus(res, 200, `setup: reaching ${origin}`);
  const want = origin.startsWith('CANCELLED') ? 'CANCELLED' : origin;
  expectTrue(res.json?.status === want, `setup: reaching ${origin} answered status ${JSON.stringify(res.json?.status)}`, want, res.json?.status);
  const reached = await getOk(t, p.id, `setup: get after reaching ${origin}`);
  expectTrue(reached?.status === want, `setup: get after reaching ${origin} reads ${JSON.stringify(reached?.status)}`, want, reached?.status);
  return reached;
}

/** The illegal action answered 409 invalid_transition and a later GET shows the Payment unchanged. */
export async function expectRefused(t: RuleContext, before: any, action: Action, what: string): Promise<void> {
  const res = await act(t, action, before.id);
  expectError(res, 409, ['invalid_transition'], `${action} on a ${what} Payment`);
  const after = await getOk(t, before.id, `get after the refused ${action}`);
  expectUnchanged(after, before, `${action} on a ${what} Payment, then get`);
}

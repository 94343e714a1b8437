/**
 * Verifiers: small functions that compare what the spec demands with what the
 * target did and throw a Mismatch carrying {expected, actual} (h2spec style).
 * The test fails with a one-line message; the runner keeps expected/actual.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ApiResponse, Exchange } from '../../../core/client.ts';
import { boundedValue, ownString } from '../../../core/bounded-value.ts';
import type { SetupRefusal } from '../../../core/evidence.ts';
import type { ErrorCode } from '../../../core/error-codes.ts';

/**
 * Checks made by the running test. Every verifier below counts one check
 * (whether it holds or not); a suite's own comparison counts with `countCheck`
 * (`t.checked`). A MUST or SHOULD rule whose tests made none is SKIP, never PASS.
 */
export interface CheckCounter {
  count: number;
}

const counters = new AsyncLocalStorage<CheckCounter>();

/** Runs `fn` with its own check counter (one per test). */
export function withCheckCounter<T>(counter: CheckCounter, fn: () => Promise<T>): Promise<T> {
  return counters.run(counter, fn);
}

export function countCheck(n = 1): void {
  const c = counters.getStore();
  if (c) c.count += n;
}

export class Mismatch extends Error {
  readonly code = 'HPS_RULE_MISMATCH' satisfies ErrorCode;
  readonly expected: unknown;
  readonly actual: unknown;
  /** The exchange the check judged, when it judged one (the report opens it first). */
  readonly exchange?: Exchange;
  constructor(message: string, expected?: unknown, actual?: unknown, exchange?: Exchange) {
    super(ownString(message)); // a message quoting an answer must not keep the whole answer alive
    this.name = 'Mismatch';
    // Bounded: a target's 8 MiB answer must not reach vitest's diff and the report whole (issue 31).
    this.expected = boundedValue(expected);
    this.actual = boundedValue(actual);
    this.exchange = exchange;
  }
}

/**
 * The target refused a request the test's setup needed (a valid create answered 409, say): the
 * rule could not be checked. The report names the refusal once and the rule is blocked by it
 * (results/verdict/collect.ts), instead of a FAIL in every rule that needed the same request.
 */
export class SetupRefused extends Mismatch {
  readonly refusal: SetupRefusal;
  constructor(refusal: SetupRefusal, expected: unknown, actual: unknown, exchange?: Exchange) {
    super(
      `setup: ${refusal.request} answered ${refusal.status}${refusal.code ? ` ${refusal.code}` : ''}, expected ${JSON.stringify(expected)}`,
      expected,
      actual,
      exchange,
    );
    this.name = 'SetupRefused';
    this.refusal = refusal;
  }
}

function describe(res: ApiResponse): string {
  const code = res.json?.error?.code;
  return code ? `${res.status} ${code}` : `${res.status}`;
}

function where(res: ApiResponse): string {
  return `${res.exchange.request.method} ${res.exchange.request.path}`;
}

/** The answer is an error with this status and one of these codes. */
export function expectError(res: ApiResponse, status: number, codes: readonly string[], what = ''): void {
  countCheck();
  const code = res.json?.error?.code;
  if (res.status !== status || !codes.includes(code)) {
    // The status right, the code not: name the missing piece ("answered 404, expected 404 not_found" hid it).
    const missing = res.status !== status ? '' : code === undefined ? ' (the answer carries no error.code)' : ` ` +
      `(error.code ${JSON.stringify(code)} is not ${codes.join(' or ')})`;
    throw new Mismatch(
      `${what ? what + ': ' : ''}${where(res)} answered ${describe(res)}, expected ${status} ${codes.join(' or ')}${missing}`,
      { status, code: codes },
      { status: res.status, code: code ?? null },
      res.exchange,
    );
  }
}

/** The answer has this status (success paths). */
export function expectStatus(res: ApiResponse, status: number, what = ''): void {
  countCheck();
  if (res.status !== status) {
    throw new Mismatch(
      `${what ? what + ': ' : ''}${where(res)} answered ${describe(res)}, expected ${status}`,
      { status },
      { status: res.status, body: res.json ?? res.text.slice(0, 300) },
      res.exchange,
    );
  }
}

export function expectEqual(actual: unknown, expected: unknown, what: string): void {
  countCheck();
  if (!deepEqual(actual, expected)) {
    throw new Mismatch(`${what}: expected ${short(expected)}, got ${short(actual)}`, expected, actual);
  }
}

export function expectTrue(cond: boolean, what: string, expected?: unknown, actual?: unknown): asserts cond {
  countCheck();
  if (!cond) throw new Mismatch(what, expected, actual);
}

export function short(v: unknown): string {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 120 ? s.slice(0, 117) + '...' : s;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual((a as any)[k], (b as any)[k]));
}

/**
 * Decimal equality of two amount strings without floats: "10.5" equals
 * "10.50", "12345678901234567.89" equals itself and nothing else.
 */

export { decimalEquals, normaliseDecimal } from '../../../core/decimal.ts';

/**
 * Shared helpers of the create suites (spec: "CreatePaymentRequest (JSON body)", "Errors",
 * "Limits"): sending a body with the Test key, judging a 201 (PENDING, every field echoed,
 * amounts as decimals) or a 400 against a generator case's own `codes`, recording borderline
 * outcomes, and running a table of fixed cases a few at a time.
 *
 * Every body a suite sends carries the run's marker (metadata.conformance_run and/or an
 * external_id made by t.externalId); Test Payments the target accepts are cancelled by the
 * harness at the end of the file.
 */
import type { BorderlineCase, InvalidCase } from '../../service/generators/index.ts';
import type { ApiResponse } from '../../core/client.ts';
import type { RuleContext } from '../../service/harness/worker/rule-test.ts';
import { Mismatch, decimalEquals, deepEqual, expectError, expectStatus, short } from '../../service/harness/worker/expect.ts';

export type Body = Record<string, unknown>;

/** The run marker the generators take (`validCreateRequest({ marker })`). */
export function marker(t: RuleContext): { runId: string } {
  return { runId: t.runId };
}

/**
 * The body with a string external_id replaced by a fresh marked one (t.externalId). Generated
 * suffixes repeat when fast-check shrinks or replays a counterexample; a repeat would draw a 409
 * external_id_conflict and hide the real failure. A non-string external_id (a wrong-type case) is
 * left as it is.
 */
export function fresh(t: RuleContext, body: Body, label = 'c'): Body {
  if (typeof body.external_id !== 'string') return body;
  return { ...body, external_id: t.externalId(label) };
}

/** A marked body: the run's metadata marker added when the body has no metadata object of its own. */
export function marked(t: RuleContext, body: Body): Body {
  if (body.metadata === undefined) return { ...body, metadata: t.metadata() };
  return body;
}

export function create(t: RuleContext, body: unknown): Promise<ApiResponse> {
  return t.client.createPayment(t.keys.test, body);
}

/** POST /v1/payments with raw bytes and the given Content-Type (null: no Content-Type header). */
export function createRaw(t: RuleContext, raw: string, contentType: string | null = 'application/json'): Promise<ApiResponse> {
  return t.client.request({
    method: 'POST',
    path: '/v1/payments',
    key: t.keys.test,
    raw,
    headers: contentType === null ? {} : { 'content-type': contentType },
  });
}

// ───────────────────────────── echo ─────────────────────────────

const STRING_FIELDS = ['description', 'merchant_reference', 'external_id', 'return_url'] as const;
const LIST_FIELDS = ['allowed_methods', 'allowed_channels'] as const;

function sameMembers(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  const key = (x: unknown[]) => x.map((v) => JSON.stringify(v)).sort();
  return deepEqual(key(a), key(b));
}

/**
 * What of `sent` does not come back in `payment`: amount compared as decimals, strings and
 * metadata exactly, allowed_methods / allowed_channels as the same members (their order is
 * observed, not asserted: the spec types them as lists of values). customer_id and order_id are
 * not Payment fields.
 */
export function echoProblems(sent: Body, payment: any): string[] {
  const out: string[] = [];
  if (payment === null || typeof payment !== 'object') return ['the answer is not a JSON object'];
  if ('amount' in sent && !decimalEquals(payment.amount, sent.amount)) {
    out.push(`amount ${short(sent.amount)} came back ${short(payment.amount)}`);
  }
  for (const f of STRING_FIELDS) {
    if (f in sent && sent[f] !== null && payment[f] !== sent[f]) out.push(`${f} ${short(sent[f])} came back ${short(payment[f])}`);
  }
  if ('metadata' in sent && sent.metadata !== null && !deepEqual(payment.metadata, sent.metadata)) {
    out.push(`metadata ${short(sent.metadata)} came back ${short(payment.metadata)}`);
  }
  for (const f of LIST_FIELDS) {
    if (f in sent && sent[f] !== null && !sameMembers(payment[f], sent[f])) out.push(`${f} ${short(sent[f])} came back ${short(payment[f])}`);
  }
  return out;
}

/** Every field of `sent` comes back in `payment` (see echoProblems). */
export function expectEchoed(sent: Body, payment: any, what: string): void {
  const problems = echoProblems(sent, payment);
  if (problems.length) {
    const fields = Object.keys(sent).filter((f) => problems.some((p) => p.startsWith(`${f} `)));
    const pick = (o: any) => Object.fromEntries(fields.map((f) => [f, o?.[f]]));
    throw new Mismatch(`${what}: ${problems.join('; ')}`, pick(sent), pick(payment));
  }
}

/** 201, a PENDING Payment, every field sent echoed. Returns the Payment. */
export function expectCreated(res: ApiResponse, sent: Body, what: string): any {
  expectStatus(res, 201, what);
  if (res.json?.status !== 'PENDING') {
    throw new Mismatch(`${what}: the created Payment has status ${short(res.json?.status)}, expected PENDING`, 'PENDING', res.json?.status);
  }
  expectEchoed(sent, res.json, what);
  return res.json;
}

/**
 * The one parameter each field rule's cases make wrong: the spec's `param` "names the offending
 * parameter", so where an error carries one it must be this (or a part of it: `metadata.order`).
 */
const OFFENDING_PARAM: Partial<Record<InvalidCase['breaks'], string>> = {
  'CREATE-AMOUNT-INVALID': 'amount',
  'CREATE-AMOUNT-NOT-STRING': 'amount',
  'CREATE-METADATA-TOO-MANY-KEYS': 'metadata',
  'CREATE-METADATA-KEY-TOO-LONG': 'metadata',
  'CREATE-METADATA-VALUE-TOO-LONG': 'metadata',
  'CREATE-RETURN-URL-FORBIDDEN-SCHEME': 'return_url',
  'CREATE-RETURN-URL-NOT-HTTPS': 'return_url',
  'CREATE-ALLOWED-METHODS-INVALID': 'allowed_methods',
  'CREATE-ALLOWED-CHANNELS-INVALID': 'allowed_channels',
};

/** 400 with one of the case's own codes (a case may allow more codes than the catalogue entry lists); a `param` given names the field the case breaks. */
export function expectRejected(res: ApiResponse, c: Pick<InvalidCase, 'codes' | 'why'> & Partial<Pick<InvalidCase, 'breaks'>>): void {
  expectError(res, 400, c.codes, c.why);
  const field = c.breaks === undefined ? undefined : OFFENDING_PARAM[c.breaks];
  const param: unknown = res.json?.error?.param;
  if (field === undefined || param === undefined) return;
  const names = typeof param === 'string' && (param === field || param.startsWith(`${field}.`) || param.startsWith(`${field}[`));
  if (!names) throw new Mismatch(`${c.why}: the error's param is ${short(param)}, which does not name the offending parameter ${field}`, field, param, res.exchange);
}

// ───────────────────────────── observation ─────────────────────────────

/** "accepted", or "<status> <code>" for a refusal. */
export function outcomeOf(res: ApiResponse): string {
  if (res.status === 201) return 'accepted';
  const code = res.json?.error?.code;
  return code ? `${res.status} ${code}` : `${res.status}`;
}

function clip(v: unknown, max = 80): unknown {
  if (typeof v === 'string') return v.length > max ? `${v.slice(0, max)}… (${v.length} chars)` : v;
  const s = JSON.stringify(v);
  return s !== undefined && s.length > max ? `${s.slice(0, max)}… (${s.length} chars)` : v;
}

/** Outcomes of borderline cases, kept for t.observe: a tally by outcome and the first cases in full. */
export class Outcomes {
  readonly tally: Record<string, number> = {};
  readonly cases: Array<Record<string, unknown>> = [];
  private readonly seen = new Set<string>();
  constructor(private readonly maxCases = 40) {}

  add(c: BorderlineCase | { value: unknown; why: string }, res: ApiResponse, extra: Record<string, unknown> = {}): string {
    const outcome = outcomeOf(res);
    this.tally[outcome] = (this.tally[outcome] ?? 0) + 1;
    const id = JSON.stringify(c.value) ?? String(c.value);
    if (!this.seen.has(id) && this.cases.length < this.maxCases) {
      this.seen.add(id);
      this.cases.push({ value: clip(c.value), why: c.why, outcome, ...extra });
    }
    return outcome;
  }

  record(t: RuleContext, prefix = ''): void {
    t.observe(`${prefix}outcomes`, this.tally);
    t.observe(`${prefix}cases`, this.cases);
  }
}

// ───────────────────────────── tables ─────────────────────────────

/** A fixed InvalidCase for a suite's table of canonical cases. */
export function fixedCase<T>(value: T, breaks: InvalidCase['breaks'], codes: InvalidCase['codes'], why: string): InvalidCase<T> {
  return { value, breaks, codes, why };
}


/**
 * Ambient checks: rules that hold for every exchange of the run, checked on
 * each answer the client receives whatever test sent it (status within the
 * operation's list, error envelope, schemas, livemode, 5xx, content type).
 * A violation is a Finding for the ambient rule, with the exchange as evidence.
 */
import { ERROR_TABLE } from '../catalogue/error-codes.ts';
import type { RuleId } from '../catalogue/rules.ts';
import { acceptedStatuses, OPERATIONS, unknownEnumValues, type Operation } from '../schemas/index.ts';
import type { ApiResponse, Exchange } from './client.ts';
import type { Finding } from './evidence.ts';
import { boundedValue } from './bounded-value.ts';
import { bodyShown, pageWithin, validateAnswer } from './bounded-validation.ts';

export type { Operation };

const ROUTES = OPERATIONS.map((op) => ({
  op,
  re: new RegExp('^/v1' + op.path.replace(/\{id\}/g, '[^/?#]+') + '(?:\\?.*)?$'),
}));

/** The operation a request addresses, or undefined (unknown route or wrong method). */
export function inferOperation(method: string, path: string): Operation | undefined {
  for (const { op, re } of ROUTES) if (op.method === method && re.test(path)) return op;
  return undefined;
}

const PAYMENT_OPS = new Set(['createPayment', 'getPayment', 'cancelPayment', 'simulatePaymentSucceeded', 'simulatePaymentCancelled']);

export interface AmbientInput {
  method: string;
  path: string;
  keyLivemode: boolean | undefined;
  idempotent: boolean;
}

/**
 * Checks one answer against every ambient rule that applies to it. `checked`
 * is told each rule actually evaluated (a rule that evaluated nothing all run
 * is not a pass).
 */
export function checkExchange(input: AmbientInput, res: ApiResponse, seenRequestIds: Set<string>, checked: (rule: RuleId) => void = () => {}): Finding[] {
  const out: Finding[] = [];
  const ex: Exchange = res.exchange;
  const add: Add = (rule, message, expected, actual) => out.push({ rule, message: `${input.method} ${input.path}: ${message}`, expected: boundedValue(expected), actual: boundedValue(actual), exchange: ex });
  const c: Checking = { input, res, checked, add };
  const op = inferOperation(input.method, input.path);

  checkAnyAnswer(c, op);
  // A HEAD answer carries no body by HTTP (RFC 9110 §9.3.2): nothing below applies to it.
  if (input.method === 'HEAD') return out;
  if (res.status >= 400) {
    checkErrorAnswer(c, seenRequestIds);
    return out;
  }
  if (!op || res.status < 200 || res.status >= 300) return out;
  if (PAYMENT_OPS.has(op.operationId)) checkPaymentAnswer(c);
  else if (op.operationId === 'listPayments') checkListAnswer(c);
  return out;
}

type Add = (rule: RuleId, message: string, expected?: unknown, actual?: unknown) => void;

/** One answer being checked: what was asked, what came back, and where checks and findings go. */
interface Checking {
  input: AmbientInput;
  res: ApiResponse;
  checked: (rule: RuleId) => void;
  add: Add;
}

/** Rules for every answer: no 5xx, a listed status, a JSON content type when there is a body. */
function checkAnyAnswer({ res, checked, add }: Checking, op: Operation | undefined): void {
  checked('RESP-NO-5XX');
  if (res.status >= 500) add('RESP-NO-5XX', `answered ${res.status}`);
  if (op) checked('RESP-STATUS-LISTED');
  if (op && !acceptedStatuses(op.operationId).includes(res.status)) {
    add('RESP-STATUS-LISTED', `answered ${res.status}, not a status ${op.operationId} lists`, acceptedStatuses(op.operationId), res.status);
  }
  if (res.text.length > 0) checked('RESP-JSON-CONTENT-TYPE');
  if (res.text.length > 0 && !/^application\/json\b/i.test(res.headers['content-type'] ?? '')) {
    add('RESP-JSON-CONTENT-TYPE', `Content-Type is ${JSON.stringify(res.headers['content-type'] ?? null)}`, 'application/json', res.headers['content-type'] ?? null);
  }
}

/** A 4xx/5xx: the Error envelope, its code's status, a fresh request_id. */
function checkErrorAnswer({ input, res, checked, add }: Checking, seenRequestIds: Set<string>): void {
  checked('RESP-ERROR-ENVELOPE');
  const v = validateAnswer('Error', res);
  if (!v.valid) add('RESP-ERROR-ENVELOPE', `error body is not the Error shape: ${v.errors.slice(0, 3).join('; ')}`, 'Error', bodyShown(res));
  const code = res.json?.error?.code;
  if (typeof code === 'string' && code in ERROR_TABLE) {
    checked('RESP-ERROR-STATUS-MATCHES-CODE');
    const want = ERROR_TABLE[code as keyof typeof ERROR_TABLE];
    if (want !== res.status) add('RESP-ERROR-STATUS-MATCHES-CODE', `code ${code} came with ${res.status}, the table gives ${want}`, want, res.status);
  }
  const rid = res.json?.error?.request_id;
  if (typeof rid === 'string' && !input.idempotent) {
    checked('RESP-REQUEST-ID-UNIQUE');
    if (seenRequestIds.has(rid)) add('RESP-REQUEST-ID-UNIQUE', `request_id ${rid} was already given to another request`);
    seenRequestIds.add(rid);
  }
}

/** A 2xx Payment: its schema, known enum values, livemode matching the key. */
function checkPaymentAnswer({ input, res, checked, add }: Checking): void {
  checked('RESP-PAYMENT-SCHEMA');
  checked('RESP-ENUM-KNOWN');
  const v = validateAnswer('Payment', res);
  if (!v.valid) add('RESP-PAYMENT-SCHEMA', v.errors.slice(0, 3).join('; '), 'Payment', bodyShown(res));
  checkEnums('Payment', res.json, add);
  if (input.keyLivemode !== undefined) checked('RESP-PAYMENT-LIVEMODE');
  if (input.keyLivemode !== undefined && res.json && typeof res.json === 'object' && res.json.livemode !== input.keyLivemode) {
    add('RESP-PAYMENT-LIVEMODE', `livemode is ${shortJson(res.json.livemode)} under a ${input.keyLivemode ? 'Live' : 'Test'} key`, input.keyLivemode, shownValue(res.json.livemode));
  }
}

/** A 2xx PaymentList: its schema, known enum values, every item's livemode matching the key. */
function checkListAnswer({ input, res, checked, add }: Checking): void {
  checked('RESP-LIST-SCHEMA');
  checked('RESP-ENUM-KNOWN');
  const v = validateAnswer('PaymentList', res);
  if (!v.valid) add('RESP-LIST-SCHEMA', v.errors.slice(0, 3).join('; '), 'PaymentList', bodyShown(res));
  checkEnums('PaymentList', pageWithin('PaymentList', res.json).data, add);
  if (input.keyLivemode !== undefined && Array.isArray(res.json?.data) && res.json.data.length) checked('RESP-PAYMENT-LIVEMODE');
  if (input.keyLivemode !== undefined && Array.isArray(res.json?.data)) {
    const wrong = res.json.data.find((p: any) => p?.livemode !== input.keyLivemode);
    if (wrong) add('RESP-PAYMENT-LIVEMODE', `list under a ${input.keyLivemode ? 'Live' : 'Test'} key holds ${shortJson(wrong?.id)} with livemode ${shortJson(wrong?.livemode)}`, input.keyLivemode, shownValue(wrong?.livemode));
  }
}

/** A value of the answer as a short JSON text (a target may put megabytes where a boolean belongs). */
function shortJson(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 200 ? `${s.slice(0, 200)}… (${s.length} chars)` : s;
}

/** A value kept as a finding's `actual`: itself when small and flat, else its short JSON text. */
function shownValue(v: unknown): unknown {
  return (v === null || typeof v !== 'object') && String(v).length <= 200 ? v : shortJson(v);
}

function checkEnums(name: 'Payment' | 'PaymentList', data: unknown, add: (rule: RuleId, m: string) => void): void {
  if (!data || typeof data !== 'object') return;
  for (const u of unknownEnumValues(name, data)) add('RESP-ENUM-KNOWN', `${u.path} = ${JSON.stringify(u.value)} is not one of ${u.known.join(', ')}`);
}

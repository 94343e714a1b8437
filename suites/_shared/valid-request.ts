/**
 * Requests shared by the auth, routing and versioning suites: a request to any operation that is
 * valid in every respect but the one under test (a real PENDING Payment, a valid create body
 * carrying a marker external_id), and the after-check that such requests changed nothing.
 */
import { LIVE_KEY_PREFIX, TEST_KEY_PREFIX, livemodeOfKey } from '../../core/api-key.ts';
import type { ApiResponse, RequestOptions } from '../../core/client.ts';
import type { RuleContext } from '../../service/harness/worker/rule-test.ts';
import { expectEqual, expectStatus, expectTrue } from '../../service/harness/worker/expect.ts';
import { OPERATIONS, expandPath, type Operation } from '../../catalogue/schemas/index.ts';

export { OPERATIONS, type Operation };

/** How a request authenticates: `key` (Bearer), `authorization` (raw header), or neither (no header). */
export interface Credentials {
  key?: string | null;
  authorization?: string;
}

export const NO_KEY: Credentials = { key: null };

/** What a bounded series of requests may have touched, for {@link expectUntouched}. */
export interface Subject {
  /** A PENDING Test Payment of business A that the requests address. */
  paymentId: string;
  /** The external_id every createPayment body carries (one per test, never created). */
  externalId: string;
}

/** A PENDING Payment and an unused external_id to aim requests at. */
export async function newSubject(t: RuleContext, label: string): Promise<Subject> {
  const payment = await t.createPayment();
  return { paymentId: payment.id, externalId: t.externalId(label) };
}

/** The valid create body of a subject (the amount and marker never vary). */
export function createBody(t: RuleContext, subject: Subject): Record<string, unknown> {
  return { amount: '10.00', external_id: subject.externalId, metadata: t.metadata() };
}

/** The path of `op` under `/v1` (or another prefix) for the subject's Payment. */
export function pathOf(op: Operation, paymentId: string, prefix = '/v1'): string {
  const path = prefix + expandPath(op.path, { id: paymentId });
  return op.operationId === 'listPayments' ? `${path}?limit=1` : path;
}

export interface RequestVariation {
  /** Replaces `/v1` (versioning probes). */
  prefix?: string;
  headers?: Record<string, string>;
  idempotencyKey?: string;
}

/** A request to `op` that is valid in every respect but, possibly, its credentials or prefix. */
export function validRequest(t: RuleContext, op: Operation, subject: Subject, auth: Credentials, v: RequestVariation = {}): RequestOptions {
  const req: RequestOptions = { method: op.method, path: pathOf(op, subject.paymentId, v.prefix), ...auth };
  if (v.headers) req.headers = v.headers;
  if (v.idempotencyKey !== undefined) req.idempotencyKey = v.idempotencyKey;
  if (op.requestBody !== null) req.json = createBody(t, subject);
  return req;
}

export function sendValid(t: RuleContext, op: Operation, subject: Subject, auth: Credentials, v: RequestVariation = {}): Promise<ApiResponse> {
  return t.client.request(validRequest(t, op, subject, auth, v));
}

/**
 * The requests that were refused changed nothing: the subject's Payment is still PENDING
 * (read with keys.test) and no Payment carries its external_id (found through the list filter,
 * never by assuming the list holds only this run's objects).
 */
export async function expectUntouched(t: RuleContext, subject: Subject, what: string): Promise<void> {
  const got = await t.client.getPayment(t.keys.test, subject.paymentId);
  expectStatus(got, 200, `${what}: reading the Payment afterwards`);
  expectEqual(got.json?.status, 'PENDING', `${what}: the Payment ${subject.paymentId} after the refused requests has status`);
  const list = await t.client.listPayments(t.keys.test, { external_id: subject.externalId, limit: 100 });
  expectStatus(list, 200, `${what}: listing by external_id afterwards`);
  const found = Array.isArray(list.json?.data) ? list.json.data.filter((p: any) => p?.external_id === subject.externalId) : [];
  expectTrue(
    found.length === 0,
    `${what}: a refused createPayment created Payment(s) ${found.map((p: any) => p.id).join(', ')} with external_id ${subject.externalId}`,
    { created: 0 },
    { created: found.length, ids: found.map((p: any) => p.id) },
  );
}

/** `status code` of an answer, for observations. */
export function outcome(res: ApiResponse): string {
  const code = res.json?.error?.code;
  return typeof code === 'string' ? `${res.status} ${code}` : String(res.status);
}

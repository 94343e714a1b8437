/**
 * The registry of ambient checks: one check per rule the catalogue declares `ambient: 'exchange'`
 * (catalogue/rules.ts), keyed by its id. The table's type is a mapped type over those ids, so a rule
 * declared ambient without a check, a check for a rule that is not declared so, and a check
 * registered twice (a duplicate key) do not compile. core/ambient.ts runs them on every answer.
 *
 * Each check says which answers it is about (`on`) and returns whether it evaluated the answer (a
 * rule that evaluated nothing all run is not a pass); a violation goes through `add`.
 */
import { ERROR_TABLE } from '../catalogue/error-codes.ts';
import type { ExchangeRuleId, RuleId } from '../catalogue/rules.ts';
import { acceptedStatuses, unknownEnumValues, type Operation } from '../catalogue/schemas/index.ts';
import type { ApiResponse } from './client.ts';
import { bodyShown, pageWithin, validateAnswer } from './bounded-validation.ts';

/** One answer being checked: what was asked, what came back, and where a violation goes. */
export interface Checking {
  readonly input: AmbientInput;
  readonly res: ApiResponse;
  /** The operation the request addressed, if any (unknown route or wrong method: none). */
  readonly op: Operation | undefined;
  readonly seenRequestIds: Set<string>;
  readonly add: (rule: RuleId, message: string, expected?: unknown, actual?: unknown) => void;
}

export interface AmbientInput {
  method: string;
  path: string;
  keyLivemode: boolean | undefined;
  idempotent: boolean;
}

/** Which answers a check is about: every one, an error (4xx/5xx), a 2xx Payment, a 2xx PaymentList, either of those. */
export type AnswerKind = 'any' | 'error' | 'payment' | 'list' | 'shown';

export interface AmbientCheck {
  readonly on: AnswerKind;
  /** Evaluates the answer (false: nothing in it to evaluate), adding each violation. */
  readonly check: (c: Checking) => boolean;
}

export const AMBIENT_CHECKS: { readonly [R in ExchangeRuleId]: AmbientCheck } = {
  'RESP-NO-5XX': {
    on: 'any',
    check: ({ res, add }) => {
      if (res.status >= 500) add('RESP-NO-5XX', `answered ${res.status}`);
      return true;
    },
  },
  'RESP-STATUS-LISTED': {
    on: 'any',
    check: ({ res, op, add }) => {
      if (!op) return false;
      const listed = acceptedStatuses(op.operationId);
      if (listed.includes(res.status)) return true;
      add('RESP-STATUS-LISTED', `answered ${res.status}, not a status ${op.operationId} lists`, listed, res.status);
      return true;
    },
  },
  'RESP-JSON-CONTENT-TYPE': {
    on: 'any',
    check: ({ res, add }) => {
      if (res.text.length === 0) return false;
      const type = res.headers['content-type'] ?? null;
      if (/^application\/json\b/i.test(type ?? '')) return true;
      add('RESP-JSON-CONTENT-TYPE', `Content-Type is ${JSON.stringify(type)}`, 'application/json', type);
      return true;
    },
  },
  'RESP-ERROR-ENVELOPE': {
    on: 'error',
    check: ({ res, add }) => {
      const v = validateAnswer('Error', res);
      if (!v.valid) add('RESP-ERROR-ENVELOPE', `error body is not the Error shape: ${firstErrors(v.errors)}`, 'Error', bodyShown(res));
      return true;
    },
  },
  'RESP-ERROR-STATUS-MATCHES-CODE': {
    on: 'error',
    check: ({ res, add }) => {
      const code = res.json?.error?.code;
      if (typeof code !== 'string' || !(code in ERROR_TABLE)) return false;
      const want = ERROR_TABLE[code as keyof typeof ERROR_TABLE];
      if (want === res.status) return true;
      add('RESP-ERROR-STATUS-MATCHES-CODE', `code ${code} came with ${res.status}, the table gives ${want}`, want, res.status);
      return true;
    },
  },
  'RESP-REQUEST-ID-UNIQUE': {
    on: 'error',
    check: ({ input, res, seenRequestIds, add }) => {
      const rid = res.json?.error?.request_id;
      if (typeof rid !== 'string' || input.idempotent) return false;
      if (seenRequestIds.has(rid)) add('RESP-REQUEST-ID-UNIQUE', `request_id ${rid} was already given to another request`);
      seenRequestIds.add(rid);
      return true;
    },
  },
  'RESP-PAYMENT-SCHEMA': {
    on: 'payment',
    check: ({ res, add }) => {
      const v = validateAnswer('Payment', res);
      if (!v.valid) add('RESP-PAYMENT-SCHEMA', firstErrors(v.errors), 'Payment', bodyShown(res));
      return true;
    },
  },
  'RESP-LIST-SCHEMA': {
    on: 'list',
    check: ({ res, add }) => {
      const v = validateAnswer('PaymentList', res);
      if (!v.valid) add('RESP-LIST-SCHEMA', firstErrors(v.errors), 'PaymentList', bodyShown(res));
      return true;
    },
  },
  'RESP-ENUM-KNOWN': {
    on: 'shown',
    check: ({ res, op, add }) => {
      const name = shownAs(res, op);
      if (name === undefined) return false;
      const data = name === 'Payment' ? res.json : pageWithin('PaymentList', res.json).data;
      if (!data || typeof data !== 'object') return true;
      for (const u of unknownEnumValues(name, data)) {
        add('RESP-ENUM-KNOWN', `${u.path} = ${JSON.stringify(u.value)} is not one of ${u.known.join(', ')}`);
      }
      return true;
    },
  },
  'RESP-PAYMENT-LIVEMODE': {
    on: 'shown',
    check: ({ input, res, op, add }) => {
      const name = shownAs(res, op);
      if (name === undefined || input.keyLivemode === undefined) return false;
      const under = `under a ${input.keyLivemode ? 'Live' : 'Test'} key`;
      if (name === 'Payment') {
        if (res.json && typeof res.json === 'object' && res.json.livemode !== input.keyLivemode) {
          const shown = res.json.livemode;
          add('RESP-PAYMENT-LIVEMODE', `livemode is ${shortJson(shown)} ${under}`, input.keyLivemode, shownValue(shown));
        }
        return true;
      }
      if (!Array.isArray(res.json?.data) || res.json.data.length === 0) return false;
      const wrong = res.json.data.find((p: any) => p?.livemode !== input.keyLivemode);
      if (!wrong) return true;
      const message = `list ${under} holds ${shortJson(wrong?.id)} with livemode ${shortJson(wrong?.livemode)}`;
      add('RESP-PAYMENT-LIVEMODE', message, input.keyLivemode, shownValue(wrong?.livemode));
      return true;
    },
  },
};

const PAYMENT_OPS: ReadonlySet<string> = new Set([
  'createPayment', 'getPayment', 'cancelPayment', 'simulatePaymentSucceeded', 'simulatePaymentCancelled',
]);

/** What a 2xx answer of `op` shows: a Payment, a PaymentList, or nothing these checks read. */
export function shownAs(res: ApiResponse, op: Operation | undefined): 'Payment' | 'PaymentList' | undefined {
  if (!op || res.status < 200 || res.status >= 300) return undefined;
  if (PAYMENT_OPS.has(op.operationId)) return 'Payment';
  return op.operationId === 'listPayments' ? 'PaymentList' : undefined;
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

/** The first three validation errors, as one line. */
function firstErrors(errors: readonly string[]): string {
  return errors.slice(0, 3).join('; ');
}

/**
 * The transitions, idempotency and isolation areas' fixed tables (catalogue/case-table.ts): every
 * action from every non-PENDING state, reversals of what is not PAID, the variants of a value that
 * are another value, and a Test key's writes on a Live Payment.
 */
import type { CaseTable } from '../../../catalogue/case-table.ts';

/** The actions on a Payment's state (suites/transitions/states.ts ACTIONS). */
const ACTIONS = ['cancelPayment', 'simulatePaymentSucceeded', 'simulatePaymentCancelled'] as const;
type Action = (typeof ACTIONS)[number];

/** The non-PENDING states TRANS-ILLEGAL starts from, each a test of its own (suites/transitions/states.ts ORIGINS). */
export const ILLEGAL_ORIGINS = ['PAID', 'CANCELLED by cancelPayment', 'CANCELLED by the cancel helper', 'REVERSED'] as const;
type Origin = (typeof ILLEGAL_ORIGINS)[number];

function illegalFrom(origin: Origin, after: CaseTable<Action> | undefined): CaseTable<Action> {
  return {
    rule: 'TRANS-ILLEGAL',
    name: `actions from ${origin}`,
    rows: () => ACTIONS,
    title: (action) => `from ${origin}, ${action} answers 409 invalid_transition and a get shows the Payment unchanged`,
    ...(after ? { after } : {}),
  };
}

/** TRANS-ILLEGAL: one table per origin, numbered on in the order of ILLEGAL_ORIGINS. */
export const ILLEGAL_TRANSITION_CASES: Readonly<Record<Origin, CaseTable<Action>>> = (() => {
  const out = {} as Record<Origin, CaseTable<Action>>;
  let before: CaseTable<Action> | undefined;
  for (const origin of ILLEGAL_ORIGINS) before = out[origin] = illegalFrom(origin, before);
  return out;
})();

/** TRANS-REVERSED (the non-PAID test): a reversal of a Payment that is not PAID. */
export const NON_PAID_REVERSAL_CASES: CaseTable<'PENDING' | 'CANCELLED' | 'REVERSED'> = {
  rule: 'TRANS-REVERSED',
  name: 'reversals of Payments that are not PAID',
  rows: () => ['PENDING', 'CANCELLED', 'REVERSED'],
  title: (state) => `a reversal of a ${state} Payment leaves it unchanged (a later get reads it as before)`,
};

/** A change of a value the spec does not erase, by name. */
export interface ValueVariant {
  readonly name: string;
  change(value: string): string;
}

function swapFirstLetter(v: string): string {
  const i = v.search(/[A-Za-z]/);
  if (i < 0) return v;
  const c = v[i]!;
  return v.slice(0, i) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + v.slice(i + 1);
}

/** Letter case changes (an Idempotency-Key or an external_id). */
const CASE_VARIANTS: readonly ValueVariant[] = [
  { name: 'upper-cased', change: (v) => v.toUpperCase() },
  { name: 'lower-cased', change: (v) => v.toLowerCase() },
  { name: 'first letter case swapped', change: swapFirstLetter },
];

/** IDEM-VALUES-EXACT, first table: an Idempotency-Key in another letter case. */
export const KEY_VARIANT_CASES: CaseTable<ValueVariant> = {
  rule: 'IDEM-VALUES-EXACT',
  name: 'Idempotency-Key variants',
  rows: () => CASE_VARIANTS,
  title: (v) => `the Idempotency-Key ${v.name} is another key: 201 with a new Payment, not the first one replayed`,
};

/** IDEM-VALUES-EXACT, second table: an external_id in another letter case, or with a trailing space (a JSON string keeps it). */
export const EXTERNAL_ID_VARIANT_CASES: CaseTable<ValueVariant> = {
  rule: 'IDEM-VALUES-EXACT',
  name: 'external_id variants',
  rows: () => [...CASE_VARIANTS, { name: 'with a trailing space', change: (v: string) => `${v} ` }],
  title: (v) => `the external_id ${v.name} is another external_id: a new Payment stored as sent (or 400 invalid_external_id), the ` +
    `original listed alone`,
  after: KEY_VARIANT_CASES,
};

/** ISO-TEST-LIVE-WRITE (the Live Payment test): the Test key's writes on a Live Payment. */
export const TEST_KEY_ON_LIVE_CASES: CaseTable<Action> = {
  rule: 'ISO-TEST-LIVE-WRITE',
  name: 'the Test key writing a Live Payment',
  rows: () => ACTIONS,
  title: (op) => `keys.test ${op} on a Live Payment answers 404 payment_not_found and leaves it unchanged`,
};

export const STATES_CASE_TABLES: ReadonlyArray<CaseTable<any>> = [
  ...Object.values(ILLEGAL_TRANSITION_CASES), NON_PAID_REVERSAL_CASES, KEY_VARIANT_CASES, EXTERNAL_ID_VARIANT_CASES, TEST_KEY_ON_LIVE_CASES,
];

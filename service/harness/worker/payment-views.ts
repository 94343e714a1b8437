/**
 * Every representation of a Payment compared with every other (ambient, RESP-PAYMENT-VIEWS-AGREE).
 *
 * A Payment is one object wherever it is shown: the 201 of its create, a replay of that create,
 * `GET /payments/{id}`, an item of a list, the 200 of cancel and of the test helpers. Each such
 * answer of the run is a view; the first view of an id is kept, and every later view is compared
 * with it field by field. What the spec lets differ between two views is named in docs/rulings.md
 * ("Views of one Payment"): the status may move on along the transition table (so may paid_at
 * and cancelled_at, from null to their instant) and checkout_url is not compared; nothing else
 * may differ. A status that goes back (a view asked for after another view was answered, showing
 * a status the first cannot reach) is a difference too; a create's answer is never judged on its
 * status (a replay may return the original snapshot: IDEM-REPLAY-BODY).
 *
 * One store per suite worker, forgotten with each run (service/harness/worker/run-scoped.ts); bounded in ids.
 */
import type { RuleId } from '../../../catalogue/rules.ts';
import type { ApiResponse } from '../../../core/client.ts';
import { normaliseDecimal } from '../../../core/decimal.ts';
import type { Finding } from '../../../core/evidence.ts';
import { inferOperation } from '../../../core/ambient.ts';
import { LARGEST_PAGE } from '../../../core/bounded-validation.ts';

const RULE: RuleId = 'RESP-PAYMENT-VIEWS-AGREE';

/** How many Payment ids one worker remembers in a run; ids past it are not compared. */
const MAX_PAYMENTS = 50_000;

/** Fields fixed at creation: equal (as JSON values; absent and null alike) in every view. */
const FIXED_FIELDS = ['object', 'livemode', 'currency', 'description', 'merchant_reference', 'external_id', 'return_url'] as const;
/** Instants: once set, the same instant in every view that sets them (created_at always is). */
const INSTANT_FIELDS = ['created_at', 'paid_at', 'cancelled_at'] as const;

/** Which statuses a status can still become (the spec's transition table); unknown statuses are not judged. */
const REACHABLE: Record<string, ReadonlySet<string>> = {
  PENDING: new Set(['PENDING', 'PAID', 'CANCELLED', 'REVERSED']),
  PAID: new Set(['PAID', 'REVERSED']),
  CANCELLED: new Set(['CANCELLED']),
  REVERSED: new Set(['REVERSED']),
};

/** One view of a Payment: the object, where it was shown, when its request was stamped and its answer handed over (ms). */
export interface PaymentView {
  payment: Record<string, unknown>;
  where: string;
  sentAt: number;
  answeredAt: number;
  /** A create's answer (possibly a replay's snapshot): its status is not judged against later views. */
  snapshot: boolean;
}

interface Known {
  first: PaymentView;
  /** Per status seen (not in a create's answer), the view that was answered first with it: at most four. */
  statuses: Map<string, PaymentView>;
}

/** A difference between two views of one Payment. */
export interface ViewDifference {
  message: string;
  expected: unknown;
  actual: unknown;
}

/** The views of one run in one worker. */
export class PaymentViews {
  private readonly known = new Map<string, Known>();

  clear(): void {
    this.known.clear();
  }

  /** Compares a view with what was seen of its Payment; undefined when it is the first view (nothing compared). */
  observe(view: PaymentView): ViewDifference[] | undefined {
    const id = view.payment.id;
    if (typeof id !== 'string') return undefined;
    const known = this.known.get(id);
    if (!known) {
      if (this.known.size < MAX_PAYMENTS) this.known.set(id, { first: view, statuses: noteStatus(new Map(), view) });
      return undefined;
    }
    const out = compareFields(known.first, view);
    for (const earlier of known.statuses.values()) out.push(...statusGoesBack(earlier, view));
    noteStatus(known.statuses, view);
    return out;
  }
}

/** Keeps the view as its status's first answered one. */
function noteStatus(statuses: Map<string, PaymentView>, view: PaymentView): Map<string, PaymentView> {
  const s = statusOf(view);
  const had = s === undefined ? undefined : statuses.get(s);
  if (s !== undefined && (!had || view.answeredAt < had.answeredAt)) statuses.set(s, view);
  return statuses;
}

function statusOf(view: PaymentView): string | undefined {
  const s = view.payment.status;
  return typeof s === 'string' && s in REACHABLE && !view.snapshot ? s : undefined;
}

/** The fixed fields, the amount (as a decimal), metadata and the method/channel sets, and the instants. */
function compareFields(first: PaymentView, later: PaymentView): ViewDifference[] {
  const out: ViewDifference[] = [];
  const a = first.payment;
  const b = later.payment;
  const differ = (field: string, x: unknown, y: unknown) =>
    out.push({
      message: `Payment ${String(b.id)}: ${field} is ${JSON.stringify(y)} in ${later.where}, ${JSON.stringify(x)} in ${first.where}`,
      expected: x,
      actual: y,
    });
  for (const f of FIXED_FIELDS) if (canonical(a[f]) !== canonical(b[f])) differ(f, a[f] ?? null, b[f] ?? null);
  const amountA = normaliseDecimal(a.amount) ?? canonical(a.amount);
  if (amountA !== (normaliseDecimal(b.amount) ?? canonical(b.amount))) differ('amount', a.amount, b.amount);
  if (canonical(a.metadata ?? {}) !== canonical(b.metadata ?? {})) differ('metadata', a.metadata ?? null, b.metadata ?? null);
  for (const f of ['allowed_methods', 'allowed_channels'] as const) {
    if (canonical(asSet(a[f])) !== canonical(asSet(b[f]))) differ(f, a[f] ?? null, b[f] ?? null);
  }
  for (const f of INSTANT_FIELDS) {
    if (a[f] == null || b[f] == null) {
      if (f === 'created_at' && a[f] !== b[f]) differ(f, a[f] ?? null, b[f] ?? null);
      continue;
    }
    if (instant(a[f]) !== instant(b[f])) differ(f, a[f], b[f]);
  }
  return out;
}

/** A view asked for after `earlier` was answered shows a status `earlier`'s cannot become. */
function statusGoesBack(earlier: PaymentView, view: PaymentView): ViewDifference[] {
  const was = statusOf(earlier);
  const now = statusOf(view);
  if (!was || !now || view.sentAt <= earlier.answeredAt || REACHABLE[was]!.has(now)) return [];
  return [{
    message: `Payment ${String(view.payment.id)}: status ${now} in ${view.where}, asked for after ${earlier.where} had answered ${was} ` +
      `(${was} never becomes ${now})`,
    expected: [...REACHABLE[was]!],
    actual: now,
  }];
}

/** A JSON value with object keys sorted; absent and null alike. */
function canonical(v: unknown): string {
  if (v === undefined || v === null) return 'null';
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** An array read as a set (the spec gives its items no order); anything else as it is. */
function asSet(v: unknown): unknown {
  return Array.isArray(v) ? [...new Set(v.map(canonical))].sort() : v;
}

/** A date-time as its instant (two spellings of one instant agree); anything unparseable as itself. */
function instant(v: unknown): string {
  const ms = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isNaN(ms) ? canonical(v) : String(ms);
}

const PAYMENT_OPS = new Set(['createPayment', 'getPayment', 'cancelPayment', 'simulatePaymentSucceeded', 'simulatePaymentCancelled']);

/** The request and its times, as the ambient checks see an exchange. */
export interface ViewedAnswer {
  method: string;
  path: string;
  sentAt: number;
  answeredAt: number;
}

/**
 * The ambient check: every Payment a 2xx answer shows (a Payment operation's body, a list's
 * items) compared with the views of it seen before in this worker's run.
 */
export function checkPaymentViews(views: PaymentViews, answer: ViewedAnswer, res: ApiResponse, checked: (rule: RuleId) => void): Finding[] {
  if (res.status < 200 || res.status >= 300 || answer.method === 'HEAD') return [];
  const op = inferOperation(answer.method, answer.path)?.operationId;
  if (!op) return [];
  const where = `${op} (${answer.method} ${answer.path.slice(0, 80)})`;
  // A list's items up to the spec's largest page (a longer page is RESP-LIST-SCHEMA's finding, its rest not walked: a hostile
  // 150 000-item answer compared item by item cost 17 s of a worker's CPU per rule).
  const shown: unknown[] = PAYMENT_OPS.has(op) ? [res.json]
    : op === 'listPayments' && Array.isArray(res.json?.data) ? res.json.data.slice(0, LARGEST_PAGE) : [];
  const out: Finding[] = [];
  for (const p of shown) {
    if (!p || typeof p !== 'object' || Array.isArray(p)) continue;
    const diffs = views.observe({
      payment: p as Record<string, unknown>,
      where,
      sentAt: answer.sentAt,
      answeredAt: answer.answeredAt,
      snapshot: op === 'createPayment',
    });
    if (diffs === undefined) continue;
    checked(RULE);
    for (const d of diffs) out.push({ rule: RULE, message: d.message, expected: d.expected, actual: d.actual, exchange: res.exchange });
  }
  return out;
}

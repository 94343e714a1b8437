/**
 * listPayments: GET /payments (spec, "listPayments query parameters"; "Request filters
 * are strict").
 *
 * - Filters: status (strict enum), external_id, created_from / created_to (RFC 3339,
 *   inclusive). limit: integer 1..100, default 20. starting_after: a Payment id visible
 *   to the key. Malformed, empty or repeated → 400 invalid_request naming the parameter.
 *   Unknown parameters are ignored.
 * - Order: created_at descending, then id descending (a total order).
 * - starting_after=X returns what follows X in that order (X need not match the filters).
 * - has_more tells whether anything matching follows the page; next_cursor is the id of
 *   the page's last item when has_more, else null. Passing next_cursor as starting_after
 *   returns the next page.
 *
 * The planted faults of this file are overrides named after the defect, in the `faulty` table
 * of the step they break (references/service/steps.ts says how an override replaces a check).
 */
import type { AppContext } from './context.ts';
import { ApiError } from './errors.ts';
import { compareAscending, toPaymentResource } from './payments.ts';
import { jsonReply, type Reply } from './reply.ts';
import { parseRfc3339 } from './time.ts';
import { PAYMENT_STATUSES, type ApiKeyRecord, type PaymentRecord, type PaymentStatus } from './types.ts';
import { checkOf, type PlantingStep, type Step } from './steps.ts';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export interface ListQuery {
  status: PaymentStatus | null;
  externalId: string | null;
  createdFrom: number | null;
  createdTo: number | null;
  limit: number;
  startingAfter: PaymentRecord | null;
}

export function listPayments(ctx: AppContext, key: ApiKeyRecord, rawQuery: string): Reply {
  const query = parseListQuery(ctx, key, rawQuery);
  const found = collect(ctx, key, query);
  const { page, hasMore } = checkOf(PAGE, ctx.faults)({ found, limit: query.limit });
  return jsonReply(200, checkOf(PAYMENT_LIST, ctx.faults)({ ctx, page, hasMore }));
}

/** The PaymentList: the page, has_more, and next_cursor (the page's last item when has_more). */
const PAYMENT_LIST: Step<{ ctx: AppContext; page: PaymentRecord[]; hasMore: boolean }, Record<string, unknown>> = {
  name: 'the PaymentList',
  check: ({ ctx, page, hasMore }) => {
    const last = page[page.length - 1];
    return {
      object: 'list',
      data: page.map((p) => toPaymentResource(p, ctx.decisions)),
      has_more: hasMore,
      next_cursor: hasMore && last !== undefined ? cursorFor(ctx, last) : null,
    };
  },
  faulty: {
    'list-items-without-description': {
      does: 'List items come from a summary projection that leaves description and merchant_reference null; GET and create show them.',
      breaks: ['RESP-PAYMENT-VIEWS-AGREE'],
      violates: ['payment.field.description#meaning', 'payment.field.merchant_reference#meaning'],
      plant: (list, next) => {
        const out = next(list);
        return { ...out, data: (out.data as Array<Record<string, unknown>>).map((p) => ({ ...p, description: null, merchant_reference: null })) };
      },
    },
    'list-items-status-at-creation': {
      does: 'List items show the status and instants the Payment had when it was created (a projection written once): PENDING, ' +
        'paid_at and cancelled_at null, whatever happened since.',
      breaks: ['RESP-PAYMENT-VIEWS-AGREE'],
      violates: ['payment.field.status#current'],
      plant: (list, next) => {
        const out = next(list);
        return { ...out, data: (out.data as Array<Record<string, unknown>>).map((p) => ({ ...p, status: 'PENDING', paid_at: null, cancelled_at: null })) };
      },
    },
    'list-omits-has-more': {
      does: 'listPayments leaves has_more out of the PaymentList when it is false.',
      breaks: ['RESP-LIST-SCHEMA'],
      violates: ['list.field.has_more#type'],
      plant: (list, next) => {
        if (list.hasMore) return next(list);
        const { has_more: _omitted, ...rest } = next(list);
        return rest;
      },
    },
  },
};

/** The page cut from up to limit + 1 matching payments: has_more tells whether the extra one exists. */
const PAGE: Step<{ found: PaymentRecord[]; limit: number }, { page: PaymentRecord[]; hasMore: boolean }> = {
  name: 'the page and has_more',
  check: ({ found, limit }) => ({ page: found.slice(0, limit), hasMore: found.length > limit }),
  faulty: {
    'list-always-empty': {
      does: 'Every page is empty (data [], has_more false): the list query reads a replica that is never filled.',
      breaks: ['LIST-FILTER-STATUS', 'LIST-FILTER-EXTERNAL-ID', 'LIST-FILTER-CREATED-RANGE', 'LIST-FILTER-STRICT', 'LIST-LIMIT-BOUNDS', 'LIST-LIMIT-DEFAULT', 'LIST-LIMIT-RESPECTED', 'LIST-PAGINATION-COMPLETE', 'LIST-HAS-MORE'],
      plant: () => ({ page: [], hasMore: false }),
    },
    'list-page-includes-lookahead': {
      does: 'The extra Payment fetched to compute has_more is left on the page: limit + 1 items.',
      breaks: ['LIST-LIMIT-RESPECTED', 'LIST-LIMIT-DEFAULT', 'LIST-HAS-MORE'],
      violates: ['list.param.limit#respected'],
      plant: (input, next) => ({ ...next(input), page: input.found }),
    },
    'list-has-more-when-page-full': {
      does: 'has_more is computed as "the page is full", so it is true when exactly limit Payments remain.',
      breaks: ['LIST-HAS-MORE'],
      violates: ['list.field.has_more#meaning'],
      plant: (input, next) => {
        const { page } = next(input);
        return { page, hasMore: page.length === input.limit };
      },
    },
  },
};

const OPAQUE_CURSOR_PREFIX = 'cur_';
const LIST_PARAMETERS: ReadonlySet<string> = new Set(['status', 'external_id', 'created_from', 'created_to', 'limit', 'starting_after']);

/** cursor decision: the page's last Payment id, or an opaque token that names it. */
function cursorFor(ctx: AppContext, last: PaymentRecord): string {
  if (ctx.decisions.cursor === 'payment-id') return last.id;
  return OPAQUE_CURSOR_PREFIX + Buffer.from(`after:${last.id}`, 'utf8').toString('base64url');
}

/** A starting_after value: a Payment id, or (opaque cursors) a token cursorFor made. */
function paymentIdOfCursor(ctx: AppContext, value: string): string {
  if (ctx.decisions.cursor !== 'opaque' || !value.startsWith(OPAQUE_CURSOR_PREFIX)) return value;
  const decoded = Buffer.from(value.slice(OPAQUE_CURSOR_PREFIX.length), 'base64url').toString('utf8');
  return decoded.startsWith('after:') ? decoded.slice('after:'.length) : value;
}

/** unknownQueryParams decision 'rejected': a parameter listPayments does not define → 400 naming it. */
function rejectUnknownParameters(params: URLSearchParams): void {
  for (const name of params.keys()) {
    if (!LIST_PARAMETERS.has(name)) throw invalidParam(name.slice(0, 64), `Unknown query parameter ${JSON.stringify(name.slice(0, 64))}.`);
  }
}

export function parseListQuery(ctx: AppContext, key: ApiKeyRecord, rawQuery: string): ListQuery {
  const params = new URLSearchParams(rawQuery);
  if (ctx.decisions.unknownQueryParams === 'rejected') rejectUnknownParameters(params);
  const single = (name: string): string | null => {
    const values = params.getAll(name);
    if (values.length === 0) return null;
    if (values.length > 1) throw invalidParam(name, `${name} may be given once.`);
    const value = values[0] ?? '';
    if (value === '') throw invalidParam(name, `${name} must not be empty.`);
    return value;
  };
  // The parameters are read in this order (which error wins when several are wrong).
  const status = single('status');
  const limit = checkOf(LIMIT, ctx.faults)(single('limit'));
  const date = (name: string, rounding: 'floor' | 'ceil') => checkOf(DATE, ctx.faults)({ name, value: single(name), rounding });
  const query: ListQuery = {
    status: checkOf(STATUS, ctx.faults)(status),
    externalId: single('external_id'),
    createdFrom: date('created_from', 'ceil'),
    createdTo: date('created_to', 'floor'),
    limit,
    startingAfter: parseStartingAfter(ctx, key, single('starting_after')),
  };
  checkOf(CURSOR_AND_FILTERS, ctx.faults)(query);
  return query;
}

/**
 * starting_after names a Payment ("returns results immediately after it"), whatever its status now:
 * the filters choose what follows it, never whether it may be named. Its status may have changed
 * since the page that named it was read (a cancel, a helper, a reversal).
 */
const CURSOR_AND_FILTERS: Step<ListQuery, void> = {
  name: 'starting_after is any visible Payment, whatever the filters',
  check: () => undefined,
  faulty: {
    'list-cursor-must-match-filter': {
      does: 'starting_after is looked up under the request\'s filters: a cursor whose Payment changed status since its page was ' +
        'read (status=PENDING, then cancelled) is refused 400 invalid_request, so paging a filtered list breaks whenever a Payment moves.',
      breaks: ['LIST-CURSOR-AFTER-CHANGE', 'MODEL-SEQUENCES'],
      violates: ['list.param.starting_after#named'],
      plant: (q) => {
        const cursor = q.startingAfter;
        if (cursor !== null && cursor.id !== '' && q.status !== null && cursor.status !== q.status) {
          throw invalidParam('starting_after', 'starting_after must be a payment matching the filters.');
        }
      },
    },
  },
};

/** status: exactly one of the PaymentStatus values. */
export function parseStatus(value: string | null): PaymentStatus | null {
  if (value === null) return null;
  if (!(PAYMENT_STATUSES as readonly string[]).includes(value)) {
    throw invalidParam('status', `status must be one of ${PAYMENT_STATUSES.join(', ')}.`);
  }
  return value as PaymentStatus;
}

/** limit: decimal digits only, value 1..100; absent → 20. */
export function parseLimit(value: string | null): number {
  if (value === null) return DEFAULT_LIMIT;
  if (!/^[0-9]{1,6}$/.test(value)) throw invalidParam('limit', `limit must be an integer from 1 to ${MAX_LIMIT}.`);
  const n = Number(value);
  if (n < 1 || n > MAX_LIMIT) throw invalidParam('limit', `limit must be an integer from 1 to ${MAX_LIMIT}.`);
  return n;
}

const refuseLimit = (): never => {
  throw invalidParam('limit', `limit must be an integer from 1 to ${MAX_LIMIT}.`);
};

/** What an off-by-one comparison sees: the value of an integer-looking limit, else NaN. */
const limitValue = (raw: string | null): number => (raw !== null && /^-?[0-9]{1,6}$/.test(raw) ? Number(raw) : NaN);

const LIMIT: Step<string | null, number> = {
  name: 'limit',
  check: parseLimit,
  faulty: {
    'list-limit-clamped': {
      does: 'limit is read with parseInt and clamped into 1..100 (20 when unreadable) instead of rejected.',
      breaks: ['LIST-LIMIT-BOUNDS'],
      violates: ['list.param.limit#bounds', 'limits.list-page-size#bounds'],
      plant: (raw, next) => {
        if (raw === null) return next(raw);
        const n = Number.parseInt(raw, 10);
        return Number.isNaN(n) ? DEFAULT_LIMIT : Math.min(MAX_LIMIT, Math.max(1, n));
      },
    },
    'list-limit-accepts-101': {
      does: 'The upper bound of limit is off by one: limit=101 is accepted (a page of up to 101).',
      breaks: ['LIST-LIMIT-BOUNDS'],
      violates: ['list.param.limit#bounds', 'limits.list-page-size#bounds'],
      plant: (raw, next) => (limitValue(raw) === MAX_LIMIT + 1 ? limitValue(raw) : next(raw)),
    },
    'list-limit-accepts-0': {
      does: 'The lower bound of limit is off by one: limit=0 is accepted (an empty page).',
      breaks: ['LIST-LIMIT-BOUNDS'],
      violates: ['list.param.limit#bounds', 'limits.list-page-size#bounds'],
      plant: (raw, next) => (limitValue(raw) === 0 ? limitValue(raw) : next(raw)),
    },
    'list-limit-rejects-100': {
      does: 'The upper bound of limit is exclusive: limit=100, the limit itself, is refused with 400 invalid_request.',
      breaks: ['LIST-LIMIT-BOUNDS', 'LIST-LIMIT-RESPECTED'],
      violates: ['list.param.limit#bounds', 'limits.list-page-size#bounds'],
      plant: (raw, next) => (limitValue(raw) === MAX_LIMIT ? refuseLimit() : next(raw)),
    },
    'list-limit-rejects-1': {
      does: 'The lower bound of limit is exclusive: limit=1, the limit itself, is refused with 400 invalid_request.',
      breaks: ['LIST-LIMIT-BOUNDS', 'LIST-LIMIT-RESPECTED'],
      violates: ['list.param.limit#bounds', 'limits.list-page-size#bounds'],
      plant: (raw, next) => (limitValue(raw) === 1 ? refuseLimit() : next(raw)),
    },
    'list-default-limit-10': {
      does: 'Without limit a page holds 10 Payments instead of the default 20.',
      breaks: ['LIST-LIMIT-DEFAULT'],
      violates: ['list.param.limit#default', 'limits.list-page-size#default'],
      plant: (raw, next) => (raw === null ? 10 : next(raw)),
    },
  },
};

const STATUS: Step<string | null, PaymentStatus | null> = {
  name: 'status',
  check: parseStatus,
  faulty: {
    'list-status-filter-case-folded': {
      does: 'The status filter is trimmed and upper-cased before it is checked: "paid" or " PAID" lists PAID Payments instead of ' +
        'answering 400.',
      breaks: ['LIST-FILTER-STRICT'],
      violates: ['list.param.status#strict'],
      plant: (value, next) => next(value === null ? null : value.trim().toUpperCase()),
    },
    'list-unknown-status-ignored': {
      does: 'An unknown status filter value is dropped (no filter) instead of answered 400 invalid_request.',
      breaks: ['LIST-FILTER-STRICT'],
      violates: ['list.param.status#strict', 'versioning.tolerate-unknown-strict-filters#strict-filters'],
      plant: (value, next) => next(value !== null && !(PAYMENT_STATUSES as readonly string[]).includes(value) ? null : value),
    },
  },
};

const DATE: Step<{ name: string; value: string | null; rounding: 'floor' | 'ceil' }, number | null> = {
  name: 'created_from / created_to',
  check: ({ name, value, rounding }) => parseDateParam(name, value, rounding),
  faulty: {
    'list-date-offset-ignored': {
      does: 'created_from / created_to drop their UTC offset: the wall-clock time is read as UTC.',
      breaks: ['LIST-FILTER-CREATED-RANGE'],
      violates: ['list.param.created_from#filters', 'list.param.created_to#filters'],
      plant: (date, next) => next({ ...date, value: date.value === null ? null : date.value.replace(/(?:[+-]| )\d{2}:\d{2}$/, 'Z') }),
    },
    'list-malformed-date-ignored': {
      does: 'A created_from / created_to that does not parse is dropped instead of answered 400 invalid_request.',
      breaks: ['LIST-FILTER-STRICT'],
      violates: ['enums.request-filters-strict'],
      plant: (date, next) =>
        next(date.value !== null && parseRfc3339(date.value.replace(/ (\d{2}:\d{2})$/, '+$1'), date.rounding) === null ? { ...date, value: null } : date),
    },
  },
};

/**
 * created_from / created_to: RFC 3339 date-time. A "+hh:mm" offset sent unencoded reaches
 * us as " hh:mm" (form decoding turns "+" into a space); that space is read back as "+".
 */
export function parseDateParam(name: string, value: string | null, rounding: 'floor' | 'ceil'): number | null {
  if (value === null) return null;
  const repaired = value.replace(/ (\d{2}:\d{2})$/, '+$1');
  const ms = parseRfc3339(repaired, rounding);
  if (ms === null) throw invalidParam(name, `${name} must be an RFC 3339 date-time.`);
  return ms;
}

/** starting_after: the id of a payment the key can see; anything else → 400. */
export function parseStartingAfter(ctx: AppContext, key: ApiKeyRecord, value: string | null): PaymentRecord | null {
  if (value === null) return null;
  const payment = ctx.state.payments.findVisible(key.businessId, key.env, paymentIdOfCursor(ctx, value));
  if (payment !== undefined) return payment;
  const unknown = checkOf(UNKNOWN_CURSOR_ANSWER, ctx.faults)(ctx);
  if (unknown instanceof ApiError) throw unknown;
  return unknown;
}

/** A starting_after naming no visible Payment: the unknownCursor decision, an empty page or 400 (thrown). */
const UNKNOWN_CURSOR_ANSWER: Step<AppContext, PaymentRecord | ApiError> = {
  name: 'an unknown starting_after: an empty page or 400, statuses listPayments lists',
  check: (ctx) => {
    if (ctx.decisions.unknownCursor === 'empty-page') return UNKNOWN_CURSOR;
    return invalidParam('starting_after', 'starting_after must be the id of one of your payments.');
  },
  faulty: {
    'list-unknown-cursor-answers-404': {
      does: 'A starting_after naming no visible Payment reuses getPayment\'s lookup and answers 404 payment_not_found, a status ' +
        'listPayments does not list.',
      breaks: ['RESP-STATUS-LISTED'],
      violates: ['statuses.listPayments'],
      plant: () => new ApiError('payment_not_found', { param: 'starting_after' }),
    },
  },
};

/** unknownCursor decision 'empty-page': a starting_after naming no visible Payment; nothing follows it. */
const UNKNOWN_CURSOR = { id: '' } as PaymentRecord;

/** Up to limit + 1 matching payments, newest first (or oldest first, listOrder decision), after the cursor. */
function collect(ctx: AppContext, key: ApiKeyRecord, q: ListQuery): PaymentRecord[] {
  if (q.startingAfter === UNKNOWN_CURSOR) return [];
  const hasStatus = checkOf(STATUS_FILTER, ctx.faults)(q.status);
  const externalId = q.externalId === null ? null : checkOf(EXTERNAL_ID_FILTER, ctx.faults)(q.externalId);
  const oldestFirst = ctx.decisions.listOrder === 'oldest-first';
  const cursor = checkOf(CURSOR, ctx.faults)(oldestFirst);
  const instant = checkOf(RANGE_INSTANT, ctx.faults);
  const matches = (p: PaymentRecord): boolean =>
    (hasStatus === null || hasStatus(p)) &&
    (externalId === null || externalId.matches(p)) &&
    (q.createdFrom === null || instant(p) >= q.createdFrom) &&
    (q.createdTo === null || instant(p) <= q.createdTo) &&
    (q.startingAfter === null || cursor.after(p, q.startingAfter));
  if (q.externalId !== null && externalId?.unique === true) {
    return checkOf(BY_EXTERNAL_ID, ctx.faults)({ ctx, key, externalId: q.externalId, matches });
  }
  const all = ctx.state.payments.ascending(key.businessId, key.env);
  if (oldestFirst) return collectOldestFirst(all, q, matches);
  let end = all.length;
  if (q.startingAfter !== null) end = lowerBound(all, q.startingAfter) + (cursor.includesCursor ? 1 : 0);
  const out: PaymentRecord[] = [];
  for (let i = end - 1; i >= 0 && out.length <= q.limit; i -= 1) {
    const p = all[i];
    if (p === undefined) continue;
    if (q.createdFrom !== null && p.createdAt < q.createdFrom) break;
    if (matches(p)) out.push(p);
  }
  return out;
}

/** The instant created_from / created_to compare: the Payment's created_at. */
const RANGE_INSTANT: Step<PaymentRecord, number> = {
  name: 'the created range compares created_at',
  check: (p) => p.createdAt,
  faulty: {
    'list-range-reads-last-change': {
      does: 'The created range compares the row\'s last change (paid_at, cancelled_at) for a Payment that left PENDING: a PAID or ' +
        'CANCELLED Payment falls out of a range around its created_at.',
      breaks: ['LIST-FILTER-CREATED-RANGE'],
      violates: ['list.param.created_from#filters', 'list.param.created_to#filters'],
      plant: (p, next) => p.paidAt ?? p.cancelledAt ?? next(p),
    },
  },
};

/** Whether a Payment has the status the filter asks for (null: no status filter). */
const STATUS_FILTER: Step<PaymentStatus | null, ((p: PaymentRecord) => boolean) | null> = {
  name: 'the status filter is applied to the Payment\'s current status',
  check: (status) => (status === null ? null : (p) => p.status === status),
  faulty: {
    'list-status-filter-misses-reversal': {
      does: 'The status filter reads a status column the API\'s own transitions write; a reversal in the service\'s records ' +
        'changes only the Payment row: status=REVERSED lists nothing and status=PAID still lists the reversed Payment.',
      breaks: ['LIST-FILTER-STATUS', 'MODEL-SEQUENCES'],
      violates: ['list.param.status#filters'],
      plant: (status) => (status === null ? null : (p) => (p.status === 'REVERSED' ? 'PAID' : p.status) === status),
    },
    'list-status-filter-ignored': {
      does: 'The status filter is parsed but never applied: every status is listed.',
      breaks: ['LIST-FILTER-STATUS'],
      violates: ['list.param.status#filters'],
      plant: () => null,
    },
  },
};

interface ExternalIdFilter {
  readonly matches: (p: PaymentRecord) => boolean;
  /** At most one Payment can match (it is looked up, not scanned for). */
  readonly unique: boolean;
}

const EXTERNAL_ID_FILTER: Step<string, ExternalIdFilter> = {
  name: 'external_id: the exact value, unique per business and environment',
  check: (wanted) => ({ matches: (p) => p.externalId === wanted, unique: true }),
  faulty: {
    'list-external-id-prefix-match': {
      does: 'The external_id filter matches by prefix (like SQL LIKE \'x%\'), so x also lists x-2.',
      breaks: ['LIST-FILTER-EXTERNAL-ID'],
      violates: ['list.param.external_id#filters'],
      plant: (wanted) => ({ matches: (p) => p.externalId !== null && p.externalId.startsWith(wanted), unique: false }),
    },
    'list-external-id-case-folded': {
      does: 'The external_id filter matches case-insensitively: external_id=ORD-1 also lists the Payment of ord-1.',
      breaks: ['LIST-FILTER-EXTERNAL-ID'],
      violates: ['list.param.external_id#filters'],
      plant: (wanted) => ({ matches: (p) => p.externalId !== null && p.externalId.toLowerCase() === wanted.toLowerCase(), unique: false }),
    },
  },
};

interface Cursor {
  /** Whether a Payment comes after the cursor Payment in the list's order. */
  readonly after: (p: PaymentRecord, cursor: PaymentRecord) => boolean;
  /** Whether the newest-first scan starts at the cursor itself. */
  readonly includesCursor: boolean;
}

/** starting_after: what follows the cursor in the list's order (oldest first or not), the cursor excluded. */
const CURSOR: Step<boolean, Cursor> = {
  name: 'starting_after: strictly after the cursor',
  check: (oldestFirst) => ({
    after: (p, cursor) => (oldestFirst ? compareAscending(p, cursor) > 0 : compareAscending(p, cursor) < 0),
    includesCursor: false,
  }),
  faulty: {
    'list-starting-after-inclusive': {
      does: 'starting_after includes the cursor Payment itself, so it is listed again on the next page.',
      breaks: ['LIST-PAGINATION-COMPLETE', 'LIST-HAS-MORE', 'LIST-LIMIT-DEFAULT', 'MODEL-SEQUENCES'],
      violates: ['list.param.starting_after#after'],
      plant: () => ({ after: (p, cursor) => compareAscending(p, cursor) <= 0, includesCursor: true }),
    },
    'list-cursor-whole-seconds': {
      does: 'The cursor resumes at created_at in whole seconds (a unix-time keyset, `created_at < :second`): the Payments created in ' +
        'the same second as the cursor Payment and after it in the order are skipped.',
      breaks: ['LIST-PAGINATION-COMPLETE', 'MODEL-SEQUENCES'],
      violates: ['list.param.starting_after#complete'],
      plant: (oldestFirst) => ({
        after: (p, cursor) => (oldestFirst ? Math.floor(p.createdAt / 1000) > Math.floor(cursor.createdAt / 1000) : Math.floor(p.createdAt / 1000) < Math.floor(cursor.createdAt / 1000)),
        includesCursor: false,
      }),
    },
  },
};

interface ByExternalId {
  readonly ctx: AppContext;
  readonly key: ApiKeyRecord;
  readonly externalId: string;
  readonly matches: (p: PaymentRecord) => boolean;
}

/** external_id is unique per business and environment: at most one candidate, looked up. */
const BY_EXTERNAL_ID: Step<ByExternalId, PaymentRecord[]> = {
  name: "the Payment of that external_id in the key's environment, as it is now",
  check: ({ ctx, key, externalId, matches }) => {
    const p = ctx.state.payments.findByExternalId(key.businessId, key.env, externalId);
    return p !== undefined && matches(p) ? [p] : [];
  },
  faulty: {
    'list-external-id-ignores-environment': {
      does: 'The external_id filter of listPayments looks the value up in Test and Live alike.',
      breaks: ['ISO-TEST-LIVE-LIST'],
      violates: ['rules.test-live-never-see-each-other#test-key'],
      plant: ({ ctx, key, externalId, matches }) =>
        (['test', 'live'] as const)
          .map((env) => ctx.state.payments.findByExternalId(key.businessId, env, externalId))
          .filter((p): p is PaymentRecord => p !== undefined && matches(p)),
    },
    'list-external-id-stale-status': {
      does: 'The external_id filter answers from a snapshot taken at creation: a cancelled or paid Payment is listed as PENDING.',
      breaks: ['MODEL-SEQUENCES'],
      violates: ['payment.field.status#current'],
      plant: ({ ctx, key, externalId, matches }) => {
        const p = ctx.state.payments.findByExternalId(key.businessId, key.env, externalId);
        const stale = p === undefined ? undefined : { ...p, status: 'PENDING' as const, paidAt: null, cancelledAt: null };
        return stale !== undefined && matches(stale) ? [stale] : [];
      },
    },
  },
};

/** listOrder decision 'oldest-first': up to limit + 1 matching payments, oldest first, after the cursor. */
function collectOldestFirst(all: readonly PaymentRecord[], q: ListQuery, matches: (p: PaymentRecord) => boolean): PaymentRecord[] {
  const out: PaymentRecord[] = [];
  const start = q.startingAfter === null ? 0 : lowerBound(all, q.startingAfter);
  for (let i = start; i < all.length && out.length <= q.limit; i += 1) {
    const p = all[i];
    if (p === undefined) continue;
    if (q.createdTo !== null && p.createdAt > q.createdTo) break;
    if (matches(p)) out.push(p);
  }
  return out;
}

/** First index whose payment is not before `target` in ascending order. */
function lowerBound(all: readonly PaymentRecord[], target: PaymentRecord): number {
  let lo = 0;
  let hi = all.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const p = all[mid];
    if (p !== undefined && compareAscending(p, target) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function invalidParam(param: string, message: string): ApiError {
  return new ApiError('invalid_request', { param, message });
}

/** The steps of this file that plant faults (references/service/fault-registry.ts reads their declarations). */
export const FAULTY_STEPS: readonly PlantingStep[] = [
  PAYMENT_LIST, PAGE, LIMIT, STATUS, DATE, RANGE_INSTANT, STATUS_FILTER, EXTERNAL_ID_FILTER, CURSOR, BY_EXTERNAL_ID, UNKNOWN_CURSOR_ANSWER,
  CURSOR_AND_FILTERS,
];

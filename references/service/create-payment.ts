/**
 * createPayment: POST /payments (spec, "Endpoints", "Rules" 1-4, "CreatePaymentRequest").
 *
 * Steps, in order:
 *  1. Idempotency-Key header well-formed (400 invalid_request); body at most 1 MiB.
 *  2. With an Idempotency-Key: replay / idempotency_conflict / idempotency_in_progress,
 *     or reserve the key (idempotency.ts).
 *  3. Processing time (createDelayMs), during which the key is "still processing".
 *  4. Body: JSON object with Content-Type application/json; fields (validate-create.ts).
 *  5. customer_id / order_id (order-checks.ts).
 *  6. external_id unique in the business and environment (409 external_id_conflict).
 *  7. Live keys only: readiness (live-readiness.ts).
 *  8. Commit (synchronously after step 3, so concurrent requests cannot both pass 6: steps 6-8 are
 *     one step, UNIQUE_COMMIT, with no await inside),
 *     event payment.created with the very representation answered, 201.
 *
 * The planted faults of this file are overrides named after the defect, in the `faulty` table of
 * the step they break (references/service/steps.ts says how an override replaces a check).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AppContext } from './context.ts';
import { ApiError } from './errors.ts';
import type { RequestBody } from './http-io.ts';
import { bodyFingerprint, readIdempotencyKey, type StoredResponse } from './idempotency.ts';
import { newPaymentId } from './ids.ts';
import { checkLiveReadiness } from './live-readiness.ts';
import { checkRelations, type ResolvedRelations } from './order-checks.ts';
import { checkoutUrlFor, toPaymentResource } from './payments.ts';
import { jsonReply, type Reply } from './reply.ts';
import { BODY_LIMIT_BYTES, MAX_LENGTHS } from './decisions.ts';
import { formatCents } from './decimal.ts';
import { COLLECTION_CHANNELS, PAYMENT_METHODS, type ApiKeyRecord, type Order, type PaymentRecord, type PaymentResource } from './types.ts';
import { parseJsonObjectBody, rejectNullFields, rejectUnknownFields, validateCreateRequest, type CreatePaymentInput } from './validate-create.ts';
import { emitEvent } from './webhooks/emit.ts';
import type { Override } from '../seams/steps.ts';
import { checkOf, type PlantingStep, type Step } from './steps.ts';

/** One create request, as runCreate takes it. */
interface Create {
  readonly ctx: AppContext;
  readonly key: ApiKeyRecord;
  readonly contentType: string | undefined;
  readonly body: RequestBody;
}

export async function createPayment(
  ctx: AppContext,
  key: ApiKeyRecord,
  headers: IncomingHttpHeaders,
  body: RequestBody,
): Promise<Reply> {
  const idempotencyKey = checkOf(IDEMPOTENCY_KEY, ctx.faults)({ ctx, header: headers['idempotency-key'] });
  if (body.bytes.length > BODY_LIMIT_BYTES[ctx.decisions.bodyLimit]) {
    throw new ApiError('invalid_request', { message: `The request body exceeds ${ctx.decisions.bodyLimit}.` });
  }
  if (body.tooLarge) throw new ApiError('invalid_request', { message: 'The request body exceeds 1 MiB.' });
  const create: Create = { ctx, key, contentType: headers['content-type'], body };
  if (idempotencyKey === null) return checkOf(UNKEYED, ctx.faults)(create);
  const fingerprint = checkOf(FINGERPRINT, ctx.faults)({ ctx, body });
  return checkOf(KEYED, ctx.faults)({ create, scope: checkOf(KEY_SCOPE, ctx.faults)(key), idempotencyKey, fingerprint });
}

/** The Idempotency-Key header as the store keys it. */
/** A create without an Idempotency-Key: its checks come before anything is written or emitted. */
const UNKEYED: Step<Create, Promise<Reply>> = {
  name: 'a refused create writes and emits nothing',
  check: (create) => runCreate(create),
  faulty: {
    'refused-create-emits-created': {
      does: 'The external_id unique index fires at commit, after the outbox row was written: a create refused 409 ' +
        'external_id_conflict still emits payment.created for the rolled-back Payment.',
      breaks: ['HOOK-REFUSED-NO-EVENT'],
      violates: ['states.create-pending#refused-no-event'],
      plant: async (create, next) => {
        try {
          return await next(create);
        } catch (e) {
          if (e instanceof ApiError && e.code === 'external_id_conflict') emitPhantomCreated(create);
          throw e;
        }
      },
    },
  },
};

/** The payment.created of a Payment rolled back at commit (fault refused-create-emits-created). */
function emitPhantomCreated({ ctx, key, body }: Create): void {
  let fields: Record<string, unknown> = {};
  try {
    fields = JSON.parse(body.bytes.toString('utf8')) as Record<string, unknown>;
  } catch {
    return;
  }
  const id = newPaymentId();
  const at = ctx.now();
  const object = { id, object: 'payment', livemode: key.env === 'live', status: 'PENDING', amount: fields.amount, external_id: fields.external_id ?? null, metadata: fields.metadata ?? {}, created_at: new Date(at).toISOString() };
  emitEvent(ctx, 'payment.created', { businessId: key.businessId, env: key.env, paymentId: id }, object, at);
}

const IDEMPOTENCY_KEY: Step<{ readonly ctx: AppContext; readonly header: string | string[] | undefined }, string | null> = {
  name: 'the Idempotency-Key, compared exactly',
  check: ({ ctx, header }) => readIdempotencyKey(header, ctx.decisions.idempotencyKeyMax),
  faulty: {
    'idempotency-key-case-folded': {
      does: 'Idempotency keys are compared case-insensitively: a key differing only in letter case replays or conflicts with the ' +
        'other key\'s request.',
      breaks: ['IDEM-VALUES-EXACT'],
      violates: ['rules.idempotency.same-key-same-body#exact-key'],
      plant: (input, next) => next(input)?.toLowerCase() ?? null,
    },
  },
};

/** What "the same request" compares: the body's fingerprint. */
const FINGERPRINT: Step<{ readonly ctx: AppContext; readonly body: RequestBody }, string> = {
  name: 'the stored request includes its body',
  check: ({ ctx, body }) => bodyFingerprint(body.bytes, ctx.decisions.bodyIdentity),
  faulty: {
    'idempotency-ignores-body': {
      does: 'The body is not part of the stored request: the same key with a different body replays the original instead of 409 ' +
        'idempotency_conflict.',
      breaks: ['IDEM-CONFLICT'],
      violates: ['rules.idempotency.same-key-different-body'],
      plant: () => 'any body',
    },
  },
};

/** Whose keys an Idempotency-Key is one of. */
const KEY_SCOPE: Step<ApiKeyRecord, string> = {
  name: 'Idempotency-Keys are scoped to the API key',
  check: (key) => key.key,
  faulty: {
    'idempotency-scoped-to-business': {
      does: 'Idempotency keys are stored per business and environment instead of per API key.',
      breaks: ['IDEM-SCOPED-TO-API-KEY'],
      violates: ['auth.idempotency-scoped-to-key'],
      plant: (key) => `${key.businessId}:${key.env}`,
    },
  },
};

interface Keyed {
  readonly create: Create;
  readonly scope: string;
  readonly idempotencyKey: string;
  readonly fingerprint: string;
}

/** A create with an Idempotency-Key: replay, conflict, in progress, or run once (faults outermost last). */
const KEYED: Step<Keyed, Promise<Reply>> = {
  name: 'Rules 1-3: one Payment per Idempotency-Key',
  check: guardedCreate,
  faulty: {
    'idempotency-no-in-progress-guard': {
      does: 'The key is recorded only when the request has finished: concurrent identical requests are all processed.',
      breaks: ['IDEM-IN-PROGRESS'],
      violates: ['rules.idempotency.in-progress'],
      plant: unguardedCreate,
    },
    'idempotency-key-check-then-store': {
      does: 'The Idempotency-Key is looked up, then reserved after an await (a lookup, then an upsert): identical requests sent at ' +
        'once all find the key free and are all processed, so the later ones answer 409 external_id_conflict or make a second Payment.',
      breaks: ['IDEM-CONCURRENT-UNIQUE', 'IDEM-IN-PROGRESS', 'MODEL-SEQUENCES'],
      violates: ['rules.idempotency.in-progress'],
      plant: keyCheckedThenStored,
    },
    'idempotency-key-ignored': {
      does: 'The Idempotency-Key header is never used: every request is processed anew.',
      breaks: ['IDEM-REPLAY', 'IDEM-REPLAY-EXTERNAL-ID', 'IDEM-CONFLICT', 'IDEM-IN-PROGRESS'],
      plant: ({ create }) => runCreate(create),
    },
  },
};

async function guardedCreate(keyed: Keyed): Promise<Reply> {
  const { ctx } = keyed.create;
  const outcome = ctx.state.idempotency.begin(keyed.scope, keyed.idempotencyKey, keyed.fingerprint, ctx.now(), ctx.decisions.idempotencyClash);
  if (outcome.kind === 'replay' && outcome.response.error !== undefined) {
    const original = outcome.response.error;
    throw new ApiError(original.code, { param: original.param, message: original.message, headers: { ...original.headers, 'Idempotent-Replayed': 'true' } });
  }
  if (outcome.kind === 'replay') return checkOf(REPLAY, ctx.faults)({ create: keyed.create, stored: outcome.response });
  try {
    const reply = await runCreate(keyed.create);
    ctx.state.idempotency.complete(outcome.slot, { status: reply.status, body: reply.body });
    return reply;
  } catch (err) {
    if (ctx.decisions.idempotentErrors === 'stored' && err instanceof ApiError && err.status >= 400 && err.status < 500) {
      ctx.state.idempotency.complete(outcome.slot, { status: err.status, body: Buffer.alloc(0), error: err });
    } else {
      ctx.state.idempotency.release(outcome.slot);
    }
    throw err;
  }
}

/** The key looked up, then reserved after an await (fault idempotency-key-check-then-store). */
async function keyCheckedThenStored(keyed: Keyed, next: (keyed: Keyed) => Promise<Reply>): Promise<Reply> {
  const { ctx } = keyed.create;
  const store = ctx.state.idempotency;
  const seen = store.begin(keyed.scope, keyed.idempotencyKey, keyed.fingerprint, ctx.now(), ctx.decisions.idempotencyClash);
  if (seen.kind === 'replay') return next(keyed);
  store.release(seen.slot);
  await sleep(CHECK_TO_INSERT_MS);
  const slot = store.reserve(keyed.scope, keyed.idempotencyKey, keyed.fingerprint, ctx.now());
  try {
    const reply = await runCreate(keyed.create);
    store.complete(slot, { status: reply.status, body: reply.body });
    return reply;
  } catch (err) {
    store.release(slot);
    throw err;
  }
}

/** The key recorded only once the request has finished (fault idempotency-no-in-progress-guard). */
async function unguardedCreate({ create, scope, idempotencyKey, fingerprint }: Keyed): Promise<Reply> {
  const { ctx } = create;
  const seen = ctx.state.idempotency.begin(scope, idempotencyKey, fingerprint, ctx.now());
  if (seen.kind === 'replay') return { status: seen.response.status, body: seen.response.body, headers: { 'Idempotent-Replayed': 'true' } };
  ctx.state.idempotency.release(seen.slot);
  const reply = await runCreate(create);
  const done = ctx.state.idempotency.begin(scope, idempotencyKey, fingerprint, ctx.now());
  if (done.kind === 'started') ctx.state.idempotency.complete(done.slot, { status: reply.status, body: reply.body });
  return reply;
}

/** A replay answers the stored result, marked Idempotent-Replayed (faults outermost last). */
const REPLAY: Step<{ readonly create: Create; readonly stored: StoredResponse }, Promise<Reply>> = {
  name: 'a replay answers the stored status and body',
  check: async ({ create, stored }) => ({ status: stored.status, body: replayBody(create.ctx, stored.body), headers: { 'Idempotent-Replayed': 'true' } }),
  faulty: {
    'replay-after-transition-recreates': {
      does: 'An idempotent replay whose Payment is no longer PENDING runs the create again instead of returning the original result.',
      breaks: ['MODEL-SEQUENCES'],
      violates: ['rules.idempotency.same-key-same-body#original-result'],
      plant: (replay, next) => {
        const original = replay.create.ctx.state.payments.getAny(String(JSON.parse(replay.stored.body.toString('utf8')).id));
        return original !== undefined && original.status !== 'PENDING' ? runCreate(replay.create) : next(replay);
      },
    },
    'replay-emits-created-again': {
      does: 'An idempotent replay goes through the outbox again: every replay emits another payment.created (a new event id) for the ' +
        'original Payment.',
      breaks: ['HOOK-REFUSED-NO-EVENT'],
      violates: ['rules.idempotency.same-key-same-body#no-second-event'],
      plant: afterReplay((ctx, original) => {
        emitEvent(ctx, 'payment.created', { businessId: original.businessId, env: original.env, paymentId: original.id }, toPaymentResource(original, ctx.decisions), ctx.now());
      }),
    },
    'replay-inserts-a-copy': {
      does: 'An idempotent replay answers the original result, but the write path runs again and keeps a copy of the Payment under a ' +
        'new id (no event; its fields and metadata the same, external_id left empty by the unique index): the business holds two ' +
        'Payments for one create.',
      breaks: ['IDEM-REPLAY'],
      violates: ['rules.idempotency.same-key-same-body#no-duplicate'],
      plant: afterReplay((ctx, original) => ctx.state.payments.insert({ ...original, id: newPaymentId(), externalId: null, createdAt: ctx.now() })),
    },
    'replay-rechecks-external-id': {
      does: 'A replay re-runs the external_id uniqueness check and answers 409 external_id_conflict instead of the original result.',
      breaks: ['IDEM-REPLAY', 'IDEM-REPLAY-EXTERNAL-ID', 'IDEM-CONFLICT', 'IDEM-IN-PROGRESS'],
      violates: ['rules.idempotency.same-key-same-body#original-result'],
      plant: async (replay, next) => {
        const { ctx, key, contentType, body } = replay.create;
        checkExternalIdUnique(ctx, key, validateCreateRequest(parseJsonObjectBody(contentType, body)).externalId);
        return next(replay);
      },
    },
  },
};

type Replay = { readonly create: Create; readonly stored: StoredResponse };

/** A planted replay that answers as it should, then does `also` with the original Payment (a replay of a 201 only). */
function afterReplay(also: (ctx: AppContext, original: PaymentRecord) => void): Override<Replay, Promise<Reply>> {
  return async (replay, next) => {
    const reply = await next(replay);
    const { ctx } = replay.create;
    const original = replay.stored.status === 201 ? ctx.state.payments.getAny(String(JSON.parse(replay.stored.body.toString('utf8')).id)) : undefined;
    if (original !== undefined) also(ctx, original);
    return reply;
  };
}

/** replayBody decision: the stored 201 bytes, or the created Payment as it is now. */
function replayBody(ctx: AppContext, stored: Buffer): Buffer {
  if (ctx.decisions.replayBody === 'original-snapshot') return stored;
  const id = String((JSON.parse(stored.toString('utf8')) as { id?: unknown }).id);
  const payment = ctx.state.payments.getAny(id);
  return payment === undefined ? stored : jsonReply(201, toPaymentResource(payment, ctx.decisions)).body;
}

async function runCreate(create: Create): Promise<Reply> {
  const { ctx, key } = create;
  if (ctx.createDelayMs > 0) await sleep(ctx.createDelayMs);
  const d = ctx.decisions;
  const fields = checkOf(JSON_BODY, ctx.faults)(create);
  const input = validateCreateRequest(fields, ctx.faults, { precedence: d.fieldPrecedence, lengths: MAX_LENGTHS[d.maxLengths] });
  if (d.nullFields === 'rejected') rejectNullFields(fields);
  if (d.unknownFields === 'rejected') rejectUnknownFields(fields);
  const relations = checkOf(STORE_CHECKS, ctx.faults)({ create, input });
  const committed = checkOf(UNIQUE_COMMIT, ctx.faults)({ ctx, key, input, relations });
  // No await between the uniqueness check and the insert unless a fault puts one there.
  const payment = committed instanceof Promise ? await committed : committed;
  const resource = toPaymentResource(payment, ctx.decisions);
  const eventObject = checkOf(CREATED_EVENT_OBJECT, ctx.faults)(resource);
  const emitCreated = () => emitEvent(ctx, 'payment.created', { businessId: payment.businessId, env: payment.env, paymentId: payment.id }, eventObject, payment.createdAt);
  // createdEventTiming decision: the event is created now either way; 'after-response' hands it to the dispatcher once the 201 is out.
  if (d.createdEventTiming === 'after-response') setImmediate(emitCreated);
  else emitCreated();
  return checkOf(CREATED_REPLY, ctx.faults)(resource);
}

/** A validated create, before the checks against what the store holds. */
interface Validated {
  readonly create: Create;
  readonly input: CreatePaymentInput;
}

/**
 * customer and order (order-checks.ts); Rule 4 and Live readiness follow at the insert (UNIQUE_COMMIT):
 * a refusal at any of them leaves nothing held.
 */
const STORE_CHECKS: Step<Validated, ResolvedRelations> = {
  name: 'the store checks hold nothing for a create they refuse',
  check: ({ create: { ctx, key }, input }) => {
    const reservedCents = ctx.decisions.orderDue === 'pending-reserves' ? (order: Order) => pendingCentsOf(ctx, key, order) : undefined;
    return checkRelations({ customers: ctx.state.customers, orders: ctx.state.orders, reservedCents }, key, input, ctx.faults);
  },
  faulty: {
    'refused-create-holds-external-id': {
      does: 'The external_id is reserved (a unique row written) before the customer, order and Live readiness checks, and a refusal ' +
        'there never releases it: the next valid create with that external_id is refused 409 external_id_conflict.',
      breaks: ['CREATE-REFUSAL-NO-TRACE', 'MODEL-SEQUENCES'],
      violates: ['create.field.external_id#refused-not-held'],
      plant: (validated, next) => {
        const { ctx, key } = validated.create;
        const externalId = validated.input.externalId;
        if (externalId === null) return next(validated);
        const held = heldExternalIds(ctx.state);
        const slot = `${key.businessId}\u0000${key.env}\u0000${externalId}`;
        if (held.has(slot)) throw conflict();
        held.add(slot);
        return next(validated);
      },
    },
  },
};

interface Commit {
  readonly ctx: AppContext;
  readonly key: ApiKeyRecord;
  readonly input: CreatePaymentInput;
  readonly relations: ResolvedRelations;
}

/** How long the planted check-then-insert waits between its check and its insert (a round trip to a database). */
const CHECK_TO_INSERT_MS = 100;

/**
 * Rule 4 under concurrency: the external_id check, the Live checks and the insert run at one
 * instant (no await between them), so of concurrent creates sharing a new external_id one is
 * inserted and the others see it.
 */
const UNIQUE_COMMIT: Step<Commit, PaymentRecord | Promise<PaymentRecord>> = {
  name: 'the external_id check and the insert at one instant',
  check: ({ ctx, key, input, relations }) => {
    checkExternalIdUnique(ctx, key, input.externalId);
    checkOf(LIVE_READINESS, ctx.faults)({ ctx, key, input });
    return commitPayment(ctx, key, input, relations);
  },
  faulty: {
    'external-id-unique-check-then-insert': {
      does: 'The external_id uniqueness check and the insert are separated by an await (check, then insert, no unique index): ' +
        'concurrent creates sharing a new external_id all pass the check and all answer 201.',
      breaks: ['IDEM-CONCURRENT-UNIQUE', 'MODEL-SEQUENCES'],
      violates: ['rules.external-id-conflict'],
      plant: async ({ ctx, key, input, relations }) => {
        checkExternalIdUnique(ctx, key, input.externalId);
        await sleep(CHECK_TO_INSERT_MS);
        checkOf(LIVE_READINESS, ctx.faults)({ ctx, key, input });
        return commitPayment(ctx, key, input, relations);
      },
    },
  },
};

/** The external_ids reserved before the store checks (fault refused-create-holds-external-id), per store. */
const HELD_EXTERNAL_IDS = new WeakMap<object, Set<string>>();

function heldExternalIds(store: object): Set<string> {
  let held = HELD_EXTERNAL_IDS.get(store);
  if (held === undefined) HELD_EXTERNAL_IDS.set(store, (held = new Set()));
  return held;
}

/**
 * A create's Idempotency-Key marked in progress and never completed nor released (fault
 * throttled-create-holds-key, planted where the rate limit is taken: app.ts).
 */
export function holdIdempotencyKey(ctx: AppContext, key: ApiKeyRecord, headers: IncomingHttpHeaders, body: RequestBody): void {
  try {
    const idempotencyKey = readIdempotencyKey(headers['idempotency-key'], ctx.decisions.idempotencyKeyMax);
    if (idempotencyKey === null) return;
    const fingerprint = bodyFingerprint(body.bytes, ctx.decisions.bodyIdentity);
    ctx.state.idempotency.begin(key.key, idempotencyKey, fingerprint, ctx.now(), ctx.decisions.idempotencyClash);
  } catch {
    /* a malformed key, or one already held: nothing more to hold */
  }
}

/** The body: a JSON object (validate-create.ts). */
const JSON_BODY: Step<Create, ReturnType<typeof parseJsonObjectBody>> = {
  name: 'the body is parsed as a JSON object, a bad one answered 400',
  check: ({ ctx, contentType, body }) => parseJsonObjectBody(contentType, body, ctx.faults, ctx.decisions.contentType),
  faulty: {
    'malformed-json-crashes': {
      does: 'createPayment parses the body with a bare JSON.parse before validation: a body that is not JSON throws and answers 500 ' +
        'internal_error.',
      breaks: ['RESP-NO-5XX', 'CREATE-MALFORMED-JSON'],
      violates: ['errors.code.invalid_request'],
      plant: (create, next) => {
        JSON.parse(create.body.bytes.toString('utf8'));
        return next(create);
      },
    },
  },
};

/** Live keys only: the readiness checks (live-readiness.ts). */
const LIVE_READINESS: Step<{ readonly ctx: AppContext; readonly key: ApiKeyRecord; readonly input: CreatePaymentInput }, void> = {
  name: 'the Live readiness checks run for Live keys only',
  check: ({ ctx, key, input }) => {
    if (key.env === 'live') checkLiveReadiness(businessOf(ctx, key), input, ctx.faults);
  },
  faulty: {
    'live-checks-in-test-mode': {
      does: 'The Live readiness checks also run for Test creates, which then answer the Live-only 409s.',
      breaks: ['ISO-TEST-NO-LIVE-409'],
      violates: ['overview.test-touches-no-money#no-live-checks'],
      plant: ({ ctx, key, input }) => checkLiveReadiness(businessOf(ctx, key), input, ctx.faults),
    },
  },
};

/** payment.created carries the very representation the 201 answers. */
const CREATED_EVENT_OBJECT: Step<PaymentResource, object> = {
  name: "payment.created's data.object is the created Payment",
  check: (resource) => resource,
  faulty: {
    'created-event-without-checkout-url': {
      does: 'payment.created is rendered before the hosted checkout session is attached: its data.object has no checkout_url.',
      breaks: ['HOOK-EVENT-CREATED'],
      violates: ['event.data-object-is-get#created'],
      plant: (resource) => {
        const { checkout_url: _checkoutUrl, ...early } = resource;
        return early;
      },
    },
  },
};

const CREATED_REPLY: Step<PaymentResource, Reply> = {
  name: '201 with the Payment',
  check: (resource) => jsonReply(201, resource),
  faulty: {
    'create-answers-amount-as-number': {
      does: 'The 201 of createPayment serialises amount as a JSON number (the ORM\'s decimal), not a decimal string.',
      breaks: ['RESP-PAYMENT-SCHEMA'],
      violates: ['payment.field.amount#type', 'overview.amounts-decimal-strings#answers-strings'],
      plant: (resource) => jsonReply(201, { ...resource, amount: Number(resource.amount) }),
    },
  },
};

/** Rule 4: an external_id already used in the same business and environment → 409. */
export function checkExternalIdUnique(ctx: AppContext, key: ApiKeyRecord, externalId: string | null): void {
  if (externalId !== null) checkOf(EXTERNAL_ID, ctx.faults)({ ctx, key, externalId });
}

const conflict = () => new ApiError('external_id_conflict', { param: 'external_id' });

/** The key's Payments whose external_id, mapped by `same`, equals `externalId` mapped alike. */
function usedAlike(ctx: AppContext, key: ApiKeyRecord, externalId: string, same: (value: string) => string): boolean {
  const wanted = same(externalId);
  return ctx.state.payments.ascending(key.businessId, key.env).some((p) => p.externalId !== null && same(p.externalId) === wanted);
}

/** external_id unique in the business and environment, compared exactly (faults outermost last: the last listed runs first). */
const EXTERNAL_ID: Step<{ readonly ctx: AppContext; readonly key: ApiKeyRecord; readonly externalId: string }, void> = {
  name: 'Rule 4: external_id unique per business and environment (409 external_id_conflict)',
  check: ({ ctx, key, externalId }) => {
    if (ctx.state.payments.findByExternalId(key.businessId, key.env, externalId) !== undefined) throw checkOf(EXTERNAL_ID_CONFLICT, ctx.faults)();
  },
  faulty: {
    'external-id-case-folded': {
      does: 'external_id uniqueness is checked case-insensitively: an external_id differing only in letter case answers 409 ' +
        'external_id_conflict.',
      breaks: ['IDEM-VALUES-EXACT'],
      violates: ['create.field.external_id#exact'],
      plant: (input, next) => {
        if (usedAlike(input.ctx, input.key, input.externalId, (v) => v.toLowerCase())) throw conflict();
        next(input);
      },
    },
    'external-id-compared-trimmed': {
      does: 'external_id uniqueness compares trimmed values: an external_id with a trailing space answers 409 external_id_conflict ' +
        'against the one without.',
      breaks: ['IDEM-VALUES-EXACT'],
      violates: ['create.field.external_id#exact'],
      plant: (input, next) => {
        if (usedAlike(input.ctx, input.key, input.externalId, (v) => v.trim())) throw conflict();
        next(input);
      },
    },
    'external-id-unique-across-environments': {
      does: 'external_id uniqueness is checked over Test and Live together, so the Live side cannot reuse a Test value.',
      breaks: ['IDEM-EXTERNAL-ID-SCOPE'],
      violates: ['create.field.external_id#scope-environment'],
      plant: (input, next) => {
        const other = input.key.env === 'live' ? 'test' : 'live';
        if (input.ctx.state.payments.findByExternalId(input.key.businessId, other, input.externalId) !== undefined) throw conflict();
        next(input);
      },
    },
    'external-id-unique-across-businesses': {
      does: 'external_id uniqueness is checked over every business, so another business cannot reuse a value.',
      breaks: ['IDEM-EXTERNAL-ID-SCOPE', 'IDEM-SCOPED-TO-API-KEY'],
      violates: ['create.field.external_id#scope-business'],
      plant: (input, next) => {
        for (const businessId of input.ctx.state.businesses.keys()) {
          if (input.ctx.state.payments.findByExternalId(businessId, input.key.env, input.externalId) !== undefined) throw conflict();
        }
        next(input);
      },
    },
    'external-id-not-unique': {
      does: 'The uniqueness of external_id is never checked: a second create with the same external_id succeeds.',
      breaks: ['IDEM-EXTERNAL-ID-CONFLICT'],
      violates: ['create.field.external_id#unique-when-set', 'rules.external-id-conflict'],
      plant: () => undefined,
    },
  },
};

const EXTERNAL_ID_CONFLICT: Step<void, ApiError> = {
  name: 'an external_id conflict answers 409',
  check: conflict,
  faulty: {
    'external-id-conflict-answers-400': {
      does: 'A reused external_id answers 400 with code external_id_conflict (validation-style status) instead of the table\'s 409.',
      breaks: ['RESP-ERROR-STATUS-MATCHES-CODE'],
      violates: ['errors.code.external_id_conflict#status'],
      plant: () => Object.assign(conflict(), { status: 400 }),
    },
  },
};

function commitPayment(
  ctx: AppContext,
  key: ApiKeyRecord,
  input: CreatePaymentInput,
  relations: ResolvedRelations,
): PaymentRecord {
  const id = newPaymentId(ctx.decisions.paymentIds);
  const d = ctx.decisions;
  const payment: PaymentRecord = {
    id,
    businessId: key.businessId,
    env: key.env,
    status: 'PENDING',
    amount: d.amountEcho === 'two-decimals' ? formatCents(input.amountCents) : input.amount,
    amountCents: input.amountCents,
    description: input.description,
    merchantReference: input.merchantReference,
    externalId: input.externalId,
    metadata: input.metadata,
    // omittedDefaults decision: stored after the Live checks, so a default never makes a create fail.
    allowedMethods: input.allowedMethods ?? (d.omittedDefaults === 'all-values' ? [...PAYMENT_METHODS] : undefined),
    allowedChannels: input.allowedChannels ?? (d.omittedDefaults === 'all-values' ? [...COLLECTION_CHANNELS] : undefined),
    returnUrl: input.returnUrl,
    checkoutUrl: checkoutUrlFor(id, d),
    customerId: relations.customerId,
    orderId: relations.order?.id ?? null,
    createdAt: ctx.now(),
    paidAt: null,
    cancelledAt: null,
  };
  const stored = checkOf(STORED_PAYMENT, ctx.faults)(payment);
  checkOf(INSERT, ctx.faults)({ ctx, payment: stored });
  return stored;
}

/** The insert itself: the created Payment is kept, so every read finds it. */
const INSERT: Step<{ readonly ctx: AppContext; readonly payment: PaymentRecord }, void> = {
  name: 'POST /payments creates: the Payment is kept',
  check: ({ ctx, payment }) => ctx.state.payments.insert(payment),
  faulty: {
    'create-not-kept': {
      does: 'createPayment answers 201 with the Payment it built and emits payment.created, but the insert goes to a write buffer ' +
        'that is never flushed: no read ever finds it.',
      breaks: ['CREATE-FIELDS-ECHOED'],
      violates: ['endpoints.op.createPayment#route'],
      plant: () => undefined,
    },
  },
};

/** The record the insert stores: the Payment as built. Its planted faults store something else. */
const STORED_PAYMENT: Step<PaymentRecord, PaymentRecord> = {
  name: 'the inserted record',
  check: (payment) => payment,
  faulty: {
    'merchant-reference-dropped': {
      does: 'The insert forgets merchant_reference: it is accepted but stored and answered as null.',
      breaks: ['CREATE-FIELDS-ECHOED', 'CREATE-REFERENCE-TOO-LONG-CODE'],
      violates: ['create.field.merchant_reference#echoed', 'payment.field.merchant_reference#meaning'],
      plant: (payment, next) => next({ ...payment, merchantReference: null }),
    },
    'description-dropped': {
      does: 'The insert forgets description: it is accepted but stored and answered as null.',
      breaks: ['CREATE-FIELDS-ECHOED'],
      violates: ['create.field.description#echoed'],
      plant: (payment, next) => next({ ...payment, description: null }),
    },
    'metadata-keys-lowercased': {
      does: 'Metadata keys are stored lower-cased (a case-insensitive key-value column): { "Order": "1" } comes back { "order": "1" }.',
      breaks: ['CREATE-FIELDS-ECHOED'],
      violates: ['create.field.metadata#echoed', 'metadata.string-map#echoed'],
      plant: (payment, next) => next({ ...payment, metadata: Object.fromEntries(Object.entries(payment.metadata).map(([k, v]) => [k.toLowerCase(), v])) }),
    },
    'checkout-url-relative': {
      does: 'checkout_url is stored as the path of the hosted page (`/c/pay_…`), not an absolute URL.',
      breaks: ['RESP-PAYMENT-CHECKOUT-URL'],
      violates: ['payment.field.checkout_url#meaning'],
      plant: (payment, next) => next({ ...payment, checkoutUrl: new URL(payment.checkoutUrl).pathname }),
    },
    'checkout-url-plain-http': {
      does: 'checkout_url is built with http:// (the scheme of the internal load balancer) instead of https://.',
      breaks: ['RESP-CHECKOUT-URL-HTTPS'],
      plant: (payment, next) => next({ ...payment, checkoutUrl: payment.checkoutUrl.replace(/^https:/, 'http:') }),
    },
    'allowed-methods-echoed-lowercase': {
      does: 'allowed_methods are stored and answered in lower case (`bkash`), values PaymentMethod does not document.',
      breaks: ['RESP-ENUM-KNOWN'],
      violates: ['enums.payment-method'],
      plant: (payment, next) =>
        next(payment.allowedMethods === undefined ? payment : { ...payment, allowedMethods: payment.allowedMethods.map((m) => m.toLowerCase()) }),
    },
    'timestamps-default-to-created-at': {
      does: 'A new Payment gets paid_at and cancelled_at initialised to created_at (an "updated_at"-style default) instead of null.',
      breaks: ['TRANS-CREATE-PENDING', 'TRANS-CANCEL', 'TRANS-HELPER-SUCCEED', 'TRANS-HELPER-CANCEL'],
      plant: (payment, next) => next({ ...payment, paidAt: payment.createdAt, cancelledAt: payment.createdAt }),
    },
  },
};

/** orderDue 'pending-reserves': what the order's PENDING payments hold. */
function pendingCentsOf(ctx: AppContext, key: ApiKeyRecord, order: Order): bigint {
  let cents = 0n;
  for (const p of ctx.state.payments.ascending(key.businessId, key.env)) if (p.orderId === order.id && p.status === 'PENDING') cents += p.amountCents;
  return cents;
}

function businessOf(ctx: AppContext, key: ApiKeyRecord) {
  const business = ctx.state.businesses.get(key.businessId);
  if (business === undefined) throw new Error(`key ${key.label} names an unknown business`);
  return business;
}

/** The steps of this file that plant faults (references/service/fault-registry.ts reads their declarations). */
export const FAULTY_STEPS: readonly PlantingStep[] = [
  UNKEYED, IDEMPOTENCY_KEY, FINGERPRINT, KEY_SCOPE, KEYED, REPLAY, JSON_BODY, STORE_CHECKS, LIVE_READINESS, CREATED_EVENT_OBJECT,
  CREATED_REPLY, UNIQUE_COMMIT, EXTERNAL_ID, EXTERNAL_ID_CONFLICT, STORED_PAYMENT, INSERT,
];

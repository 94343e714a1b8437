/**
 * The correctness checks of a load run, each pass / fail / skip with a one-line detail and
 * up to five examples. Any fail makes the command exit 1, like a missed threshold.
 */
import type { RereadOutcome } from './after.ts';
import { SAMPLING, type Examples, type Observations } from './observe.ts';
import type { PoolOutcome } from './pool.ts';
import type { Op, ScenarioName } from './scenarios.ts';

export type CheckStatus = 'pass' | 'fail' | 'skip';

export interface Check {
  id: string;
  title: string;
  status: CheckStatus;
  detail: string;
  examples?: string[];
}

export interface CheckInput {
  scenario: ScenarioName;
  /** The operations the run's mix sends. */
  ops: Op[];
  obs: Observations;
  /** null when the scenario needs no pool. */
  pool: PoolOutcome | null;
  /** false when the load did not run (the pool could not be made). */
  ran: boolean;
  reread: RereadOutcome | null;
  duplicates: RereadOutcome | null;
  /** idempotency-storm: each storm's external_id listed after the run. */
  storm: RereadOutcome | null;
  internalErrors: readonly string[];
}

function failWith(ex: Examples, ...more: Examples[]): Pick<Check, 'examples'> {
  const items = [ex, ...more].flatMap((e) => e.items).slice(0, 5);
  return items.length ? { examples: items } : {};
}

type Judgement = Pick<Check, 'status' | 'detail' | 'examples'>;

/** One named check: when it applies to a run, whether it needs the load to have run, how it judges. */
interface NamedCheck {
  id: string;
  title: string;
  applies: (x: CheckInput) => boolean;
  /** Skipped with NOT_RUN when the load did not run. */
  needsLoad: boolean;
  judge: (x: CheckInput) => Judgement;
}

const NOT_RUN: Judgement = { status: 'skip', detail: 'the load did not run (see read-pool)' };

const isStorm = (x: CheckInput) => x.scenario === 'idempotency-storm';
/** The per-operation checks; the storm scenario has its own check instead. */
const sends = (op: Op) => (x: CheckInput) => !isStorm(x) && x.ops.includes(op);

function readPool(x: CheckInput): Judgement {
  if (!x.pool) return NOT_RUN;
  return x.pool.ok ? {
    status: 'pass',
    detail: `${x.pool.pool.length} payments created before the load`,
  } : { status: 'fail', detail: x.pool.reason };
}

function no5xx(x: CheckInput): Judgement {
  const five = x.obs.fiveXX;
  const total5xx = five.create + five.read + five.list + five.setup + five.after;
  const answered = x.obs.create.responses + x.obs.replay.responses + x.obs.read.responses + x.obs.list.responses + x.obs.storm.responses;
  if (!total5xx && answered === 0 && !x.pool?.ok) return {
    status: 'skip',
    detail: 'nothing was answered: nothing to judge (see the errors)',
  };
  if (!total5xx) return {
    status: 'pass',
    detail: answered ? 'no 5xx during the load, before it or after it' : 'no 5xx before the load or after it; nothing was answered ' +
      'during it (see the errors)',
  };
  return {
    status: 'fail',
    detail: `${total5xx} answers were 5xx (create ${five.create}, read ${five.read}, list ${five.list}, before the load ${five.setup}, ` +
      `after it ${five.after})`,
  };
}

function created201(x: CheckInput): Judgement {
  const c = x.obs.create;
  if (c.bad.count > 0) return { status: 'fail', detail: `${c.bad.count} of ${c.checked} create 201 bodies are wrong`, ...failWith(c.bad) };
  if (c.responses > 0 && c.created === 0) return { status: 'fail', detail: `none of ${c.responses} creates answered 201` };
  if (c.responses === 0) return { status: 'skip', detail: 'no create was answered' };
  return {
    status: 'pass',
    detail: `all ${c.checked} create 201 bodies checked (every one, not a sample): schema, PENDING, amount (decimal), external_id`,
  };
}

function idempotentReplay(x: CheckInput): Judgement {
  const r = x.obs.replay;
  const d = x.duplicates;
  if (r.responses === 0) return { status: 'skip', detail: 'no replay was answered (no keyed create had completed yet)' };
  if (r.bad.count + (d?.bad.count ?? 0) > 0) {
    return {
      status: 'fail',
      detail: `${r.bad.count} of ${r.responses} replays answered wrong; ${d?.bad.count ?? 0} of ${d?.checked ?? 0} replayed ` +
        `external_ids listed other than once`,
      ...failWith(r.bad, ...(d ? [d.bad] : [])),
    };
  }
  return {
    status: 'pass',
    detail: `${r.sameId} replays answered 201 with the original id; ${d?.checked ?? 0} replayed external_ids each list exactly one ` +
      `payment after the run`,
  };
}

function createdExistAfter(x: CheckInput): Judgement {
  const rr = x.reread;
  const created = x.obs.created.length;
  if (!rr || created === 0) return { status: 'skip', detail: 'no payment was created' };
  if (rr.bad.count > 0) return {
    status: 'fail',
    detail: `${rr.bad.count} of ${rr.checked} re-read payments are missing or wrong`,
    ...failWith(rr.bad),
  };
  return {
    status: 'pass',
    detail: `${rr.checked} of ${created} created payments re-read after the run (a bounded sample, spread over the run): all there, ` +
      `amounts equal`,
  };
}

function readOwn(x: CheckInput): Judgement {
  const rd = x.obs.read;
  if (rd.responses === 0 && rd.bad.count === 0) return {
    status: 'skip',
    detail: 'no read was answered: nothing to judge (see the errors)',
  };
  if (rd.bad.count > 0) return {
    status: 'fail',
    detail: `${rd.bad.count} reads were wrong (of ${rd.responses}; ${rd.sampled} bodies validated)`,
    ...failWith(rd.bad),
  };
  return {
    status: 'pass',
    detail: `${rd.ok} of ${rd.responses} reads answered 200, none 404; ${rd.sampled} bodies validated (sample: the ` +
      `first ${SAMPLING.read.first}, then 1 in ${SAMPLING.read.every})`,
  };
}

function listPaymentList(x: CheckInput): Judgement {
  const l = x.obs.list;
  if (l.responses === 0 && l.bad.count === 0) return { status: 'skip', detail: 'no list was answered: nothing to judge (see the errors)' };
  if (l.bad.count > 0) return {
    status: 'fail',
    detail: `${l.bad.count} of ${l.sampled} validated list bodies are wrong`,
    ...failWith(l.bad),
  };
  return {
    status: 'pass',
    detail: `${l.ok} of ${l.responses} lists answered 200; ${l.sampled} bodies validated (sample: the first ${SAMPLING.list.first}, ` +
      `then 1 in ${SAMPLING.list.every})`,
  };
}

function storm(x: CheckInput): Judgement {
  const s = x.obs.storm;
  const d = x.storm;
  if (!x.ran) return { status: 'skip', detail: 'the load did not run' };
  if (s.rounds === 0 || s.original + s.inProgress + s.bad.count === 0) return { status: 'skip', detail: 'no storm round was answered' };
  if (s.bad.count + (d?.bad.count ?? 0) > 0) {
    return {
      status: 'fail',
      detail: `${s.bad.count} wrong answers in ${s.rounds} rounds; ${d?.bad.count ?? 0} of ${d?.checked ?? 0} storm external_ids listed ` +
        `other than once`,
      ...failWith(s.bad, ...(d ? [d.bad] : [])),
    };
  }
  return {
    status: 'pass',
    detail: `${s.rounds} rounds, ${s.responses} answers: ${s.original} the original 201, ${s.inProgress} 409 ` +
      `idempotency_in_progress; ${d?.checked ?? 0} storm external_ids each list exactly one payment after the run`,
  };
}

/** Every check, in report order. */
const CHECKS: readonly NamedCheck[] = [
  {
    id: 'read-pool',
    title: 'the payments read under load can be created first',
    applies: (x) => x.pool !== null,
    needsLoad: false,
    judge: readPool,
  },
  { id: 'no-5xx', title: 'no answer is a 5xx', applies: () => true, needsLoad: false, judge: no5xx },
  {
    id: 'idempotency-storm',
    title: 'idempotency storm: one key and body fired on every connection at once creates exactly one Payment; every answer is the ' +
      'original (201, one id) or 409 idempotency_in_progress',
    applies: isStorm,
    needsLoad: false,
    judge: storm,
  },
  {
    id: 'create-201-payment',
    title: 'every 201 of create is a PENDING Payment with the amount and external_id sent',
    applies: sends('create'),
    needsLoad: true,
    judge: created201,
  },
  {
    id: 'idempotent-replay',
    title: 'a create replayed with the same Idempotency-Key and body returns 201 and the same id, and creates no duplicate',
    applies: sends('create'),
    needsLoad: true,
    judge: idempotentReplay,
  },
  {
    id: 'created-exist-after-run',
    title: 'payments created under load exist afterwards with the amount sent',
    applies: sends('create'),
    needsLoad: true,
    judge: createdExistAfter,
  },
  {
    id: 'read-own-payments',
    title: 'reads of payments this run created answer 200 with that payment',
    applies: sends('read'),
    needsLoad: true,
    judge: readOwn,
  },
  {
    id: 'list-payment-list',
    title: 'list answers are PaymentLists of at most `limit` items',
    applies: sends('list'),
    needsLoad: true,
    judge: listPaymentList,
  },
];

export function buildChecks(x: CheckInput): Check[] {
  const checks: Check[] = CHECKS.filter((c) => c.applies(x)).map((c) => ({
    id: c.id,
    title: c.title,
    ...(c.needsLoad && !x.ran ? NOT_RUN : c.judge(x)),
  }));
  if (x.internalErrors.length) {
    checks.push({
      id: 'observer',
      title: 'the load observer ran without error',
      status: 'fail',
      detail: 'internal error while checking responses',
      examples: [...x.internalErrors],
    });
  }
  return checks;
}

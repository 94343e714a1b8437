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

export function buildChecks(x: CheckInput): Check[] {
  const { ops } = x;
  const { obs } = x;
  const checks: Check[] = [];
  const notRun: Pick<Check, 'status' | 'detail'> = { status: 'skip', detail: 'the load did not run (see read-pool)' };

  if (x.pool) {
    checks.push({
      id: 'read-pool',
      title: 'the payments read under load can be created first',
      ...(x.pool.ok
        ? { status: 'pass', detail: `${x.pool.pool.length} payments created before the load` }
        : { status: 'fail', detail: x.pool.reason }),
    });
  }

  const five = obs.fiveXX;
  const total5xx = five.create + five.read + five.list + five.setup + five.after;
  checks.push({
    id: 'no-5xx',
    title: 'no answer is a 5xx',
    status: total5xx ? 'fail' : 'pass',
    detail: total5xx
      ? `${total5xx} answers were 5xx (create ${five.create}, read ${five.read}, list ${five.list}, before the load ${five.setup}, after it ${five.after})`
      : 'no 5xx during the load, before it or after it',
  });

  if (x.scenario === 'idempotency-storm') {
    checks.push(stormCheck(x));
    return withObserver(checks, x);
  }
  if (ops.includes('create')) {
    const c = obs.create;
    checks.push({
      id: 'create-201-payment',
      title: 'every 201 of create is a PENDING Payment with the amount and external_id sent',
      ...(!x.ran
        ? notRun
        : c.bad.count > 0
          ? { status: 'fail', detail: `${c.bad.count} of ${c.checked} create 201 bodies are wrong`, ...failWith(c.bad) }
          : c.responses > 0 && c.created === 0
            ? { status: 'fail', detail: `none of ${c.responses} creates answered 201` }
            : c.responses === 0
              ? { status: 'skip', detail: 'no create was answered' }
              : { status: 'pass', detail: `all ${c.checked} create 201 bodies checked (every one, not a sample): schema, PENDING, amount (decimal), external_id` }),
    });

    const r = obs.replay;
    const d = x.duplicates;
    const badCount = r.bad.count + (d?.bad.count ?? 0);
    checks.push({
      id: 'idempotent-replay',
      title: 'a create replayed with the same Idempotency-Key and body returns 201 and the same id, and creates no duplicate',
      ...(!x.ran
        ? notRun
        : r.responses === 0
          ? { status: 'skip', detail: 'no replay was answered (no keyed create had completed yet)' }
          : badCount > 0
            ? { status: 'fail', detail: `${r.bad.count} of ${r.responses} replays answered wrong; ${d?.bad.count ?? 0} of ${d?.checked ?? 0} replayed external_ids listed other than once`, ...failWith(r.bad, ...(d ? [d.bad] : [])) }
            : { status: 'pass', detail: `${r.sameId} replays answered 201 with the original id; ${d?.checked ?? 0} replayed external_ids each list exactly one payment after the run` }),
    });

    const rr = x.reread;
    checks.push({
      id: 'created-exist-after-run',
      title: 'payments created under load exist afterwards with the amount sent',
      ...(!x.ran
        ? notRun
        : !rr || obs.created.length === 0
          ? { status: 'skip', detail: 'no payment was created' }
          : rr.bad.count > 0
            ? { status: 'fail', detail: `${rr.bad.count} of ${rr.checked} re-read payments are missing or wrong`, ...failWith(rr.bad) }
            : { status: 'pass', detail: `${rr.checked} of ${obs.created.length} created payments re-read after the run (a bounded sample, spread over the run): all there, amounts equal` }),
    });
  }

  if (ops.includes('read')) {
    const rd = obs.read;
    checks.push({
      id: 'read-own-payments',
      title: 'reads of payments this run created answer 200 with that payment',
      ...(!x.ran
        ? notRun
        : rd.bad.count > 0
          ? { status: 'fail', detail: `${rd.bad.count} reads were wrong (of ${rd.responses}; ${rd.sampled} bodies validated)`, ...failWith(rd.bad) }
          : { status: 'pass', detail: `${rd.ok} of ${rd.responses} reads answered 200, none 404; ${rd.sampled} bodies validated (sample: the first ${SAMPLING.read.first}, then 1 in ${SAMPLING.read.every})` }),
    });
  }

  if (ops.includes('list')) {
    const l = obs.list;
    checks.push({
      id: 'list-payment-list',
      title: 'list answers are PaymentLists of at most `limit` items',
      ...(!x.ran
        ? notRun
        : l.bad.count > 0
          ? { status: 'fail', detail: `${l.bad.count} of ${l.sampled} validated list bodies are wrong`, ...failWith(l.bad) }
          : { status: 'pass', detail: `${l.ok} of ${l.responses} lists answered 200; ${l.sampled} bodies validated (sample: the first ${SAMPLING.list.first}, then 1 in ${SAMPLING.list.every})` }),
    });
  }

  return withObserver(checks, x);
}

function withObserver(checks: Check[], x: CheckInput): Check[] {
  if (x.internalErrors.length) {
    checks.push({ id: 'observer', title: 'the load observer ran without error', status: 'fail', detail: 'internal error while checking responses', examples: [...x.internalErrors] });
  }
  return checks;
}

function stormCheck(x: CheckInput): Check {
  const s = x.obs.storm;
  const d = x.storm;
  const title = 'idempotency storm: one key and body fired on every connection at once creates exactly one Payment; every answer is the original (201, one id) or 409 idempotency_in_progress';
  if (!x.ran) return { id: 'idempotency-storm', title, status: 'skip', detail: 'the load did not run' };
  if (s.rounds === 0 || s.original + s.inProgress + s.bad.count === 0) return { id: 'idempotency-storm', title, status: 'skip', detail: 'no storm round was answered' };
  const bad = s.bad.count + (d?.bad.count ?? 0);
  if (bad > 0) return { id: 'idempotency-storm', title, status: 'fail', detail: `${s.bad.count} wrong answers in ${s.rounds} rounds; ${d?.bad.count ?? 0} of ${d?.checked ?? 0} storm external_ids listed other than once`, ...failWith(s.bad, ...(d ? [d.bad] : [])) };
  return { id: 'idempotency-storm', title, status: 'pass', detail: `${s.rounds} rounds, ${s.responses} answers: ${s.original} the original 201, ${s.inProgress} 409 idempotency_in_progress; ${d?.checked ?? 0} storm external_ids each list exactly one payment after the run` };
}

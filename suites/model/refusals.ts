/**
 * MODEL-SEQUENCES' refusals (docs/rulings.md, "A refused request leaves no trace"): a create refused
 * at each stage a request passes (authentication, scope, validation, the store checks on customer and
 * order, Live readiness on a business that can create), then what would show a trace of it:
 *  - at once, a list by the refused create's external_id: no Payment made;
 *  - later in the sequence, any create with that external_id: the model holds no Payment with it,
 *    so it must be 201 (Rule 4's "already used" is used by a Payment);
 *  - `retryRefused(rN)`: the same Idempotency-Key with a valid body, under the API key that was refused
 *    (or A's Test key, when that key cannot create): 201, or the Payment the retry already made, never
 *    `idempotency_in_progress` (Rule 3: a refused request is not processing). A target may keep the
 *    refused 4xx result under its key (Rule 1's "original result"): another body under it is then 409
 *    `idempotency_conflict` (Rule 2), accepted.
 * The stages the profile cannot provoke are named in the rule's note, never counted as tried.
 */
import type { RuleContext } from '../../service/harness/worker/rule-test.ts';
import { REFUSAL_TRACE_CASES } from '../../service/generators/cases/refusals.ts';
import { refusalPlan } from '../_shared/refusal-trace.ts';
import { listExternalId } from './commands.ts';
import {
  describe, fail, idemKey, judgeCreate, ok, readerOf, remember, tally,
  type Cmd, type KeyInfo, type KeyName, type Model, type Real, type Stage,
} from './model.ts';

const PLAIN = { amount: '10.00' };

/** A well-formed Test key the profile does not hold (the run's marker makes it its own). */
export function unknownKey(t: RuleContext): string {
  const issued = new Set(Object.values(t.keys));
  const secret = t.externalId('unknownkey').replace(/[^A-Za-z0-9]/g, '').slice(-32).padStart(24, 'Q');
  const key = `pt_test_sk_${secret}`;
  return issued.has(key) ? `${key}Z` : key;
}

/** The stages this profile can provoke, and the ones it cannot with why. */
export function refusalStages(t: RuleContext, keys: Record<string, KeyInfo>): { stages: Stage[]; absent: string[] } {
  const stages: Stage[] = [
    { name: '401 invalid_api_key (an unknown key)', keyName: null, refused: PLAIN, valid: PLAIN, status: 401, codes: ['invalid_api_key'],
      fixture: false },
  ];
  const absent: string[] = [];
  if (t.keys.test_read_only) {
    stages.push({ name: '403 insufficient_scope (keys.test_read_only)', keyName: null, refused: PLAIN, valid: PLAIN, status: 403,
      codes: ['insufficient_scope'], fixture: false });
  } else absent.push('403 insufficient_scope: the profile has no keys.test_read_only');
  const byKey = new Map(Object.values(keys).map((k) => [k.key, k.name] as const));
  for (const row of REFUSAL_TRACE_CASES.rows({ testKey: t.keys.test })) {
    if (row.onOrder) continue; // the order fixture's due is shared by every sequence: CREATE-REFUSAL-NO-TRACE runs it alone
    const plan = refusalPlan(t, row);
    const what = `${row.status} ${row.code} (${row.what})`;
    if ('notTried' in plan) { absent.push(`${what}: ${plan.notTried}`); continue; }
    const keyName = byKey.get(plan.key);
    if (keyName === undefined) { absent.push(`${what}: its key is not one the sequences write with`); continue; }
    const fixture = row.code === 'order_cancelled' || row.code.startsWith('payment_')
      || (row.code === 'invalid_customer' && !!t.profile.fixtures?.foreign_customer_id);
    stages.push({ name: what, keyName, refused: plan.refused, valid: plan.valid, status: row.status, codes: plan.codes, fixture });
  }
  return { stages, absent };
}

/** The key a stage's refused create goes under, and the scope it would have written in. */
function stageKey(r: Real, s: Stage): { key: string; scope: string; retryAs: KeyName; sameKey: boolean } {
  if (s.keyName !== null) return { key: r.keys[s.keyName]!.key, scope: r.keys[s.keyName]!.scope, retryAs: s.keyName, sameKey: true };
  const key = s.status === 403 ? r.t.keys.test_read_only! : r.unknownKey;
  return { key, scope: r.keys.test!.scope, retryAs: 'test', sameKey: false };
}

/** A create refused at stage sN (modulo the stages), with one of the sequence's external_ids and maybe an Idempotency-Key. */
export class RefuseCmd implements Cmd {
  constructor(readonly stage: number, readonly ext: string | null, readonly withIdem: boolean) {}
  check(): boolean { return true; }
  async run(m: Model, r: Real): Promise<void> {
    const s = r.stages[this.stage % r.stages.length]!;
    const { key, scope, retryAs, sameKey } = stageKey(r, s);
    const ext = this.ext === null ? null : `${r.prefix}-${this.ext}`;
    const extra = { ...(ext === null ? {} : { external_id: ext }), metadata: r.t.metadata({ suite: 'model' }) };
    const idem = this.withIdem ? `${r.prefix}-r${++r.creates}` : null;
    const res = await r.t.client.createPayment(key, { ...s.refused, ...extra }, idem === null ? {} : { idempotencyKey: idem });
    const step = `${this} [${s.name}]`;
    const held = ext !== null && m.handles.some((h) => h.scope === scope && h.externalId === ext);
    const code = res.json?.error?.code;
    const refusedAsSaid = res.status === s.status && s.codes.includes(code);
    if (!refusedAsSaid && !(held && res.status === 409 && code === 'external_id_conflict')) {
      const expected = { status: s.status, code: s.codes };
      if (!s.fixture) fail(r, step, res, `answered ${describe(res)}, the model expects ${s.status} ${s.codes.join(' or ')}`, expected);
      // A refusal resting on a fixture, not given: its own rule judges it; the model follows what was made.
      const made = typeof res.json?.id === 'string' && res.status === 201;
      if (made) remember(m, retryAs, scope, res.json.id, { ...s.refused, ...extra }, null);
      return ok(r, `${step} (not refused as the fixture promised: not judged here)`, res, 'refusal not given (its own rule judges it)');
    }
    m.refused.push({ retryAs, sameKey, idem, valid: { ...s.valid, ...extra }, what: s.name });
    ok(r, `${step} [r${m.refused.length - 1}]`, res, `refused: ${s.name}`);
    const lister = readerOf(r, scope);
    if (ext !== null && lister !== undefined) {
      await listExternalId(r, m, `list(${lister}, ext=${this.ext}) after the refusal: no Payment made`, lister, ext, null);
    }
  }
  toString(): string {
    return `refuse(s${this.stage}, ext=${this.ext ?? 'none'}, idem=${this.withIdem ? 'new' : 'none'})`;
  }
}

/** The create refused as rN, sent again valid: the same Idempotency-Key and external_id (see the module's comment). */
export class RetryRefusedCmd implements Cmd {
  constructor(readonly n: number) {}
  check(m: Readonly<Model>): boolean { return m.refused.length > 0; }
  async run(m: Model, r: Real): Promise<void> {
    const i = this.n % m.refused.length;
    const e = m.refused[i]!;
    const res = await r.t.client.createPayment(r.keys[e.retryAs]!.key, e.valid, e.idem === null ? {} : { idempotencyKey: e.idem });
    const step = `${this} [r${i}: ${e.what}, ${e.idem === null ? 'no Idempotency-Key' : 'its Idempotency-Key'}]`;
    const madeByRetry = e.idem !== null && m.idem.has(idemKey(e.retryAs, e.idem));
    if (e.sameKey && e.idem !== null && !madeByRetry && res.status === 409 && res.json?.error?.code === 'idempotency_conflict') {
      return ok(r, `${step} (the refused result kept under its key: Rule 2)`, res, 'retry: the refused result kept (Rule 2)');
    }
    judgeCreate(m, r, step, e.retryAs, e.valid, e.idem, res);
    tally(r, 'retry after a refusal');
  }
  toString(): string { return `retryRefused(r${this.n})`; }
}

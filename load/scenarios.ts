/**
 * The scenarios of the create/read hot path and the requests they send. Every create is
 * marked for this run (docs/profile.md): `external_id` = `<run id>-<seq>`, `metadata.conformance_run`
 * = run id; half of the new creates carry an Idempotency-Key, and some keyed creates are exact
 * replays of an earlier completed one (same key, same bytes) to check Rule 1 under load.
 */
import { LOAD_OPS, type LoadOp } from '../catalogue/report/load-model.ts';
export type Op = LoadOp;
export const OPS: readonly Op[] = LOAD_OPS;

export const SCENARIO_NAMES = ['create', 'read', 'list', 'mixed', 'idempotency-storm'] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

/** Share of each operation in a scenario (sums to 1). */
export const MIXES: Record<ScenarioName, Record<Op, number>> = {
  create: { create: 1, read: 0, list: 0 },
  read: { create: 0, read: 1, list: 0 },
  list: { create: 0, read: 0, list: 1 },
  mixed: { create: 0.2, read: 0.7, list: 0.1 },
  'idempotency-storm': { create: 1, read: 0, list: 0 },
};

/**
 * `--mix create=20,read=70,list=10` (mixed only): shares in any unit, normalised to 1.
 * Returns null when the text is not of that form.
 */
export function parseMix(text: string): Record<Op, number> | null {
  const out: Record<Op, number> = { create: 0, read: 0, list: 0 };
  for (const part of text.split(',')) {
    const m = /^(create|read|list)=(\d+(?:\.\d+)?)$/.exec(part.trim());
    if (!m) return null;
    out[m[1] as Op] = Number(m[2]);
  }
  const sum = out.create + out.read + out.list;
  if (!(sum > 0)) return null;
  for (const op of OPS) out[op] /= sum;
  return out;
}

/** Share of creates that replay an earlier completed keyed create (once one exists). */
export const REPLAY_SHARE = 0.1;

/** The page size of the list scenario. */
export const LIST_LIMIT = 20;

export function opsOf(scenario: ScenarioName, mix: Record<Op, number> = MIXES[scenario]): Op[] {
  return OPS.filter((op) => mix[op] > 0);
}

/** The operation for a uniform draw r in [0, 1). */
export function pickOp(scenario: ScenarioName, r: number): Op {
  return pickOpFrom(MIXES[scenario], r);
}

export function pickOpFrom(mix: Record<Op, number>, r: number): Op {
  let acc = 0;
  for (const op of OPS) {
    acc += mix[op];
    if (r < acc) return op;
  }
  return OPS.filter((op) => mix[op] > 0).at(-1) ?? 'list';
}

/**
 * A valid amount that varies with seq: mostly two decimals, some with one decimal or none,
 * so that decimal (not textual) equality is what the checks compare.
 */
export function amountFor(seq: number): string {
  const units = 1 + ((seq * 7919) % 99_999);
  const cents = seq % 100;
  if (seq % 10 === 3) return String(units);
  if (seq % 10 === 7) return `${units}.${cents % 10}`;
  return `${units}.${String(cents).padStart(2, '0')}`;
}

export interface CreateRequest {
  seq: number;
  amount: string;
  externalId: string;
  /** Exact bytes sent (a replay resends them unchanged). */
  body: string;
  idempotencyKey?: string;
}

export function createRequest(runId: string, seq: number, tag = 'ld'): CreateRequest {
  const amount = amountFor(seq);
  const externalId = `${runId}-${tag}-${seq}`;
  const body = JSON.stringify({
    amount,
    description: 'hps-conformance load',
    external_id: externalId,
    metadata: { conformance_run: runId, load_seq: String(seq) },
  });
  return { seq, amount, externalId, body, ...(seq % 2 === 0 ? { idempotencyKey: `${runId}-${tag}-idem-${seq}` } : {}) };
}

export function paymentPath(prefix: string, id: string): string {
  return `${prefix}/v1/payments/${encodeURIComponent(id)}`;
}

export function listPath(prefix: string): string {
  return `${prefix}/v1/payments?limit=${LIST_LIMIT}`;
}

/**
 * The idempotency area's table of concurrent steps (catalogue/case-table.ts): each kind of command
 * group sent at once, at 2 and at 4 branches, on every seed (suites/idempotency/concurrent.rules.ts).
 */
import type { CaseTable } from '../../../catalogue/case-table.ts';

/** What the branches of a group are. */
export type ConcurrentKind = 'keys' | 'no-keys' | 'mix' | 'cancel-succeed' | 'replays';

export interface ConcurrentCase {
  readonly kind: ConcurrentKind;
  readonly branches: 2 | 4;
}

const KINDS: readonly ConcurrentKind[] = ['keys', 'no-keys', 'mix', 'cancel-succeed', 'replays'];

const WHAT: Record<ConcurrentKind, (n: number) => string> = {
  'keys': (n) => `${n} creates sharing one new external_id, each under its own Idempotency-Key`,
  'no-keys': (n) => `${n} creates sharing one new external_id, without Idempotency-Key`,
  'mix': (n) => n === 2
    ? '2 creates sharing one new external_id, one under an Idempotency-Key, one without'
    : '4 creates sharing one new external_id: two under one Idempotency-Key (the same body), one under another, one without',
  'cancel-succeed': (n) => n === 2
    ? 'a cancel and the succeed helper on one PENDING Payment'
    : 'two cancels and two succeed helpers on one PENDING Payment',
  'replays': (n) => `${n} identical creates under one Idempotency-Key (the original and its replays)`,
};

const OUTCOME: Record<ConcurrentKind, string> = {
  'keys': 'one 201, the others 409 external_id_conflict, one Payment listed',
  'no-keys': 'one 201, the others 409 external_id_conflict, one Payment listed',
  'mix': 'the answers of some one-by-one order, one Payment listed',
  'cancel-succeed': 'one 200, the others 409 invalid_transition, a get shows the winner\'s state',
  'replays': 'one Payment id only, each answer 201 with it or 409 idempotency_in_progress, one Payment listed',
};

/** IDEM-CONCURRENT-UNIQUE: every kind at 2 and at 4 branches. */
export const CONCURRENT_CASES: CaseTable<ConcurrentCase> = {
  rule: 'IDEM-CONCURRENT-UNIQUE',
  name: 'commands sent at once',
  rows: () => KINDS.flatMap((kind) => [{ kind, branches: 2 as const }, { kind, branches: 4 as const }]),
  title: (c) => `${WHAT[c.kind](c.branches)}, sent at once: ${OUTCOME[c.kind]} (as some order run one by one)`,
};

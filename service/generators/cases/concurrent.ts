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
  'keys': (n) => `${n} creates, one new external_id, own keys`,
  'no-keys': (n) => `${n} creates, one new external_id, no keys`,
  'mix': (n) => (n === 2 ? '2 creates, one new external_id, a key and none' : '4 creates, one new external_id, keys A A B and none'),
  'cancel-succeed': (n) => (n === 2 ? 'a cancel and a succeed on one PENDING Payment' : '2 cancels and 2 succeeds on one PENDING Payment'),
  'replays': (n) => `${n} identical creates under one key`,
};

const OUTCOME: Record<ConcurrentKind, string> = {
  'keys': 'one 201, the others 409 external_id_conflict, one listed',
  'no-keys': 'one 201, the others 409 external_id_conflict, one listed',
  'mix': 'one Payment, each answer that of some order, one listed',
  'cancel-succeed': 'one 200, the others 409 invalid_transition, GET shows the winner',
  'replays': 'one Payment id, each answer 201 with it or 409 idempotency_in_progress',
};

/** IDEM-CONCURRENT-UNIQUE: every kind at 2 and at 4 branches. */
export const CONCURRENT_CASES: CaseTable<ConcurrentCase> = {
  rule: 'IDEM-CONCURRENT-UNIQUE',
  name: 'commands sent at once',
  rows: () => KINDS.flatMap((kind) => [{ kind, branches: 2 as const }, { kind, branches: 4 as const }]),
  title: (c) => `${WHAT[c.kind](c.branches)}, at once: ${OUTCOME[c.kind]}`,
};

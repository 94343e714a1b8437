/**
 * The auth area's fixed tables (catalogue/case-table.ts): each operation once without a key, with
 * the revoked key, and with a key lacking the scope it needs. Seeded samples (one unknown key per
 * family, drawn from the rule's seed) are not tables: their rows change with the seed.
 */
import type { CaseTable } from '../../../catalogue/case-table.ts';
import { OPERATIONS, type Operation } from '../../../catalogue/schemas/index.ts';

const needing = (scope: Operation['scope']): Operation[] => OPERATIONS.filter((op) => op.scope === scope);

/** AUTH-MISSING-KEY: every operation, otherwise valid, without an Authorization header. */
export const NO_KEY_OPERATION_CASES: CaseTable<Operation> = {
  rule: 'AUTH-MISSING-KEY',
  name: 'each operation without a key',
  rows: () => OPERATIONS,
  title: (op) => `${op.operationId} without Authorization answers 401 invalid_api_key`,
};

/** AUTH-REVOKED-KEY: every operation, otherwise valid, with the profile's revoked key. */
export const REVOKED_KEY_OPERATION_CASES: CaseTable<Operation> = {
  rule: 'AUTH-REVOKED-KEY',
  name: 'each operation with the revoked key',
  rows: () => OPERATIONS,
  title: (op) => `${op.operationId} with the revoked key answers 401 invalid_api_key`,
};

/** AUTH-READ-SCOPE-REQUIRED: every operation needing payments:read, with the write-only key. */
export const READ_SCOPE_CASES: CaseTable<Operation> = {
  rule: 'AUTH-READ-SCOPE-REQUIRED',
  name: 'each read operation with a write-only key',
  rows: () => needing('payments:read'),
  title: (op) => `${op.operationId} with a key lacking payments:read answers 403 insufficient_scope`,
};

/** AUTH-WRITE-SCOPE-REQUIRED: every operation needing payments:write, with the read-only key. */
export const WRITE_SCOPE_CASES: CaseTable<Operation> = {
  rule: 'AUTH-WRITE-SCOPE-REQUIRED',
  name: 'each write operation with a read-only key',
  rows: () => needing('payments:write'),
  title: (op) => `${op.operationId} with a key lacking payments:write answers 403 insufficient_scope and changes nothing`,
};

export const AUTH_CASE_TABLES: ReadonlyArray<CaseTable<any>> = [
  NO_KEY_OPERATION_CASES,
  REVOKED_KEY_OPERATION_CASES,
  READ_SCOPE_CASES,
  WRITE_SCOPE_CASES,
];

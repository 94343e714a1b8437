/**
 * The product files that had lines inside a block written twice when duplication.test.ts came in,
 * with how many such lines: a ratchet that only shrinks (path → count; a file below its count fails
 * the test until the entry is lowered, or removed at 0). Nothing is added here: share the block.
 * Total when it came in: 90 lines in 4 files.
 */
export const DUPLICATION_ALLOWED: Readonly<Record<string, number>> = {
  // The spec's error table: references/service/ keeps its own copy on purpose (written apart from the oracle).
  'catalogue/error-codes.ts': 33,
  'references/service/errors.ts': 33,
};

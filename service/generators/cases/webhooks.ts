/**
 * The webhooks area's fixed tables (catalogue/case-table.ts): the acknowledging statuses at their
 * edges, and the failing answers at both ends and the middle of 3xx, 4xx and 5xx plus a reset
 * connection. Each row is one Payment whose events the sink answers that way; a rule runs its rows
 * side by side (send together, judge each on its own deliveries), so the table costs one wait.
 */
import type { CaseTable } from '../../../catalogue/case-table.ts';

/** The 2xx answers probed on every seed: the sink's common acknowledgements and both ends of the class. */
export const ACK_STATUSES: readonly number[] = [200, 201, 202, 203, 204, 206, 299];

/** HOOK-NO-RETRY-AFTER-ACK: the 2xx edges, each of which acknowledges. */
export const ACK_EDGE_CASES: CaseTable<number> = {
  rule: 'HOOK-NO-RETRY-AFTER-ACK',
  name: 'acknowledging statuses',
  rows: () => ACK_STATUSES,
  title: (status) => `a delivery answered ${status} is acknowledged: not retried on the schedule`,
};

/** HOOK-RETRY-ON-FAILURE: sink markers of answers that are failures (tell's `sink` marker, one failure each). */
export const FAILED_ANSWER_CASES: CaseTable<string> = {
  rule: 'HOOK-RETRY-ON-FAILURE',
  name: 'failing answers',
  rows: () => [
    'fail:300x1',
    'fail:302x1',
    'fail:399x1',
    'fail:400x1',
    'fail:404x1',
    'fail:499x1',
    'fail:500x1',
    'fail:503x1',
    'fail:599x1',
    'reset:1',
  ],
  title: (marker) => `a delivery ${marker === 'reset:1' ? 'whose connection is reset' : `answered ${marker.slice(
    'fail:'.length,
    -2,
  )}`} fails: it is attempted again`,
};

/** HOOK-REDIRECT-NOT-FOLLOWED: redirect answers, each with a Location the target must not follow. */
export const REDIRECT_CASES: CaseTable<string> = {
  rule: 'HOOK-REDIRECT-NOT-FOLLOWED',
  name: 'redirect answers',
  rows: () => ['redirect:1', 'fail:301x1', 'fail:307x1', 'fail:308x1'],
  title: (marker) => `a delivery answered ${marker === 'redirect:1' ? '302' : marker.slice(
    'fail:'.length,
    -2,
  )} with a Location: the Location is not requested`,
};

/** Rows in flight at once for these tables: all of them (they wait on deliveries, not on the target). */
export const SIDE_BY_SIDE = { concurrency: 16 } as const;

export const WEBHOOKS_CASE_TABLES: ReadonlyArray<CaseTable<any>> = [ACK_EDGE_CASES, FAILED_ANSWER_CASES, REDIRECT_CASES];

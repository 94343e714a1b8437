/**
 * A load run's verdict and exit status, decided here for `load` and `load merge` alike: a failed
 * check or a missed threshold fails the run (exit 1); a merge with a shard missing
 * (--allow-missing) where nothing failed is incomplete (exit 6): the whole was not measured;
 * else it passes (exit 0). A load verdict never changes the conformance verdict.
 */
import { EXIT } from '../../core/errors.ts';

interface Judged {
  status: string;
}

export interface LoadVerdict {
  verdict: 'pass' | 'fail' | 'incomplete';
  exit_code: 0 | 1 | 6;
}

export function loadVerdict(checks: readonly Judged[], thresholds: readonly Judged[], shardsMissing = 0): LoadVerdict {
  const failed = checks.some((c) => c.status === 'fail') || thresholds.some((t) => t.status === 'fail');
  if (failed) return { verdict: 'fail', exit_code: EXIT.notConformant };
  if (shardsMissing > 0) return { verdict: 'incomplete', exit_code: EXIT.incomplete };
  return { verdict: 'pass', exit_code: EXIT.conformant };
}

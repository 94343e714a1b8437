/**
 * Harness trouble is never a conformance failure: it is an error with a stable
 * code and an exit status (docs/design.md): 2 bad usage or profile, 3 target
 * unreachable or unusable. 4 is `run --require`'s: no MUST rule failed, but a class the CI
 * gate requires is not conformant or was not tested (verdict/require.ts). 5 the report directory
 * failed during the run (the results were written to a fallback directory named on stderr
 * instead), 6 the verdict is `incomplete`: nothing failed, but a MUST rule testable with this
 * profile (or, for the merchant side, this program) did not run or was not proven, 130 / 143 interrupted by SIGINT / SIGTERM (the results so far written, marked partial).
 */
export const EXIT = { conformant: 0, notConformant: 1, usage: 2, target: 3, requireUnmet: 4, reportFallback: 5, incomplete: 6, interrupted: 130, terminated: 143 } as const;

export type HarnessErrorCode =
  | 'HPS_ERR_USAGE'
  | 'HPS_ERR_PROFILE'
  | 'HPS_ERR_PROFILE_ENV'
  | 'HPS_ERR_TARGET_UNREACHABLE'
  | 'HPS_ERR_TARGET_GARBAGE'
  | 'HPS_ERR_TARGET_TIMEOUT'
  | 'HPS_ERR_TARGET_OVERSIZE'
  | 'HPS_ERR_TARGET_THROTTLED'
  /** A base URL where no /v1 route answers like the API. */
  | 'HPS_ERR_TARGET_NOT_API'
  /** A profile key the service does not take as the profile says it should (wrong, rotated, other environment). */
  | 'HPS_ERR_PROFILE_KEY'
  | 'HPS_ERR_KEY_REJECTED'
  | 'HPS_ERR_SINK'
  | 'HPS_ERR_SUITE'
  | 'HPS_ERR_REPORT';

const EXIT_OF: Record<HarnessErrorCode, number> = {
  HPS_ERR_USAGE: EXIT.usage,
  HPS_ERR_PROFILE: EXIT.usage,
  HPS_ERR_PROFILE_ENV: EXIT.usage,
  HPS_ERR_TARGET_UNREACHABLE: EXIT.target,
  HPS_ERR_TARGET_GARBAGE: EXIT.target,
  HPS_ERR_TARGET_TIMEOUT: EXIT.target,
  HPS_ERR_TARGET_OVERSIZE: EXIT.target,
  HPS_ERR_TARGET_THROTTLED: EXIT.target,
  HPS_ERR_TARGET_NOT_API: EXIT.target,
  HPS_ERR_PROFILE_KEY: EXIT.usage,
  HPS_ERR_KEY_REJECTED: EXIT.usage,
  HPS_ERR_SINK: EXIT.usage,
  HPS_ERR_SUITE: EXIT.usage,
  HPS_ERR_REPORT: EXIT.usage,
};

export class HarnessError extends Error {
  readonly code: HarnessErrorCode;
  readonly exitCode: number;
  /** One line per problem (a bad profile can have several). */
  readonly problems: string[];
  constructor(code: HarnessErrorCode, message: string, problems: string[] = []) {
    super(message);
    this.name = 'HarnessError';
    this.code = code;
    this.exitCode = EXIT_OF[code];
    this.problems = problems;
  }
}

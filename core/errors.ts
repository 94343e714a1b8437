/**
 * Harness trouble is never a conformance failure: it is an error with a stable
 * code and an exit status (docs/design.md): 2 bad usage or profile, 3 target
 * unreachable or unusable. 4 is `run --require`'s: no MUST rule failed, but a class the CI
 * gate requires is not conformant or was not tested (results/verdict/require.ts). 5 the report directory
 * failed during the run (the results were written to a fallback directory named on stderr
 * instead), 6 the verdict is `incomplete`: nothing failed, but a MUST rule testable with this
 * profile (or, for the merchant side, this program) did not run or was not proven, 130 / 143
 * interrupted by SIGINT / SIGTERM (the results so far written, marked partial). The codes, their
 * meanings and exit statuses are one table: core/error-codes.ts (docs/errors.md).
 */
export { EXIT, type HarnessErrorCode } from './error-codes.ts';
import { exitOf, type HarnessErrorCode } from './error-codes.ts';

export class HarnessError extends Error {
  readonly code: HarnessErrorCode;
  readonly exitCode: number;
  /** One line per problem (a bad profile can have several). */
  readonly problems: string[];
  constructor(code: HarnessErrorCode, message: string, problems: string[] = []) {
    super(message);
    this.name = 'HarnessError';
    this.code = code;
    this.exitCode = exitOf(code);
    this.problems = problems;
  }
}

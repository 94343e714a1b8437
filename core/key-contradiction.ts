/**
 * A declared key that behaved as the spec forbids for what the profile declares it to be (the
 * revoked key was served, the write-only key could read, a Test key's list shows Live objects):
 * found by the preflight (core/targets/preflight.ts), judged as a FAIL of the rule that covers it, with
 * "or the profile is wrong: …" (results/verdict/preflight-findings.ts). Never a reason to stop the run.
 */
export interface KeyContradiction {
  rule: 'AUTH-REVOKED-KEY' | 'AUTH-READ-SCOPE-REQUIRED' | 'ISO-TEST-LIVE-LIST';
  /** The profile field, e.g. `keys.test_revoked`. */
  field: string;
  /** What the service did, redacted and cut short. */
  message: string;
  /** What would be wrong with the profile instead. */
  profileWrong: string;
}

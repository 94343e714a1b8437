/**
 * Which of the project's test files run when: read by vitest.config.ts (`npm test`, everything)
 * and vitest.quick.config.ts (`npm run test:quick`, the edit loop). Paths are relative to the
 * repository root.
 */

/** The tests that measure time: one file at a time, once every other file is done. */
export const TIMING = ['test/load/accuracy.test.ts', 'test/load/shards.test.ts', 'test/load/embedded.test.ts'];

/**
 * The files that spend much of their time waiting, not on the CPU (each one's CPU time, measured
 * alone, a tenth to about half of its time in a full `npm test`): the rate-limited services' 429s waited out, a
 * target that never delivers a webhook waited out to the end of each delivery window, the example
 * client and merchant programs waiting out the chaos server's Retry-After and reset connections,
 * the receiver's retry schedules, the interrupted runs' 3 s and 10 s before their signal, the whole run
 * against a rotating hostile target (its 1.5 s answers and reset connections: 142 s wall for 29 s of
 * CPU alone; in `main` it held one of the three forks for 180 s). Their
 * own pool of four worker threads, beside `main`'s three forks, so their waiting never holds a slot
 * the CPU-bound files need. Inside each, the cases that wait run side by side (the rate-limited
 * areas one run per area, the five interrupted runs, the example client's clean run and its
 * faults), so a file lasts about as long as its longest case, not their sum; the whole-suite
 * rate-limited case is at 40 requests/s (its floor ~100 s). The longest first (SLOW_FIRST's
 * order). Not here: a file that measures its process (memory, CPU), which a thread shares with
 * the others (test/client/bounded-client.test.ts waits, but measures its RSS).
 */
export const WAITING = [
  'test/field/rate-limited.test.ts',
  'test/client/hostile-cli.test.ts',
  'test/field/rate-limited-areas.test.ts',
  'test/merchant/client.test.ts',
  'test/vacuous-pass.test.ts',
  'test/merchant/receiver.test.ts',
  'test/merchant/real-libraries.test.ts',
  'test/client/wire-identity.test.ts',
  'test/reports/report-schema.test.ts',
  'test/client/proxy.test.ts',
  'test/judge/judge-log.test.ts',
  'test/reports/interrupt.test.ts',
];

/**
 * The files that took longest in a measured `npm test` (the CI rehearsal of 2026-11-28, vitest's
 * results cache), longest first, WAITING's first (their own pool; the whole-suite rate-limited
 * case is its longest), then `main`'s. They start first: on a fresh clone vitest has no timings of
 * its own and starts the largest files first, which put test/field/rate-limited.test.ts (minutes of
 * waiting out 429s) or test/mutation.test.ts at the end of the run, each then the whole run's tail.
 * Files not listed follow in vitest's own order.
 */
export const SLOW_FIRST = [
  'test/field/rate-limited.test.ts',
  'test/client/hostile-cli.test.ts',
  'test/field/rate-limited-areas.test.ts',
  'test/merchant/client.test.ts',
  'test/vacuous-pass.test.ts',
  'test/reports/interrupt.test.ts',
  'test/merchant/receiver.test.ts',
  'test/merchant/real-libraries.test.ts',
  'test/client/wire-identity.test.ts',
  'test/reports/report-schema.test.ts',
  'test/judge/judge-log.test.ts',
  'test/client/proxy.test.ts',
  'test/mutation.test.ts',
  'test/false-alarm-alt.test.ts',
  // The type check: ~22 s of one core; started early, never the tail of `main`.
  'test/architecture/types.test.ts',
  'test/action.test.ts',
  'test/security/report-injection.test.ts',
  'test/run-options.test.ts',
  'test/client/bounded-client.test.ts',
  'test/infra/reach.test.ts',
  'test/verdicts/replay.test.ts',
  'test/pack-install.test.ts',
  'test/infra/behind-nginx.test.ts',
  'test/field/configuration.test.ts',
  'test/cli-edges.test.ts',
  'test/infra/behind-node-proxy.test.ts',
  'test/sink/flood.test.ts',
  'test/serve-run-parity.test.ts',
  'test/verdicts/dead-target.test.ts',
  'test/merchant/receiver-windows.test.ts',
  'test/field/blip.test.ts',
  'test/certificate.test.ts',
  'test/cli-help.test.ts',
  'test/conformance-vs-reference.test.ts',
  'test/security/secret-leak.test.ts',
  'test/harness/cases.test.ts',
];

/**
 * `npm run test:quick`: the unit tests of the catalogue, the architecture checks, the docs, core,
 * the reference server's handlers, the schemas, the renderers and the generators: nothing that runs
 * the suite end to end, starts a load, a proxy or a browser. Under two minutes with the type check.
 */
export const QUICK_INCLUDE = [
  'test/architecture/**/*.test.ts',
  'test/catalogue/**/*.test.ts',
  'test/docs/**/*.test.ts',
  'test/core/**/*.test.ts',
  'test/references/**/*.test.ts',
  'test/schemas/**/*.test.ts',
  'test/reports/**/*.test.ts',
  'test/harness/**/*.test.ts',
  'test/verdicts/**/*.test.ts',
  'test/core/targets/**/*.test.ts',
  'test/perf/**/*.test.ts',
  'test/catalogue.test.ts',
  'test/claims.test.ts',
  'test/profile.test.ts',
  'test/progress.test.ts',
  'test/redact.test.ts',
  'test/reports.test.ts',
  'test/verdict-policy.test.ts',
  'test/ci-examples.test.ts',
  'test/github.test.ts',
  'test/docs-links.test.ts',
  'service/generators/**/*.spec.ts',
];

/** Files under QUICK_INCLUDE that run the CLI end to end, a mock server or a browser: `npm test` only. */
export const QUICK_EXCLUDE = [
  'test/catalogue/renamed-rules.test.ts',
  'test/schemas/openapi-mock.test.ts',
  'test/reports/interrupt.test.ts',
  'test/reports/report-schema.test.ts',
  'test/reports/load-section.test.ts',
  'test/harness/cases.test.ts',
  'test/harness/suite-session.test.ts',
  'test/verdicts/replay.test.ts',
  'test/verdicts/dead-target.test.ts',
  'test/verdicts/key-contradiction.test.ts',
  'test/verdicts/exit-six.test.ts',
  'service/generators/malformed-authorization.spec.ts',
];

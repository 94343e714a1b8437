/** The whole suite in a child process, as a user runs it: shared with the benches (test/perf/run-suite.ts). */
export { runSuite, writeProfile, type SuiteRun } from '../perf/run-suite.ts';

/** The whole suite in a child process, as a user runs it: shared with the benches (bench/run-suite.ts). */
export { runSuite, writeProfile, type SuiteRun } from '../../bench/run-suite.ts';

/**
 * vitest.config.ts's globalSetup, for the whole invocation:
 * - the directory of its shared runs (test/support/shared-run.ts), given to every project's tests;
 * - a temporary directory of its own (TMPDIR, which every worker and child process inherits): the
 *   reports, profiles, logs and servers' files the tests make under os.tmpdir() go there, and go
 *   with it when the run ends (they were ~200 directories and ~300 MB left in /tmp per `npm test`).
 * Both are removed when the run ends.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

export default function setup(project: TestProject): () => void {
  const own = mkdtempSync(join(tmpdir(), 'hps-npm-test-'));
  // Traversable as /tmp is: nginx's workers (another user when nginx starts as root) reach their files in it.
  chmodSync(own, 0o755);
  process.env.TMPDIR = own;
  const dir = mkdtempSync(join(own, 'hps-shared-runs-'));
  project.provide('sharedRunsDir', dir);
  return () => rmSync(own, { recursive: true, force: true });
}

/**
 * vitest.config.ts's globalSetup: the directory of this invocation's shared runs
 * (test/support/shared-run.ts), given to every project's tests, removed when the run ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'hps-shared-runs-'));
  project.provide('sharedRunsDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}

/** The CI examples use only options the CLI has, and keep the reports as artifacts. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../cli/main.ts';

const ROOT = join(import.meta.dirname, '..');

describe('examples/ci', () => {
  for (const file of ['github-actions.yml', 'gitlab-ci.yml']) {
    it(`${file}: runs the suite against a staging URL with real options and keeps hps-report/`, () => {
      const text = readFileSync(join(ROOT, 'examples', 'ci', file), 'utf8');
      const run = /hps-conformance run\s+([\s\S]*?)--report hps-report/.exec(text);
      expect(run, 'a run command writing hps-report').not.toBeNull();
      const used = [...run![1]!.matchAll(/--([a-z0-9-]+)/g)].map((m) => m[1]!);
      expect(used).toContain('base-url');
      for (const o of used) expect(Object.keys(COMMANDS.run!.options), `--${o}`).toContain(o);
      expect(text).toMatch(/https:\/\/staging\./);
      expect(text).toMatch(/hps-report\/\s*$/m);
      expect(text).toContain('verify-certificate hps-report');
      expect(text).not.toMatch(/pt_(test|live)_sk_/);
    });
  }

  it('github-actions.yml: the optional load step uses only load options and writes beside the conformance report', () => {
    const text = readFileSync(join(ROOT, 'examples', 'ci', 'github-actions.yml'), 'utf8');
    const load = /hps-conformance load\s+([\s\S]*?)--report hps-report/.exec(text);
    expect(load, 'a load command writing hps-report').not.toBeNull();
    const used = [...load![1]!.matchAll(/--([a-z0-9-]+)/g)].map((m) => m[1]!);
    expect(used).toEqual(expect.arrayContaining(['profile', 'rate', 'max-p99-ms']));
    for (const o of used) expect(Object.keys(COMMANDS.load!.options), `--${o}`).toContain(o);
  });
});

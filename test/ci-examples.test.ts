/**
 * The CI examples use only what exists: the action's inputs (action.yml), the CLI's options, the
 * documented image (the repository's Dockerfile, by the name docs/examples/kubernetes/ uses) or the
 * current Node LTS; they keep the reports as artifacts, name the Test key's secret alike
 * (HPS_KEY_TEST), and never carry a key.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { COMMANDS } from '../cli/main.ts';

const ROOT = join(import.meta.dirname, '..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const IMAGE = `registry.example/hps-conformance:${VERSION}`;
const LTS = '24';
const read = (file: string) => readFileSync(join(ROOT, 'docs', 'examples', 'ci', file), 'utf8');
const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> };
const flagsOf = (words: string) => [...words.matchAll(/(?:^|\s)--([a-z0-9-]+)/g)].map((m) => m[1]!);
const optionsOf = (cmd: string) => Object.keys(COMMANDS[cmd]!.options);

describe('docs/examples/ci', () => {
  it('github-actions.yml: the repository\'s action, only its declared inputs, real run and load options, the current LTS', () => {
    const wf = parse(read('github-actions.yml')) as { jobs: Record<string, { steps: Array<{ uses?: string; with?: Record<string, string>; env?: Record<string, string> }> }> };
    const steps = wf.jobs['conformance']!.steps;
    const hps = steps.find((s) => s.uses?.endsWith(`/hps-conformance@v${VERSION}`))!;
    expect(hps).toBeDefined();
    for (const k of Object.keys(hps.with!)) expect(action.inputs, `input ${k}`).toHaveProperty(k);
    expect(hps.with!['node-version']).toBe(LTS);
    expect(hps.with!['base-url']).toMatch(/^https:\/\/staging\./);
    const runArgs = JSON.parse(hps.with!['run-args']!) as string[]; // the JSON-array form (arguments with spaces)
    expect(runArgs.length).toBeGreaterThan(0);
    for (const f of runArgs.filter((a) => a.startsWith('--'))) expect(optionsOf('run'), `run ${f}`).toContain(f.slice(2));
    for (const f of flagsOf(hps.with!['load-args']!)) expect(optionsOf('load'), `load --${f}`).toContain(f);
    expect(Object.keys(hps.env!)).toContain(hps.with!['key-env']);
    expect(hps.env![hps.with!['key-env']!]).toBe('${{ secrets.HPS_KEY_TEST }}');
    // The verify step really verifies: the action's CLI, the signer's public key, a signature required.
    const verify = steps.find((s) => (s as { name?: string }).name?.startsWith('Verify the certificate')) as { run: string };
    expect(verify.run).toBe('node "$HPS_CLI" verify-certificate "$HPS_REPORT" --public-key "$HPS_SIGNER_PUBLIC_KEY" --require-signature');
    for (const f of flagsOf(verify.run)) expect(optionsOf('verify-certificate'), `verify-certificate --${f}`).toContain(f);
    const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))!;
    expect(upload.with!['path']).toBe(`${hps.with!['report-dir']}/`);
  });

  it('gitlab-ci.yml: the documented image, a run with real options, hps-report kept with its JUnit', () => {
    const text = read('gitlab-ci.yml');
    const job = (parse(text) as Record<string, { image: { name: string; entrypoint: string[] }; script: string[]; artifacts: { paths: string[]; reports: { junit: string } } }>)['conformance']!;
    expect(job.image).toEqual({ name: IMAGE, entrypoint: [''] }); // the image's entrypoint is the CLI: GitLab needs its shell
    const run = job.script.join('\n');
    expect(run).toMatch(/^hps-conformance run /);
    for (const f of flagsOf(run)) expect(optionsOf('run'), `run --${f}`).toContain(f);
    expect(run).toContain('--key-env HPS_KEY_TEST');
    expect(job.artifacts.paths).toEqual(['hps-report/']);
    expect(job.artifacts.reports.junit).toBe('hps-report/junit.xml');
    expect(text).toContain('verify-certificate hps-report');
  });

  it('load-shards.github.yml: every job in the documented image (no npm ci in a clone), the same secret name, real load and merge options', () => {
    const text = read('load-shards.github.yml');
    const wf = parse(text) as { jobs: Record<string, { container: { image: string }; steps: Array<{ run?: string; env?: Record<string, string> }> }> };
    for (const [name, job] of Object.entries(wf.jobs)) expect(job.container.image, name).toBe(IMAGE);
    expect(text).not.toMatch(/npm ci|node bin\//);
    const shard = wf.jobs['shard']!.steps.find((s) => s.run?.includes('hps-conformance load'))!;
    expect(Object.keys(shard.env!)).toEqual(['HPS_KEY_TEST']);
    for (const f of flagsOf(shard.run!)) expect(optionsOf('load'), `load --${f}`).toContain(f);
    const merge = wf.jobs['merge']!.steps.find((s) => s.run?.includes('load merge'))!;
    const mergeOptions = [...Object.keys(COMMANDS.load!.subcommands!['merge']!.options), ...(COMMANDS.load!.subcommands!['merge']!.inherits ?? [])];
    for (const f of flagsOf(merge.run!)) expect(mergeOptions, `load merge --${f}`).toContain(f);
  });

  it('no example pins an old Node or the unpublished registry name, or carries a key', () => {
    for (const file of ['github-actions.yml', 'gitlab-ci.yml', 'load-shards.github.yml']) {
      const text = read(file);
      expect(text, file).not.toMatch(/node-version:\s*['"]?(1\d|20|22)\b|image:\s*node:(1\d|20|22)\b/);
      expect(text, file).not.toMatch(/npm install --global hps-conformance/);
      expect(text, file).not.toMatch(/pt_(test|live)_sk_/);
    }
  });
});

/**
 * action.yml, the composite GitHub Action, run locally as a runner would run it: parsed with the
 * `yaml` package, its `run` steps executed in order by bash with their `env` (the inputs, with
 * the defaults action.yml declares), GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files and
 * GITHUB_ACTIONS=true; a step that fails stops the steps after it (their `if` is success()).
 * `uses:` steps are the runner's business: actions/setup-node is skipped (the steps run on this
 * Node); actions/cache is played as GitHub plays it within one repository: a miss (`cache-hit`
 * empty) until a job that missed has succeeded, which saves the path under its key; then an exact
 * hit (`cache-hit` 'true') with the path restored, here the same directory left in place. The
 * action's directory is a copy of the repository's package files with the lockfile, so its
 * install step runs for real on the miss (npm ci --omit=dev) and is skipped on a hit.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { Ajv } from 'ajv';
import { generateKeyPairSync } from 'node:crypto';
import { startReferenceServer } from '../core/targets/reference-server.ts';
import { runChild } from './support/run-child.ts';

const ROOT = join(import.meta.dirname, '..');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };

interface Step {
  id?: string; name?: string; uses?: string; with?: Record<string, string>;
  run?: string; shell?: string; if?: string; env?: Record<string, string>;
}
interface Action {
  inputs: Record<string, { default?: string; required?: boolean; description: string }>;
  outputs: Record<string, { value: string; description: string }>;
  runs: { using: string; steps: Step[] };
}
const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;

interface ActionResult {
  exitCode: number;
  ran: string[];
  outputs: Record<string, string>;
  stdout: string;
  stderr: string;
  summary: string;
}

const EXPR = /\$\{\{\s*([^}]+?)\s*\}\}/g;

/** The expressions action.yml uses: inputs.X, github.action_path, steps.S.outputs.O, and `inputs.X == 'v'` / `!= 'v'`. */
function evaluate(
  expr: string,
  ctx: { inputs: Record<string, string>; actionPath: string; steps: Record<string, Record<string, string>> },
): string {
  const eq = /^inputs\.([\w-]+) (==|!=) '([^']*)'$/.exec(expr);
  if (eq) return String((ctx.inputs[eq[1]!] === eq[3]) === (eq[2] === '=='));
  let m = /^inputs\.([\w-]+)$/.exec(expr);
  if (m) {
    if (!(m[1]! in ctx.inputs)) throw new Error(`action.yml uses undeclared input ${m[1]}`);
    return ctx.inputs[m[1]!]!;
  }
  if (expr === 'github.action_path') return ctx.actionPath;
  m = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
  if (m) return ctx.steps[m[1]!]?.[m[2]!] ?? '';
  throw new Error(`expression not understood by this runner: ${expr}`);
}

/** actions/cache's store for this file's jobs: key → the path saved under it. */
const savedCaches = new Map<string, string>();

async function runAction(actionPath: string, given: Record<string, string>, env: NodeJS.ProcessEnv, cwd: string): Promise<ActionResult> {
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, given[k] ?? v.default ?? '']));
  const ctx = { inputs, actionPath, steps: {} as Record<string, Record<string, string>> };
  const summaryFile = join(cwd, `summary-${Date.now()}.md`);
  writeFileSync(summaryFile, '');
  const result: ActionResult = { exitCode: 0, ran: [], outputs: {}, stdout: '', stderr: '', summary: '' };
  const toSave: Array<{ key: string; path: string }> = [];
  for (const [i, step] of action.runs.steps.entries()) {
    if (step.if !== undefined && evaluate(step.if.replace(/^\$\{\{\s*|\s*\}\}$/g, ''), ctx) !== 'true') continue;
    if (step.uses !== undefined) {
      // actions/setup-node (only with node-version): the runner's; actions/cache: played (the header).
      if (step.uses.startsWith('actions/cache@')) {
        const key = evaluate(step.with!.key!.replace(/^\$\{\{\s*|\s*\}\}$/g, ''), ctx);
        const path = step.with!.path!.replace(EXPR, (_m, e: string) => evaluate(e, ctx));
        const hit = savedCaches.get(key) === path && existsSync(path);
        if (!hit) toSave.push({ key, path });
        if (step.id) ctx.steps[step.id] = { 'cache-hit': hit ? 'true' : '' };
        result.ran.push(`${step.id ?? 'cache'}:${hit ? 'hit' : 'miss'}`);
      }
      continue;
    }
    const outputFile = join(cwd, `output-${i}-${Date.now()}`);
    writeFileSync(outputFile, '');
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [
      k,
      v.replace(EXPR, (_m, e: string) => evaluate(e, ctx)),
    ]));
    const r = await runChild('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run!], {
      cwd,
      env: {
        ...env,
        ...stepEnv,
        GITHUB_ACTIONS: 'true',
        CI: 'true',
        NO_COLOR: '1',
        GITHUB_OUTPUT: outputFile,
        GITHUB_STEP_SUMMARY: summaryFile,
      },
      timeoutMs: 300_000,
    });
    result.ran.push(step.id ?? step.name ?? String(i));
    result.stdout += r.stdout;
    result.stderr += r.stderr;
    if (step.id) ctx.steps[step.id] = Object.fromEntries(readFileSync(
      outputFile,
      'utf8',
    ).split('\n').filter(Boolean).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    if (r.status !== 0) {
      result.exitCode = r.status ?? -1;
      break;
    }
  }
  // actions/cache's post step: a job that succeeded saves what it missed.
  if (result.exitCode === 0) for (const c of toSave) if (existsSync(c.path)) savedCaches.set(c.key, c.path);
  result.outputs = Object.fromEntries(Object.entries(action.outputs).map(([k, o]) => [
    k,
    o.value.replace(EXPR, (_m, e: string) => evaluate(e, ctx)),
  ]));
  result.summary = readFileSync(summaryFile, 'utf8');
  return result;
}

describe('action.yml', () => {
  it('matches the action metadata format (test/fixtures/action-metadata.schema.json, from GitHub\'s documented syntax)', () => {
    const schema = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/action-metadata.schema.json'), 'utf8')) as object;
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    expect(validate(action) ? [] : validate.errors).toEqual([]);
    // and the schema refuses what GitHub refuses: an output without a value, a step that both runs and uses
    expect(validate({ ...action, outputs: { verdict: { description: 'x' } } })).toBe(false);
    expect(validate({ ...action, runs: { using: 'composite', steps: [{ run: 'true', shell: 'bash', uses: 'a/b@v1' }] } })).toBe(false);
  });

  it('sets up no Node unless asked (node-version empty by default), and caches the install on the lockfile', () => {
    expect(action.inputs['node-version']!.default).toBe('');
    const setup = action.runs.steps.find((s) => s.uses?.startsWith('actions/setup-node'))!;
    expect(setup.if).toBe("${{ inputs.node-version != '' }}");
    const cache = action.runs.steps.find((s) => s.uses?.startsWith('actions/cache'))! as Step & { with: Record<string, string> };
    expect(cache.with.key).toBe('${{ steps.lock.outputs.key }}');
    expect(action.runs.steps.find((s) => s.id === 'lock')!.run).toContain('package-lock.json');
    expect(action.runs.steps.find((s) => s.id === 'install')!.run).toContain('npm ci --omit=dev --prefer-offline');
  });

  it('is a composite action whose run steps take inputs only through env (no ${{ }} in a script)', () => {
    expect(action.runs.using).toBe('composite');
    for (const step of action.runs.steps.filter((s) => s.run !== undefined)) {
      expect(step.run, step.name).not.toMatch(/\$\{\{/);
      expect(step.shell, step.name).toBe('bash');
    }
    for (const name of [
      'base-url',
      'key-env',
      'live-key-env',
      'other-key-env',
      'require',
      'report-dir',
      'load',
      'load-args',
    ]) expect(action.inputs[name], name).toBeDefined();
    expect(Object.keys(action.outputs)).toEqual(expect.arrayContaining(['verdict', 'report', 'certificate']));
    // `require` is passed through only when given (the conformance classes of the CLI)
    expect(action.runs.steps.find((s) => s.id === 'run')!.run).toContain('if [ -n "$INPUT_REQUIRE" ]; then args+=(--require "$INPUT_REQUIRE"); fi');
  });

  describe('run locally', () => {
    let actionPath: string;
    let work: string;
    beforeAll(async () => {
      const tmp = mkdtempSync(join(tmpdir(), 'hps-action-'));
      actionPath = join(tmp, 'action');
      for (const f of [
        ...PKG.files,
        'package.json',
        'package-lock.json',
        'action.yml',
      ]) cpSync(join(ROOT, f), join(actionPath, f), { recursive: true });
      work = join(tmp, 'workspace');
      cpSync(join(ROOT, 'README.md'), join(work, 'README.md'));
    }, 60_000);

    it('against the embedded reference: the install, the run and the load step; outputs, step summary; exit 0', async () => {
      const r = await runAction(
        actionPath,
        {
          'run-args': '--area routing --seed 1',
          load: 'true',
          'load-args': '--duration 1 --warmup 0 --connections 2 --workers 1 --max-p99-ms 60000',
          'report-dir': 'out',
        },
        { ...process.env, npm_config_prefer_offline: 'true' },
        work,
      );
      expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(0);
      // The first job of the file: the cache misses and npm ci installs (saved after the job).
      expect(r.ran).toEqual(['lock', 'cache:miss', 'install', 'run', 'load']);
      expect(r.outputs).toMatchObject({
        verdict: 'conformant',
        'exit-status': '0',
        gate: '',
        report: 'out/report.json',
        certificate: 'out/certificate.json',
        cli: join(actionPath, 'bin/hps-conformance.mjs'),
        'load-verdict': 'pass',
      });
      // classes: the conformant ones of report.json, none here (one area leaves every class's other MUST rules unrun)
      const written = JSON.parse(readFileSync(
        join(work, 'out', 'report.json'),
        'utf8',
      )) as { classes: Array<{ id: string; status: string }> };
      expect(r.outputs.classes).toBe(written.classes.filter((c) => c.status === 'conformant').map((c) => c.id).join(','));
      expect(existsSync(join(work, 'out', 'report.json'))).toBe(true);
      expect(existsSync(join(work, 'out', 'load.json'))).toBe(true);
      expect(r.summary).toMatch(/conformant/);
      expect(r.summary).toMatch(/load/i);
    }, 420_000);

    it('against a faulty server by base-url and key-env: not_conformant, an ::error annotation, exit 1, the key never printed', async () => {
      const ref = await startReferenceServer({ webhookBaseUrl: 'http://127.0.0.1:9', faults: ['missing-key-uses-default-key'] });
      try {
        const key = ref.profile.keys.test;
        const installed = join(actionPath, 'node_modules', '.package-lock.json');
        const before = existsSync(installed) ? statSync(installed).mtimeMs : undefined;
        const r = await runAction(
          actionPath,
          {
            'base-url': ref.url,
            'key-env': 'MY_TEST_KEY',
            'run-args': '--rule AUTH-MISSING-KEY --seed 1',
            load: 'true',
            'report-dir': 'faulty',
          },
          { ...process.env, MY_TEST_KEY: key, npm_config_prefer_offline: 'true' },
          work,
        );
        expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(1);
        // the load step does not run after a failed one; after the first job's success the cache hits
        // (alone, with -t, it misses) and the install step leaves the restored node_modules as it is
        const hit = before !== undefined && savedCaches.size > 0;
        expect(r.ran).toEqual(['lock', hit ? 'cache:hit' : 'cache:miss', 'install', 'run']);
        if (hit) expect(statSync(installed).mtimeMs).toBe(before);
        expect(r.outputs.verdict).toBe('not_conformant');
        expect(r.outputs['exit-status']).toBe('1');
        expect(r.outputs.report).toBe('faulty/report.json');
        expect(r.stdout).toMatch(/^::error .*AUTH-MISSING-KEY/m);
        expect(r.summary).toContain('AUTH-MISSING-KEY');
        expect(r.stdout + r.stderr + r.summary).not.toContain(key);
      } finally {
        await ref.close();
      }
    }, 420_000);

    it('the --require gate failing: exit 4, and the outputs say so (exit-status 4, gate failed, the verdict as report.json says); run-args as a JSON array with a space in an argument', async () => {
      const runArgs = JSON.stringify(['--rule', 'AUTH-MISSING-KEY', '--seed', '1', '--header', 'X-Team: pay ments']);
      const r = await runAction(
        actionPath,
        { 'run-args': runArgs, require: 'isolation-live', 'report-dir': 'gated' },
        { ...process.env, npm_config_prefer_offline: 'true' },
        work,
      );
      expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(4);
      const report = JSON.parse(readFileSync(join(work, 'gated', 'report.json'), 'utf8')) as { verdict: string };
      expect(r.outputs).toMatchObject({ 'exit-status': '4', gate: 'failed', verdict: report.verdict });
      expect(r.stdout).toMatch(/^::error title=hps-conformance::the --require gate failed \(exit 4\)/m);
    }, 420_000);

    it('the CI example\'s verify step, run as written: passes with the signer\'s public key, fails with another', async () => {
      const signer = generateKeyPairSync('ed25519');
      const pub = join(work, 'hps-signer.pub');
      writeFileSync(pub, signer.publicKey.export({ type: 'spki', format: 'pem' }));
      const env = {
        ...process.env,
        HPS_SIGN_KEY: signer.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        npm_config_prefer_offline: 'true',
      };
      const r = await runAction(actionPath, { 'run-args': '--rule AUTH-MISSING-KEY --seed 1', 'report-dir': 'hps-report' }, env, work);
      expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(0);
      const wf = parse(readFileSync(
        join(ROOT, 'docs/examples/ci/github-actions.yml'),
        'utf8',
      )) as { jobs: Record<string, { steps: Step[] }> };
      const verify = wf.jobs['conformance']!.steps.find((s) => s.name?.startsWith('Verify the certificate'))!;
      const verifyEnv = (publicKeyFile: string) => ({
        ...process.env,
        HPS_CLI: r.outputs.cli!,
        HPS_REPORT: 'hps-report',
        HPS_SIGNER_PUBLIC_KEY: publicKeyFile,
      });
      const ok = await runChild(
        'bash',
        ['--noprofile', '--norc', '-eo', 'pipefail', '-c', verify.run!],
        { cwd: work, env: verifyEnv(pub), timeoutMs: 120_000 },
      );
      expect(ok.status, ok.stdout + ok.stderr).toBe(0);
      const other = join(work, 'other.pub');
      writeFileSync(other, generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }));
      const bad = await runChild(
        'bash',
        ['--noprofile', '--norc', '-eo', 'pipefail', '-c', verify.run!],
        { cwd: work, env: verifyEnv(other), timeoutMs: 120_000 },
      );
      expect(bad.status).toBe(1);
    }, 420_000);
  });
});

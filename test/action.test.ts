/**
 * action.yml, the composite GitHub Action, run locally as a runner would run it: parsed with the
 * `yaml` package, its `run` steps executed in order by bash with their `env` (the inputs, with
 * the defaults action.yml declares), GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files and
 * GITHUB_ACTIONS=true; a step that fails stops the steps after it (their `if` is success()).
 * `uses:` steps (actions/setup-node) are the runner's business and are skipped: the steps run
 * on this Node. The action's directory is a copy of the repository's package files with the
 * lockfile, so its install step (npm ci --omit=dev) runs for real.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startReferenceServer } from '../targets/reference-server.ts';
import { runChild } from './support/run-child.ts';

const ROOT = join(import.meta.dirname, '..');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };

interface Step { id?: string; name?: string; uses?: string; run?: string; shell?: string; if?: string; env?: Record<string, string> }
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

/** The expressions action.yml uses: inputs.X, github.action_path, steps.S.outputs.O, and `inputs.X == 'v'`. */
function evaluate(expr: string, ctx: { inputs: Record<string, string>; actionPath: string; steps: Record<string, Record<string, string>> }): string {
  const eq = /^inputs\.([\w-]+) == '([^']*)'$/.exec(expr);
  if (eq) return String(ctx.inputs[eq[1]!] === eq[2]);
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

async function runAction(actionPath: string, given: Record<string, string>, env: NodeJS.ProcessEnv, cwd: string): Promise<ActionResult> {
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, given[k] ?? v.default ?? '']));
  const ctx = { inputs, actionPath, steps: {} as Record<string, Record<string, string>> };
  const summaryFile = join(cwd, `summary-${Date.now()}.md`);
  writeFileSync(summaryFile, '');
  const result: ActionResult = { exitCode: 0, ran: [], outputs: {}, stdout: '', stderr: '', summary: '' };
  for (const [i, step] of action.runs.steps.entries()) {
    if (step.uses !== undefined) continue;
    if (step.if !== undefined && evaluate(step.if.replace(/^\$\{\{\s*|\s*\}\}$/g, ''), ctx) !== 'true') continue;
    const outputFile = join(cwd, `output-${i}-${Date.now()}`);
    writeFileSync(outputFile, '');
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, v.replace(EXPR, (_m, e: string) => evaluate(e, ctx))]));
    const r = await runChild('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run!], {
      cwd,
      env: { ...env, ...stepEnv, GITHUB_ACTIONS: 'true', CI: 'true', NO_COLOR: '1', GITHUB_OUTPUT: outputFile, GITHUB_STEP_SUMMARY: summaryFile },
      timeoutMs: 300_000,
    });
    result.ran.push(step.id ?? step.name ?? String(i));
    result.stdout += r.stdout;
    result.stderr += r.stderr;
    if (step.id) ctx.steps[step.id] = Object.fromEntries(readFileSync(outputFile, 'utf8').split('\n').filter(Boolean).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    if (r.status !== 0) {
      result.exitCode = r.status ?? -1;
      break;
    }
  }
  result.outputs = Object.fromEntries(Object.entries(action.outputs).map(([k, o]) => [k, o.value.replace(EXPR, (_m, e: string) => evaluate(e, ctx))]));
  result.summary = readFileSync(summaryFile, 'utf8');
  return result;
}

describe('action.yml', () => {
  it('is a composite action whose run steps take inputs only through env (no ${{ }} in a script)', () => {
    expect(action.runs.using).toBe('composite');
    for (const step of action.runs.steps.filter((s) => s.run !== undefined)) {
      expect(step.run, step.name).not.toMatch(/\$\{\{/);
      expect(step.shell, step.name).toBe('bash');
    }
    for (const name of ['base-url', 'key-env', 'live-key-env', 'other-key-env', 'require', 'report-dir', 'load', 'load-args']) expect(action.inputs[name], name).toBeDefined();
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
      for (const f of [...PKG.files, 'package.json', 'package-lock.json', 'action.yml']) cpSync(join(ROOT, f), join(actionPath, f), { recursive: true });
      work = join(tmp, 'workspace');
      cpSync(join(ROOT, 'README.md'), join(work, 'README.md'));
    }, 60_000);

    it('against the embedded reference: the install, the run and the load step; outputs, step summary; exit 0', async () => {
      const r = await runAction(actionPath, { 'run-args': '--area routing --seed 1', load: 'true', 'load-args': '--duration 1 --warmup 0 --connections 2 --workers 1 --max-p99-ms 60000', 'report-dir': 'out' }, { ...process.env, npm_config_prefer_offline: 'true' }, work);
      expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(0);
      expect(r.ran).toEqual(['install', 'run', 'load']);
      expect(r.outputs).toEqual({ verdict: 'conformant', report: 'out/report.json', certificate: 'out/certificate.json', 'load-verdict': 'pass' });
      expect(existsSync(join(work, 'out', 'report.json'))).toBe(true);
      expect(existsSync(join(work, 'out', 'load.json'))).toBe(true);
      expect(r.summary).toMatch(/conformant/);
      expect(r.summary).toMatch(/load/i);
    }, 420_000);

    it('against a faulty server by base-url and key-env: not_conformant, an ::error annotation, exit 1, the key never printed', async () => {
      const ref = await startReferenceServer({ webhookBaseUrl: 'http://127.0.0.1:9', faults: ['missing-key-uses-default-key'] });
      try {
        const key = ref.profile.keys.test;
        const r = await runAction(actionPath, { 'base-url': ref.url, 'key-env': 'MY_TEST_KEY', 'run-args': '--rule AUTH-MISSING-KEY --seed 1', load: 'true', 'report-dir': 'faulty' }, { ...process.env, MY_TEST_KEY: key, npm_config_prefer_offline: 'true' }, work);
        expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(1);
        expect(r.ran).toEqual(['install', 'run']); // the load step does not run after a failed one
        expect(r.outputs.verdict).toBe('not_conformant');
        expect(r.outputs.report).toBe('faulty/report.json');
        expect(r.stdout).toMatch(/^::error .*AUTH-MISSING-KEY/m);
        expect(r.summary).toContain('AUTH-MISSING-KEY');
        expect(r.stdout + r.stderr + r.summary).not.toContain(key);
      } finally {
        await ref.close();
      }
    }, 420_000);
  });
});

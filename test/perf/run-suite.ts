/**
 * Runs the whole conformance suite as a user would, in a child process
 * (`node bin/hps-conformance.mjs run ...`), and reads back its report. Asynchronous on purpose:
 * the target may live in this very process and must keep answering while the child runs.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface SuiteRun {
  exitCode: number | null;
  wallMs: number;
  verdict: string;
  summary: Record<'pass' | 'fail' | 'warn' | 'info' | 'skip' | 'error' | 'flaky', number>;
  /**
  /** One line per rule that is not pass/info/skip: "FAIL RULE-ID — message". */
  problems: string[];
  /** With an incomplete verdict: each SKIP that is not "not exercisable" and each obligation not tried, in parentheses. */
  incomplete: string[];
  reportDir: string;
  outputTail: string;
}

const BIN = resolve(import.meta.dirname, '../../bin/hps-conformance.mjs');

/** `run` with `args` (e.g. ['--variant', 'alt'] or ['--profile', file]); `timeoutMs` kills the child. */
export function runSuite(args: string[], o: { seed: number; env?: Record<string, string>; timeoutMs: number }): Promise<SuiteRun> {
  const reportDir = mkdtempSync(join(tmpdir(), 'hps-suite-run-'));
  const started = Date.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BIN, 'run', ...args, `--seed=${o.seed}`, '--report', reportDir], {
      env: { ...process.env, ...o.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (c: Buffer) => (output = (output + c.toString()).slice(-8000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), o.timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const wallMs = Date.now() - started;
      type Rule = { id: string; status: string; reason?: string; not_tried?: { obligation: string; why: string }[] };
      let report: { verdict: string; summary: SuiteRun['summary']; rules: Rule[] };
      try {
        report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8'));
      } catch {
        reject(new Error(`the run wrote no report (exit ${code}, ${Math.round(wallMs / 1000)} s): ${output.trim().split('\n').slice(-3).join(' | ')}`));
        return;
      }
      const problems = report.rules
        .filter((r) => !['pass', 'info', 'skip'].includes(r.status))
        .map((r) => `${r.status.toUpperCase()} ${r.id}${r.reason ? ` — ${r.reason.slice(0, 200)}` : ''}`);
      const incomplete = report.verdict === 'incomplete' ? report.rules.flatMap((r) => [
        ...(r.status === 'skip' && !/^not exercisable/.test(r.reason ?? '')
          ? [`(SKIP ${r.id} — ${(r.reason ?? '').slice(0, 200)})`] : []),
        ...(r.not_tried ?? []).map((n) => `(NOT TRIED ${r.id} ${n.obligation} — ${String(n.why).slice(0, 200)})`),
      ]) : [];
      const { verdict, summary } = report;
      resolvePromise({ exitCode: code, wallMs, verdict, summary, problems, incomplete, reportDir, outputTail: output });
    });
  });
}

/** Writes a profile file (mode 0600: it holds keys) into a fresh temp dir. */
export function writeProfile(profile: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'hps-profile-')), 'profile.json');
  writeFileSync(file, JSON.stringify(profile, null, 2), { mode: 0o600 });
  return file;
}

/**
 * No "internal error" for a bad path, on any command (issue "Honest at every edge a user meets",
 * item 4): every option of cli/main.ts's tables that names a FILE or a DIR is given a path that
 * cannot serve (a file where a directory is wanted, a missing parent, a read-only folder, /proc, a
 * directory where a file is wanted, /dev/zero), each through `main` in this process: one line on
 * stderr, exit 2, never an internal error or a stack trace, and nothing started. A missing parent of
 * an output is no error (it is made); an input's is (ENOENT). `proxy --report` is left to its owner.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { selectRules } from '../catalogue/index.ts';
import { COMMANDS, main, type OptionDef } from '../cli/main.ts';
import type { FinishedTest } from '../results/verdict/collect.ts';
import { judgeRun } from '../results/verdict/judge-run.ts';
import { persistReport } from '../results/verdict/persist-report.ts';

const dir = mkdtempSync(join(tmpdir(), 'hps-bad-paths-'));
const at = (...p: string[]) => join(dir, ...p);
const KEY = 'pt_test_sk_badpathsbadpaths0123456';
const PROFILE = at('profile.json');
const SINK_PROFILE = at('sink-profile.json');
const OK_REPORT = at('ok-report');
const REPORTS = [at('report-a'), at('report-b')];

/** Where a bad path may be: kinds by what the option names. */
const BAD = {
  underFile: () => at('plain', 'sub'),
  file: () => at('plain'),
  missingParent: (n: number) => at(`missing-${n}`, 'a', 'b'),
  // As root a mode 555 folder is writable: /sys is mounted read-only here, as a read-only folder is.
  readOnly: () => (process.getuid?.() === 0 ? '/sys/hps-read-only/x' : at('read-only', 'x')),
  proc: () => '/proc/hps-not-here/x',
  procItself: () => '/proc',
  devZero: () => '/dev/zero',
} as const;
type Bad = keyof typeof BAD;
const KINDS: Record<'dir' | 'in' | 'out', Bad[]> = {
  dir: ['underFile', 'file', 'readOnly', 'proc', 'devZero'],
  in: ['underFile', 'missingParent', 'proc', 'procItself', 'devZero'],
  out: ['underFile', 'readOnly', 'proc', 'procItself', 'devZero'],
};

/** What the option names: a directory to write, a file to read, a file to write. */
function kindOf(command: string, long: string, o: OptionDef): 'dir' | 'in' | 'out' {
  if (o.arg === 'DIR') return 'dir';
  if (long === 'profile-out' || long === 'out' || (command === 'sink' && long === 'log')) return 'out';
  return 'in';
}

const REFUSED = ['--base-url', 'http://127.0.0.1:9', '--key-env', 'HPS_BAD_PATHS_KEY'];
const RECEIVER = ['--url', 'http://127.0.0.1:9/hooks', '--secret-env', 'HPS_BAD_PATHS_SECRET'];
/** The rest of each command line: enough that the bad path is what the command meets. */
function baseArgs(command: string, long: string): string[] {
  const report = long === 'report' ? [] : ['--report', OK_REPORT];
  const tlsPair = long === 'client-cert' ? ['--client-key', PROFILE] : long === 'client-key' ? ['--client-cert', PROFILE] : [];
  switch (command) {
    case 'run': return [...(long === 'profile' ? [] : REFUSED), '--rule', 'AUTH-MISSING-KEY', ...report, ...tlsPair];
    case 'serve': return ['--port', '0'];
    case 'sink': return long === 'log' ? ['--profile', SINK_PROFILE] : [];
    case 'webhooks judge': return [...(long === 'log' ? [] : ['--log', at('no-log.jsonl')]), ...report];
    case 'load': return [...(long === 'profile' ? [] : REFUSED), '--duration', '1s', ...report, ...tlsPair];
    case 'load merge': return [at('shard-1'), at('shard-2')];
    case 'load compare': return [at('shard-1'), at('shard-2')];
    case 'report': return ['--compare', ...REPORTS];
    case 'verify-certificate': return [REPORTS[0]!];
    case 'receiver': return [...(long === 'profile' ? [] : RECEIVER), ...report, ...tlsPair];
    case 'client': return ['--run', 'true', ...report];
    case 'mutation': return ['--fault', 'no-such-fault'];
    default: throw new Error(`no base arguments for ${command}`);
  }
}

interface Row { command: string; long: string; bad: Bad; path: string; argv: string[] }
function rows(): Row[] {
  const out: Row[] = [];
  let n = 0;
  for (const [name, def] of Object.entries(COMMANDS)) {
    const commands: Array<[string, Record<string, OptionDef>]> = [[name, def.options]];
    for (const [sub, s] of Object.entries(def.subcommands ?? {})) {
      commands.push([`${name} ${sub}`, { ...Object.fromEntries((s.inherits ?? []).map((k) => [k, def.options[k]!])), ...s.options }]);
    }
    for (const [command, options] of commands) {
      for (const [long, o] of Object.entries(options)) {
        if (o.type !== 'string' || !/FILE|DIR/.test(o.arg ?? '')) continue;
        // TODO(proxy's owner): proxy --report is being fixed on branch edge-proxy; its rows join when it passes.
        if (command === 'proxy') continue;
        for (const bad of KINDS[kindOf(command, long, o)]) {
          const path = BAD[bad](n++);
          const value = command === 'load' && long === 'out' ? `ndjson=${path}` : path;
          out.push({ command, long, bad, path, argv: [...command.split(' '), ...baseArgs(command, long), `--${long}`, value] });
        }
      }
    }
  }
  return out;
}

function reportDir(path: string): void {
  const ids = ['AUTH-MISSING-KEY'];
  const test = { title: 'AUTH-MISSING-KEY: t', state: 'pass', durationMs: 1, errors: [], meta: { checks: 1, requests: 1 } };
  const { report } = judgeRun({
    target: { base_url: 'http://127.0.0.1:1', embedded_reference: false },
    ctx: { runId: 'r', seed: 1, runs: 100, replayArgs: [], profilePath: null },
    startedAt: new Date(), selected: selectRules({ rules: ids }), selection: { areas: [], rules: ids },
    tests: [test as unknown as FinishedTest], secrets: [], pace: { maxRps: null, concurrency: 4 }, policy: {}, required: [],
  });
  persistReport(path, report, { certificate: { profile: null } });
}

const saved = { ...process.env };
beforeAll(() => {
  writeFileSync(at('plain'), '');
  writeFileSync(PROFILE, JSON.stringify({ base_url: 'http://127.0.0.1:9', keys: { test: KEY } }));
  writeFileSync(SINK_PROFILE, JSON.stringify({
    base_url: 'http://127.0.0.1:9', keys: { test: KEY },
    webhooks: {
      listen: '127.0.0.1:0',
      endpoints: [{ path: '/h', livemode: false, events: '*', secret: 'whsec_badpathsbadpaths01234567' }],
    },
  }));
  for (const d of REPORTS) reportDir(d);
  mkdirSync(at('read-only'), { mode: 0o555 });
  Object.assign(process.env, {
    HPS_BAD_PATHS_KEY: KEY, HPS_BAD_PATHS_SECRET: 'whsec_badpathsbadpaths01234567', HPS_DEBUG: '', CI: '1',
    HTTPS_PROXY: '', HTTP_PROXY: '', https_proxy: '', http_proxy: '',
  });
});
afterAll(() => {
  process.env = saved;
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => vi.restoreAllMocks());

/** `main(argv)` here, stderr and stdout kept; a command that does not end within 20 s is reported as such. */
async function inProcess(argv: string[]): Promise<{ code: number | 'timeout'; err: string[] }> {
  const err: string[] = [];
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => (err.push(String(s).trimEnd()), true));
  const code = await Promise.race([main(argv), new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 20_000).unref())]);
  return { code, err: err.flatMap((l) => l.split('\n')).filter((l) => l.trim() !== '') };
}

describe('a bad path given to any command: one line, exit 2', () => {
  it('covers every command but proxy, and every path option (the table is not empty)', () => {
    const covered = new Set(rows().map((r) => r.command));
    expect([...covered].sort()).toEqual(['client', 'load', 'load compare', 'load merge', 'mutation', 'receiver', 'report', 'run', 'serve',
      'sink', 'verify-certificate', 'webhooks judge']);
    expect(rows().length).toBeGreaterThan(150);
  });

  for (const row of rows()) {
    it(`${row.command} --${row.long} ${row.bad}`, async () => {
      const r = await inProcess(row.argv);
      const shown = `${row.argv.join(' ')} → ${r.code}: ${r.err.join(' | ')}`;
      expect(r.code, shown).toBe(2);
      expect(r.err, shown).toHaveLength(1);
      expect(r.err[0], shown).toMatch(/^hps-conformance: /);
      expect(r.err[0], shown).not.toMatch(/internal error|\n\s+at /);
      // The line is about the path given (or the directory it names, for an output's parent): never another complaint.
      const about = [row.path, dirname(row.path)].filter((p) => p.length > 1);
      expect(about.some((p) => r.err[0]!.includes(p)), shown).toBe(true);
    }, 30_000);
  }
});

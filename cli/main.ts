/**
 * hps-conformance — the command line (DESIGN.md "Public surface").
 * Every problem is one line on stderr and a distinct exit status, never a stack trace.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { EXIT, HarnessError } from '../harness/errors.ts';
import { redactText } from '../harness/redact.ts';

const USAGE = `usage:
  hps-conformance run    [--profile FILE] [--area NAME]... [--rule ID]... [--seed N] [--runs N] [--report DIR] [--dry-run]
                         [--time-scale N] [--fault NAME]...   (the last two: embedded reference server only)
  hps-conformance serve  [--port N] [--host H] [--fault NAME]... [--time-scale N] [--webhook-url URL] [--profile-out FILE]
  hps-conformance sink   [--profile FILE] [--log FILE]
  hps-conformance load   [--profile FILE] [--scenario NAME] [--mix create=N,read=N,list=N] [--duration S] [--warmup S]
                         [--connections N] [--rate R [--arrivals constant|poisson] [--allow-short]] [--workers N]
                         [--shard i/N] [--run-id ID] [--report DIR]
                         [--max-requests N] [--max-p99-ms MS] [--min-rps R] [--max-error-rate F]
  hps-conformance load merge [--report DIR] [--max-p99-ms MS] [--min-rps R] [--max-error-rate F] [--allow-short] DIR...
  hps-conformance report DIR
  hps-conformance mutation [--fault NAME]... [--seed N] [--runs N] [--jobs N] [--report DIR]   (the suite against planted faults)
  hps-conformance mutation --clean-seeds N [--seed FIRST] [--runs N] [--jobs N]                (false-alarm rate on the clean server)
exit: 0 conformant · 1 not conformant / load threshold missed · 2 bad usage or profile · 3 target unreachable`;

export type Options = Record<string, string | boolean | string[] | undefined>;

const COMMANDS: Record<string, { options: NonNullable<ParseArgsConfig['options']>; positionals?: boolean; handler: (o: Options, pos: string[]) => Promise<number> }> = {
  run: {
    options: {
      profile: { type: 'string' }, area: { type: 'string', multiple: true }, rule: { type: 'string', multiple: true },
      seed: { type: 'string' }, runs: { type: 'string' }, report: { type: 'string' }, 'dry-run': { type: 'boolean' },
      'time-scale': { type: 'string' }, fault: { type: 'string', multiple: true },
    },
    handler: async (o) => (o['dry-run'] ? (await import('./dry-run.ts')).dryRun(o) : (await import('./run-command.ts')).runCommand(o)),
  },
  serve: {
    options: { port: { type: 'string' }, host: { type: 'string' }, fault: { type: 'string', multiple: true }, 'time-scale': { type: 'string' }, 'webhook-url': { type: 'string' }, 'profile-out': { type: 'string' } },
    handler: async (o) => (await import('./serve-command.ts')).serveCommand(o),
  },
  sink: { options: { profile: { type: 'string' }, log: { type: 'string' } }, handler: async (o) => (await import('./sink-command.ts')).sinkCommand(o) },
  mutation: {
    options: { fault: { type: 'string', multiple: true }, seed: { type: 'string' }, runs: { type: 'string' }, jobs: { type: 'string' }, report: { type: 'string' }, 'clean-seeds': { type: 'string' } },
    handler: async (o) => (await import('./mutation-command.ts')).mutationCommand(o),
  },
  report: { options: {}, positionals: true, handler: async (o, p) => (await import('./report-command.ts')).reportCommand(o, p) },
  load: {
    options: {
      profile: { type: 'string' }, scenario: { type: 'string' }, duration: { type: 'string' }, connections: { type: 'string' }, rate: { type: 'string' }, report: { type: 'string' },
      'max-requests': { type: 'string' }, 'max-p99-ms': { type: 'string' }, 'min-rps': { type: 'string' }, 'max-error-rate': { type: 'string' },
      arrivals: { type: 'string' }, 'allow-short': { type: 'boolean' }, warmup: { type: 'string' }, workers: { type: 'string' }, shard: { type: 'string' },
      'run-id': { type: 'string' }, mix: { type: 'string' },
    },
    positionals: true,
    handler: async (o, p) => (await import('./load-command.ts')).loadCommand(o, p),
  },
};

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(USAGE);
    return name ? EXIT.conformant : EXIT.usage;
  }
  const cmd = COMMANDS[name];
  if (!cmd) {
    console.error(`hps-conformance: unknown command ${JSON.stringify(name)}\n${USAGE}`);
    return EXIT.usage;
  }
  try {
    const parsed = parseArgs({ args: rest, options: cmd.options, allowPositionals: cmd.positionals ?? false, strict: true });
    return await cmd.handler(parsed.values as Options, parsed.positionals);
  } catch (e) {
    return reportError(e);
  }
}

export function reportError(e: unknown): number {
  if (e instanceof HarnessError) {
    console.error(`hps-conformance: ${redactText(e.message)}`);
    return e.exitCode;
  }
  const err = e as { code?: string; message?: string };
  if (typeof err?.code === 'string' && err.code.startsWith('ERR_PARSE_ARGS')) {
    console.error(`hps-conformance: ${(err.message ?? '').split('\n').map((l) => l.trim()).filter(Boolean).join(' ')}`);
    return EXIT.usage;
  }
  console.error(`hps-conformance: internal error: ${redactText(err?.message ?? String(e))}`);
  if (process.env.HPS_DEBUG) console.error(e);
  return EXIT.usage;
}

/** Parses an integer option, or throws a usage error naming it. */
export function intOption(o: Options, name: string, min: number, max: number): number | undefined {
  const v = o[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^-?\d+$/.test(v) || Number(v) < min || Number(v) > max) {
    throw new HarnessError('HPS_ERR_USAGE', `--${name} ${String(v)}: must be an integer from ${min} to ${max}`);
  }
  return Number(v);
}

export function listOption(o: Options, name: string): string[] {
  const v = o[name];
  return Array.isArray(v) ? v.flatMap((x) => x.split(',')).map((x) => x.trim()).filter(Boolean) : [];
}

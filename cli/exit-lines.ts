/**
 * Each command's exit statuses, as its --help ends (`exit status: 0 … · 2 …`): a command lists the
 * statuses it can end with, never another command's (cli/main.ts, `CommandDef.exits`). The
 * meanings of the statuses are one table (core/error-codes.ts `EXIT_MEANING`, docs/errors.md).
 */
const USAGE = '2 bad usage or profile';
const INCOMPLETE = '6 incomplete (nothing failed, but a MUST rule testable with this profile or program was not proven)';
const INTERRUPTED = '130/143 interrupted (results so far, partial)';
const STOPPED = '0 stopped by SIGINT / SIGTERM';

export const EXITS = {
  run: [
    '0 conformant',
    '1 not conformant (a MUST rule failed, or --strict / --min-must-coverage failed the verdict)',
    USAGE,
    '3 target unreachable',
    '4 a class --require names is not conformant or not tested',
    '5 the report directory failed (results in a fallback directory)',
    INCOMPLETE,
    INTERRUPTED,
  ],
  serve: [`${STOPPED} (or --list-faults printed)`, '2 bad usage (an option, a fault name, the port or --profile-out)'],
  sink: [STOPPED, '2 bad usage, profile or sink (the listen address, the log)'],
  webhooksJudge: ['0 conformant', '1 not conformant (a MUST rule failed)', '2 bad usage, profile or log', INCOMPLETE],
  load: [
    '0 every threshold and check met', '1 a threshold missed or a check failed', USAGE, '3 target unreachable', INTERRUPTED,
  ],
  loadMerge: ['0 every threshold and check met', '1 a threshold missed or a check failed', '2 bad usage or shards',
    '6 incomplete (a shard missing, with --allow-missing)'],
  loadCompare: ['0 the page written', '2 bad usage, or a DIR without a load.json this tool can read'],
  report: [
    '0 conformant (--compare: the page written)', '1 not conformant, or rendered partial from results.ndjson (the run was killed)',
    '2 bad usage or an ' +
      'unreadable report', INCOMPLETE, '130/143 the run was interrupted (its own status kept)',
  ],
  verifyCertificate: ['0 every claim derived again', '1 a mismatch', '2 bad usage or unreadable files'],
  side: [
    '0 conformant (the program certified)', '1 not conformant (a MUST rule failed, or the policy failed the verdict)', USAGE,
    '3 a MUST rule could not be checked (ERROR: the program or endpoint unreachable)', INCOMPLETE,
  ],
  serveReceiver: [STOPPED, '2 bad usage'],
  proxy: [
    '0 conformant (the application certified)',
    '1 not conformant (a client MUST rule failed, or --strict / --min-must-coverage failed the verdict)',
    '2 bad usage, or HPS_API_KEY refused by the upstream',
    '3 the upstream unreachable or not the API at the start, or it answered none of the application\'s requests',
    INCOMPLETE,
  ],
  mutation: ['0 every fault caught (with --clean-seeds: no false alarm)', '1 a fault missed (or a false alarm)', '2 bad usage'],
} as const satisfies Record<string, readonly string[]>;

/** The line a command's --help ends with. */
export function exitLine(exits: readonly string[]): string {
  return `exit status: ${exits.join(' · ')}`;
}

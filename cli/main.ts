/**
 * hps-conformance — the command line, on commander. Each command is a row of
 * COMMANDS: its options as data (so helpers' additions merge as table rows),
 * its handler in cli/<name>-command.ts. Every problem is one line on stderr and
 * a distinct exit status, never a stack trace; `--help` and `--version` exit 0.
 */
import { Command, CommanderError, Option } from 'commander';
import { AREAS, SIDE_COMMAND } from '../catalogue/index.ts';
import { EXIT, HarnessError } from '../core/errors.ts';
import { ERROR_CODES } from '../core/error-codes.ts';
import { redactText } from '../core/redact.ts';
import { TOOL } from '../core/version.ts';
import { EXITS, exitLine } from './exit-lines.ts';
import type { Options } from './options.ts';

export interface OptionDef {
  type: 'string' | 'boolean';
  /** Repeatable: the values are collected into an array (commas split later by listOption). */
  multiple?: boolean;
  /** The value's name in --help (`--seed N`). */
  arg?: string;
  help: string;
}

export interface CommandDef {
  summary: string;
  options: Record<string, OptionDef>;
  /** Takes positional arguments, named so in --help (`DIR...`); `true` (the parseArgs-era rows) names them ARGS. */
  positionals?: string | boolean;
  /** Extra --help text after the options. */
  helpAfter?: () => string;
  /** The exit statuses this command ends with, listed last in its --help (cli/exit-lines.ts); without it, the general table. */
  exits?: readonly string[];
  /** Subcommands (`load merge`), each with its own help and options; an unknown option is refused. */
  subcommands?: Record<string, SubcommandDef>;
  handler: (o: Options, pos: string[]) => Promise<number>;
}

/** The areas `run --area` takes: the service side (the merchant side has commands of its own). */
const RUN_AREAS = AREAS.filter((a) => !(a in SIDE_COMMAND));
/** A subcommand: its own options, or options of its parent's row by name (the same flag, the same help). */
export type SubcommandDef = Omit<CommandDef, 'subcommands'> & { inherits?: readonly string[] };

/** The top-level --help's, and a command's without its own `exits`: each command's --help lists its own (cli/exit-lines.ts). */
const EXIT_TEXT = [
  'exit status: 0 conformant',
  '1 not conformant (a MUST rule failed, or --strict / --min-must-coverage failed the verdict) / threshold missed',
  '2 bad usage or profile',
  '3 target unreachable',
  '4 a class --require names is not conformant or not tested',
  '5 the report directory failed (results in a fallback directory)',
  '6 incomplete (nothing failed, but a MUST rule testable with this profile or program was not proven)',
  '130/143 interrupted (results so far, partial)',
].join(' · ');
const str = (arg: string, help: string): OptionDef => ({ type: 'string', arg, help });
const many = (arg: string, help: string): OptionDef => ({ type: 'string', arg, help, multiple: true });
const flag = (help: string): OptionDef => ({ type: 'boolean', help });

/**
 * `receiver` and `client`: the verdict policy of `run` (results/verdict/policy.ts), over the evidence
 * gate of results/verdict/side-policy.ts.
 */
const SIDE_POLICY_OPTIONS = {
  strict: flag('a SHOULD violation (WARN) or a skipped testable MUST rule also fails the verdict'),
  'min-must-coverage': str(
    'PCT',
    'the share of testable MUST rules that must have run (below it: not conformant); without it a skipped testable MUST rule makes the ' +
      'verdict incomplete (exit 6)',
  ),
  'sign-key': str(
    'FILE',
    'sign certificate.json with this Ed25519 private key (PEM, PKCS#8); also HPS_SIGN_KEY (the PEM) or HPS_SIGN_KEY_FILE',
  ),
};

/** How a target is reached (cli/network-flags.ts, core/network.ts): `run` and `load`. The proxy comes from HTTPS_PROXY / HTTP_PROXY / NO_PROXY. */
const NETWORK_OPTIONS = {
  header: many(
    '\'NAME: VALUE\'',
    'a header sent on every request to the target, never elsewhere (repeatable); ${VAR} in the value is read from the environment and ' +
      'redacted like a key; also the profile\'s network.headers',
  ),
  'client-cert': str('FILE', 'mutual TLS: the client certificate (PEM), with --client-key; also network.client_cert'),
  'client-key': str('FILE', 'mutual TLS: the certificate\'s private key (PEM); also network.client_key'),
  ca: str('FILE', 'the CA bundle (PEM) the target\'s certificate is checked against; also network.ca'),
};
const PROXY_TEXT = 'proxy: HTTPS_PROXY / HTTP_PROXY / NO_PROXY (either case) are honoured as curl does';

export const COMMANDS: Record<string, CommandDef> = {
  run: {
    summary: 'run the conformance suites against a target (default: the embedded reference server)',
    options: {
      profile: str(
        'FILE',
        'the target profile (docs/profile.md); without it and without --base-url the embedded reference server is started',
      ),
      'base-url': str('URL', 'the target\'s base URL: a profile built from flags and the environment (needs --key-env)'),
      'key-env': str('VAR', 'with --base-url: the environment variable holding the Test secret key (keys.test)'),
      'live-key-env': str('VAR', 'with --base-url: the environment variable holding the Live secret key (keys.live)'),
      'other-key-env': str('VAR', 'with --base-url: the environment variable holding another business\'s Test key (keys.other_test)'),
      area: many('NAME', 'run only this area (repeatable, or comma-separated); see the list below'),
      rule: many('ID', 'run only this catalogued rule (repeatable, or comma-separated), e.g. AUTH-MISSING-KEY'),
      level: str('LEVEL', 'must: MUST rules only · should: MUST and SHOULD · observe: every rule (default)'),
      seed: str('N', 'the run\'s seed; every property\'s seed derives from it and the rule id (default: random)'),
      runs: str('N', 'fast-check runs per property (default 100; fewer is not a certification)'),
      report: str('DIR', 'where to write report.json, report.html, junit.xml, summary.md (default reports/runs/<run id>/)'),
      strict: flag('a SHOULD violation (WARN), a FLAKY rule or a skipped testable MUST rule also fails the verdict'),
      'min-must-coverage': str('PCT', 'fail the verdict when fewer than PCT % of the testable MUST rules ran (0-100)'),
      require: many(
        'CLASS',
        'the CI gate: exit 4 unless this conformance class is conformant (repeatable, or comma-separated; docs/classes.md); also the ' +
          'profile\'s require',
      ),
      'sign-key': str(
        'FILE',
        'sign certificate.json with this Ed25519 private key (PEM, PKCS#8); also HPS_SIGN_KEY (the PEM) or HPS_SIGN_KEY_FILE',
      ),
      'max-failures': str('N', 'fail fast: stop the run after N FAILs (the rules not reached are reported SKIP)'),
      'request-timeout': str(
        'MS',
        'per-request time-out of the suite\'s client in ms (default 10000 or the profile\'s probes.request_timeout_ms)',
      ),
      'max-rps': str('N', 'cap the suite\'s requests per second on each API key (default: none; 429s pace it down, probes.max_rps)'),
      concurrency: str(
        'N',
        'rule tests in flight at once per suite worker, 1-64 (default 8, probes.concurrency); order- and timing-bound rules keep their ' +
          'order',
      ),
      'no-progress': flag('print no progress lines while the run is in progress'),
      'dry-run': flag(
        'list the selected rules after checking every input as run does (profile, keys, TLS files, signing key, report directory: the ' +
          'same errors, exit 2); contacts no target and leaves nothing',
      ),
      clauses: flag('with --dry-run: print the spec\'s clauses, the rules checking each and the planted faults those rules catch'),
      case: str(
        'N|TITLE',
        'with one --rule: run only this fixed case of the rule (its number or title; --dry-run --cases lists them); its properties do ' +
          'not run',
      ),
      cases: flag('with --dry-run: list each rule\'s fixed cases, numbered and titled'),
      json: flag('with --dry-run --clauses: print the obligation matrix as one JSON document'),
      'time-scale': str('N', 'embedded reference only: its webhook retry clock runs N times faster (default 4000)'),
      fault: many('NAME', 'embedded reference only: switch on a planted fault (repeatable; `serve --list-faults` lists them)'),
      variant: str(
        'NAME',
        'embedded reference only: reference (default) or alt, which decides every point the spec leaves open the other way',
      ),
      ...NETWORK_OPTIONS,
    },
    positionals: 'URL',
    helpAfter: () => `\nURL: the target's base URL, short for --base-url URL (the Test key from --key-env VAR or ` +
      `HPS_KEY)\nareas: ${RUN_AREAS.join(' ')} (the merchant side: hps-conformance receiver, client)\n${PROXY_TEXT}\n`,
    exits: EXITS.run,
    handler: async (o, p) => {
      const opts = (await import('./target-flags.ts')).withPositionalUrl(o, p);
      if (opts.clauses && !opts['dry-run']) throw new HarnessError(
        'HPS_ERR_USAGE',
        '--clauses goes with --dry-run (it lists, it runs nothing)',
      );
      if (opts.json && !opts.clauses) throw new HarnessError(
        'HPS_ERR_USAGE',
        '--json goes with --dry-run --clauses (it prints the obligation matrix as JSON)',
      );
      if (opts.cases && !opts['dry-run']) throw new HarnessError(
        'HPS_ERR_USAGE',
        '--cases goes with --dry-run (it lists, it runs nothing)',
      );
      return opts['dry-run'] ? (await import('./dry-run.ts')).dryRun(opts) : (await import('./run-command.ts')).runCommand(opts);
    },
  },
  serve: {
    summary: 'run the reference server alone, writing its profile',
    options: {
      port: str('N', 'port to listen on (default 4010; 0 picks a free one)'),
      host: str('H', 'address to listen on (default 127.0.0.1)'),
      fault: many('NAME', 'switch on a planted fault (repeatable; --list-faults lists them)'),
      'list-faults': flag('print every planted fault (name, area, what is wrong, the rules that catch it) and exit; also docs/faults.md'),
      'time-scale': str(
        'N',
        'the webhook retry clock runs N times faster (default 4000, as run\'s embedded reference; 1 for the real schedule)',
      ),
      variant: str('NAME', 'reference (default) or alt: every point the spec leaves open decided the other way'),
      'webhook-url': str('URL', 'where webhooks are delivered (the sink; default http://127.0.0.1:4020)'),
      'profile-out': str('FILE', 'where to write the server\'s profile (default .hps/reference-profile.json)'),
    },
    handler: async (o) => (await import('./serve-command.ts')).serveCommand(o),
    exits: EXITS.serve,
  },
  sink: {
    summary: 'run the webhook sink alone (for the full retry schedule)',
    options: {
      profile: str('FILE', 'the profile whose webhooks section names the endpoints, secrets and listen address (required)'),
      log: str('FILE', 'the delivery log, kept across restarts (default .hps/sink-log.jsonl)'),
      'query-token': str(
        'T',
        'the bearer token the query API requires (default: the profile\'s webhooks.query_token, else generated into <log>.query-token); ' +
          'required off loopback',
      ),
    },
    handler: async (o) => (await import('./sink-command.ts')).sinkCommand(o),
    exits: EXITS.sink,
  },
  webhooks: {
    summary: 'the long webhook schedule: `webhooks judge --log FILE` turns a `hps-conformance sink` run\'s log into a verdict and the ' +
      'usual reports',
    options: {},
    subcommands: {
      judge: {
        summary: 'judge the log of a long sink run: the whole retry schedule, punctuality, max attempts, same id and bytes, signatures',
        options: {
          log: str('FILE', 'the sink\'s log (`hps-conformance sink --log FILE`; default there .hps/sink-log.jsonl) (required)'),
          report: str('DIR', 'where to write report.json, report.html, junit.xml, summary.md (default reports/runs/judge-<id>/)'),
          profile: str(
            'FILE',
            'the profile the sink ran with: its endpoints\' secrets (every signature checked again), webhooks.time_scale, ' +
              'late_tolerance_ms; and certificate.json',
          ),
          'time-scale': str('N', 'the target\'s retry clock ran N times faster (default: the profile\'s webhooks.time_scale, else 1)'),
        },
        handler: async (o) => (await import('./webhooks-judge-command.ts')).webhooksJudgeCommand(o),
        exits: EXITS.webhooksJudge,
      },
    },
    handler: async () => {
      throw new HarnessError('HPS_ERR_USAGE', 'webhooks: give a subcommand: judge (hps-conformance webhooks judge --help)');
    },
    exits: EXITS.webhooksJudge,
  },
  load: {
    summary: 'load the create/read hot path and check what comes back; `load merge DIR...` merges shards and judges the whole; ' +
      '`load compare DIR...` overlays runs\' latency distributions',
    options: {
      profile: str('FILE', 'the target profile (its keys.test); without it and without --base-url the embedded reference server is used'),
      'base-url': str('URL', 'the target\'s base URL, as for run (needs --key-env)'),
      'key-env': str('VAR', 'with --base-url: the environment variable holding the Test secret key'),
      scenario: str('NAME', 'create, read, list, mixed or idempotency-storm (default mixed)'),
      mix: str('SPEC', 'mixed scenario ratio, e.g. create=1,read=8,list=1'),
      duration: str('DUR', 'the measured window: 30s, 5m, 1500ms or seconds, 1 s to 5 m (default 10s)'),
      warmup: str('DUR', 'warm-up excluded from the figures, 0 to 60 s (default 1s)'),
      connections: str('N', 'concurrent connections, 1-256 (default 10)'),
      rate: str(
        'R',
        'open model: R requests/s due over all connections, latency timed from each due time (default: closed model, as fast as answers ' +
          'come)',
      ),
      arrivals: str('KIND', 'open model arrivals: constant (default) or poisson'),
      'allow-short': flag('do not fail when the achieved rate falls more than 1% short of --rate'),
      workers: str('N', 'generator worker threads, each with its share of rate and connections (default: cores - 1, at least 1)'),
      shard: str('i/N', 'this run is shard i of N: 1/N of the rate, a disjoint key space; merge with `load merge DIR...`'),
      'run-id': str('ID', 'the run id shared by the shards of one run'),
      report: str('DIR', 'where load.json and load.md go (default reports/load/<timestamp>/)'),
      out: many(
        'KIND=WHERE',
        'ndjson=FILE: one JSON line per interval to FILE while the run goes; prometheus-rw=URL: the metrics pushed to a Prometheus ' +
          'remote-write receiver every 5 s and at the end (docs/load.md); repeatable, each kind once',
      ),
      'metrics-port': str(
        'N',
        'serve the metrics as Prometheus text on http://127.0.0.1:N/metrics while the run goes (0: a free port, printed)',
      ),
      'metrics-hold': str(
        'DUR',
        'with --metrics-port: keep the endpoint up this long after the run, for a last scrape, 0 to 5m (default 0)',
      ),
      interval: str(
        'DUR',
        'the interval of --out and of the progress line (a live line on a terminal, one line per interval otherwise), 100ms to 60s ' +
          '(default 1s)',
      ),
      'max-requests': str(
        'N',
        'stop after N requests, the warm-up taking at most a tenth (default and hard cap 1000000); rates are over the time measured',
      ),
      'honour-retry-after': flag('closed model: after a 429, the connection waits its Retry-After (at most 60 s) before the next request'),
      threshold: many(
        'EXPR',
        'a threshold as k6 writes it, judged on the merged histogram (repeatable): [create:|read:|list:]METRIC<VALUE, e.g. ' +
          'create:p95<250, read:p99.9<800ms, errors<0.1%, rps>=500',
      ),
      'max-p99-ms': str('MS', 'fail when the overall p99 latency exceeds MS (default 250; the same as --threshold p99<=MS)'),
      'min-rps': str('R', 'fail when the mean throughput is below R requests/s (default 0: off; the same as --threshold rps>=R)'),
      'max-error-rate': str('F', 'fail when errors / attempts exceeds F (default 0.01; the same as --threshold errors<=F)'),
      yes: flag('load a target that is not loopback or a reserved test address without --rate'),
      ...NETWORK_OPTIONS,
    },
    subcommands: {
      merge: {
        summary: 'merge the load.json of the shards of one run and judge the whole: `load merge DIR...`',
        options: {
          'allow-missing': flag('merge even with a shard of the run missing: the verdict is then incomplete (exit 6), never pass'),
        },
        inherits: ['report', 'threshold', 'max-p99-ms', 'min-rps', 'max-error-rate', 'allow-short'],
        positionals: 'DIR',
        handler: async (o, p) => (await import('./load-command.ts')).loadCommand(o, ['merge', ...p]),
        exits: EXITS.loadMerge,
      },
      compare: {
        summary: 'overlay the latency distributions (latency by percentile) of two or more load runs in one HTML page: ' +
          '`load compare DIR[=LABEL]...`',
        options: {
          out: str('FILE', 'where the page goes (default reports/load/compare.html; the absolute path is printed)'),
        },
        positionals: 'DIR[=LABEL]',
        helpAfter: () => '\nDIR[=LABEL]: a directory holding a load.json (load --report DIR, load merge --report DIR); LABEL names ' +
          'its line (default: the directory\'s name); 2 to 24 of them\n',
        handler: async (o, p) => (await import('./load-command.ts')).loadCommand(o, ['compare', ...p]),
        exits: EXITS.loadCompare,
      },
    },
    helpAfter: () => `\n${PROXY_TEXT} (the generator's requests to an http: target go to HTTP_PROXY in absolute form)\n`,
    exits: EXITS.load,
    handler: async (o, p) => (await import('./load-command.ts')).loadCommand(o, p),
  },
  report: {
    summary: 're-render HTML, JUnit and Markdown from DIR/report.json (with the load section when DIR/load.json is there); or --compare ' +
      'several report dirs side by side',
    options: {
      strict: flag('JUnit: WARN, FLAKY and skipped testable MUST rules become failures'),
      compare: flag('render the report dirs given side by side in one HTML page (an implementation per column): DIR[=LABEL]..., LABEL ' +
        'heading the column (default: the dir\'s name)'),
      out: str('FILE', 'with --compare: where the page goes (default reports/compare.html; the absolute path is printed)'),
    },
    positionals: 'DIR',
    handler: async (o, p) => (await import('./report-command.ts')).reportCommand(o, p),
    exits: EXITS.report,
  },
  'verify-certificate': {
    summary: 'derive every claim of DIR/certificate.json again from DIR/report.json; verified only when signed by a signer you name: ' +
      'exit 0 ok, 1 mismatch, 2 usage',
    options: {
      profile: str('FILE', 'also check the certificate\'s profile hash against this profile'),
      'public-key': many(
        'FILE',
        'a signer you trust: the certifier\'s Ed25519 public key (PEM); the certificate must be signed by a signer named (repeatable)',
      ),
      fingerprint: many('SHA256:HEX', 'a signer you trust by its key fingerprint, as `run` prints it after signing (repeatable)'),
      trust: str('FILE', 'a file naming the signers you trust: one SHA256:HEX fingerprint per line, # comments'),
      'require-signature': flag('fail when the certificate is not signed by a signer named (needs --public-key, --fingerprint or --trust)'),
    },
    positionals: 'DIR',
    handler: async (o, p) => (await import('./verify-certificate-command.ts')).verifyCertificateCommand(o, p),
    exits: EXITS.verifyCertificate,
  },
  receiver: {
    summary: 'certify a merchant\'s webhook receiver: the tool plays the service and judges the answers',
    options: {
      url: str('URL', 'the receiver endpoint to POST events to (without it: the embedded reference receiver)'),
      'secret-env': str('VAR', 'the environment variable holding the endpoint\'s signing secret (whsec_…)'),
      'inspect-url': str(
        'URL',
        'the receiver\'s test-mode inspection URL (docs/merchant-side.md); without it the processing rules are SKIP',
      ),
      profile: str('FILE', 'a profile with a receiver section instead of --url/--secret-env'),
      report: str('DIR', 'where the reports go (default reports/runs/<run id>/)'),
      seed: str('N', 'the run\'s seed'),
      fault: many('NAME', 'embedded reference receiver only: switch on a planted receiver fault (repeatable)'),
      mutation: flag('run every planted receiver fault against the embedded reference receiver: each must be caught'),
      'payments-api-port': str('N', 'serve a stand-in getPayment on this port for receivers that fetch the Payment'),
      'dedup-attempts': str(
        'N',
        'RECV-DEDUPLICATE: redeliver the event N times along the retry schedule (immediately, 30 s, 2 min, 10 min, 30 min, 2 h, 6 h ' +
          'after the previous attempt), 1 to 7 (default 3: 2 min 30 s of the schedule\'s 8 h 42 min 30 s)',
      ),
      'dedup-time-scale': str(
        'F',
        'rehearsals only: the redelivery gaps divided by F, 1 to 3600 (default 1); the evidence states the shorter window proven',
      ),
      'settle-timeout': str(
        'S',
        'wait at most S seconds for the inspection to settle (list the events delivered, unchanged for 2 s), 1 to 3600 (default 60); ' +
          'rules still waiting are SKIP "not settled yet"',
      ),
      ...SIDE_POLICY_OPTIONS,
      ...NETWORK_OPTIONS,
    },
    helpAfter: () => `\nthe target of --header, --client-cert, --client-key and --ca is the receiver's origin (deliveries and its ` +
      `inspection URL there)\n${PROXY_TEXT}\n`,
    exits: EXITS.side,
    handler: async (o) => (await import('./receiver-command.ts')).receiverCommand(o),
  },
  'serve-receiver': {
    summary: 'run the reference webhook receiver alone (with its inspection contract)',
    options: {
      port: str('N', 'port to listen on (default 4030; 0 picks a free one)'),
      'secret-env': str('VAR', 'the environment variable holding the signing secret'),
      fault: many('NAME', 'switch on a planted receiver fault (repeatable)'),
      'payments-api': str('URL', 'where the receiver reads Payments (getPayment), key from HPS_API_KEY'),
    },
    handler: async (o) => (await import('./serve-receiver-command.ts')).serveReceiverCommand(o),
    exits: EXITS.serveReceiver,
  },
  client: {
    summary: 'certify a merchant\'s API client: runs COMMAND against a chaos server and judges its retries',
    options: {
      run: str('COMMAND', 'the merchant\'s own command; it gets HPS_BASE_URL and HPS_API_KEY'),
      seed: str('N', 'the seed of the injected-failure schedule'),
      report: str('DIR', 'where the reports go (default reports/runs/<run id>/)'),
      timeout: str('S', 'how long COMMAND may run, in seconds'),
      mutation: flag('run every planted client fault with the example client: each must be caught'),
      ...SIDE_POLICY_OPTIONS,
    },
    handler: async (o) => (await import('./client-command.ts')).clientCommand(o),
    exits: EXITS.side,
  },
  proxy: {
    summary: 'a validating proxy: relays a merchant application\'s traffic to the service and judges both',
    options: {
      upstream: str('URL', 'the service\'s base URL requests are relayed to (default: the embedded reference server)'),
      port: str('N', 'port to listen on, on 127.0.0.1 (default 0: a free one, printed)'),
      duration: str('DUR', 'stop after this long: 30s, 5m, 8h or seconds (default: at SIGINT/SIGTERM or when --run ends)'),
      run: str(
        'COMMAND',
        'run the application with HPS_BASE_URL (the proxy; HPS_API_KEY too on the embedded reference) and stop when it ends',
      ),
      report: str('DIR', 'where report.json (the application), service/report.json (the service\'s answers) and traffic.har go'),
      'har-max-mb': str('MB', 'bound traffic.har to this many MiB, the oldest entries dropped and counted in the file ' +
        '(default 64; 0: no bound)'),
      'metrics-port': str(
        'N',
        'serve the proxy\'s metrics as Prometheus text on http://127.0.0.1:N/metrics (0: a free port, printed)',
      ),
      out: str('prometheus-rw=URL', 'push the proxy\'s metrics to a Prometheus remote-write receiver every 5 s and at the end'),
      ...SIDE_POLICY_OPTIONS,
    },
    handler: async (o) => (await import('./proxy-command.ts')).proxyCommand(o),
    exits: EXITS.proxy,
  },
  mutation: {
    summary: 'the suite against planted faults (mutation score), or the clean server over many seeds',
    options: {
      fault: many('NAME', 'only this planted fault (repeatable; default every fault; `serve --list-faults` lists them)'),
      seed: str('N', 'the seed (default 1; with --clean-seeds the first seed); a negative one as --seed=-N'),
      seeds: str(
        'COUNT',
        'run every fault with COUNT seeds (seed, seed+1, …); a fault caught on some only is "caught by chance" and counts as missed ' +
          '(default 1; npm run mutation: 5)',
      ),
      variant: many('NAME', 'with --clean-seeds: the reference variants to run (reference, alt; default both)'),
      runs: str('N', 'fast-check runs per property (default 25)'),
      jobs: str('N', 'runs side by side, 1-16 (default 4 with session isolation, 2 with process)'),
      isolation: str(
        'MODE',
        'session (default): every run in this process through one vitest session per job; process: a child process per run (slower, the ' +
          'same verdicts)',
      ),
      report: str('DIR', 'where mutation.json and the clean server\'s report go (default reports/mutation)'),
      'clean-seeds': str('N', 'instead: the whole suite against the clean server with N seeds; any alarm is a false alarm'),
    },
    handler: async (o) => (await import('./mutation-command.ts')).mutationCommand(o),
    exits: EXITS.mutation,
  },
};

function buildProgram(onResult: (code: number) => void): Command {
  const program = new Command('hps-conformance')
    .description('Conformance and load-test suite for the Hosted Payment Service API v1')
    .version(TOOL.version, '-V, --version', 'print the version and exit')
    .helpOption('-h, --help', 'print this help and exit')
    .addHelpText('after', `\n${EXIT_TEXT}`)
    .exitOverride()
    .configureOutput({ outputError: () => {} })
    .showSuggestionAfterError(true)
    // options belong to the command they follow: `load merge --profile x` is merge's (unknown), not load's
    .enablePositionalOptions();
  for (const [name, def] of Object.entries(COMMANDS)) {
    const cmd = addCommand(program, name, def, onResult);
    if (def.subcommands) cmd.enablePositionalOptions();
    for (const [sub, subDef] of Object.entries(def.subcommands ?? {})) {
      const inherited = Object.fromEntries((subDef.inherits ?? []).map((k) => [k, def.options[k]!]));
      addCommand(cmd, sub, { ...subDef, options: { ...inherited, ...subDef.options } }, onResult);
    }
  }
  return program;
}

function addCommand(parent: Command, name: string, def: CommandDef, onResult: (code: number) => void): Command {
  const cmd = parent.command(name).description(def.summary).helpOption('-h, --help', 'print this help and exit');
  if (def.positionals) cmd.argument(`[${def.positionals === true ? 'ARGS' : def.positionals}...]`);
  const attrs: Array<[string, string]> = [];
  for (const [long, o] of Object.entries(def.options)) {
    // "no-progress" must stay a plain flag, not commander's negation of "progress".
    const opt = new Option(o.type === 'boolean' ? `--${long}` : `--${long} <${o.arg ?? 'VALUE'}>`, o.help);
    if (o.multiple) opt.argParser((v: string, prev: string[] | undefined) => [...(prev ?? []), v]);
    if (long.startsWith('no-')) opt.negate = false;
    cmd.addOption(opt);
    attrs.push([long, opt.attributeName()]);
  }
  // Every command's --help ends with its own exit statuses.
  cmd.addHelpText('after', `${def.helpAfter?.() ?? ''}\n${def.exits ? exitLine(def.exits) : EXIT_TEXT}`);
  cmd.action(async (...args: unknown[]) => {
    const c = args.at(-1) as Command;
    const values = c.opts();
    const o: Options = {};
    for (const [long, attr] of attrs) o[long] = nonEmpty(long, values[attr] as Options[string]);
    onResult(await def.handler(o, def.positionals ? c.args : []));
  });
  return cmd;
}

/** An option given an empty value (`--report ''`) is refused, never taken as absent (the default). */
function nonEmpty(long: string, v: Options[string]): Options[string] {
  if (v === '' || (Array.isArray(v) && v.some((x) => x.trim() === ''))) throw new HarnessError(
    'HPS_ERR_USAGE',
    `--${long}: needs a value (got an empty one)`,
  );
  return v;
}

export async function main(argv: string[]): Promise<number> {
  let code: number = EXIT.conformant;
  const program = buildProgram((c) => (code = c));
  if (argv.length === 0) {
    process.stdout.write(program.helpInformation());
    return EXIT.usage;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (e) {
    return reportError(e);
  }
}

export function reportError(e: unknown): number {
  if (e instanceof CommanderError) {
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return EXIT.conformant;
    console.error(`hps-conformance: ${oneLine(e.message.replace(/^error: /, ''))}`);
    return EXIT.usage;
  }
  if (e instanceof HarnessError) {
    console.error(`hps-conformance: ${redactText(e.message)}`);
    return e.exitCode;
  }
  const err = e as { message?: string };
  console.error(`hps-conformance: internal error: ${redactText(oneLine(err?.message ?? String(e)))}`);
  if (process.env.HPS_DEBUG) console.error(e);
  return ERROR_CODES['HPS_ERR_INTERNAL'].exit;
}

function oneLine(s: string): string {
  return s.split('\n').map((l) => l.trim()).filter(Boolean).join(' ');
}

/**
 * `load`: the load scripts against the create/read hot path (load/run-load.ts), and
 * `load merge DIR...`: shards' results merged and judged as one (load/merge.ts), and `load compare
 * DIR[=LABEL]...`: runs' latency distributions overlaid in one page (cli/load-compare-command.ts).
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HarnessError } from '../core/errors.ts';
import { mergeCommand } from '../load/merge.ts';
import { checkOutputDir, checkOutputFile } from '../core/output-path.ts';
import { loadProfile } from '../core/profile.ts';
import { guardLoadTarget } from '../core/target-guard.ts';
import { parseLoadOptions } from '../load/options.ts';
import type { LoadReport } from '../load/report.ts';
import { runLoad, type LoadRunResult } from '../load/run-load.ts';
import { armInterrupts } from '../core/interrupt.ts';
import { loadAnnotations } from './github.ts';
import type { Options } from './options.ts';
import { profileFromFlags } from './target-flags.ts';
import { networkFromFlags } from './network-flags.ts';
import { checkNetwork, mergeNetwork } from '../core/network.ts';
import type { Profile } from '../core/profile.ts';

export async function loadCommand(o: Options, positionals: string[] = []): Promise<number> {
  if (positionals[0] === 'merge') {
    checkOutputDir(typeof o.report === 'string' ? o.report : join('reports', 'load'));
    return ciHooks(await mergeCommand(o, positionals.slice(1)));
  }
  if (positionals[0] === 'compare') return (await import('./load-compare-command.ts')).loadCompareCommand(o, positionals.slice(1));
  if (positionals.length) throw new HarnessError(
    'HPS_ERR_USAGE',
    `load: unexpected argument ${JSON.stringify(positionals[0])} (only \`load merge DIR...\` and \`load compare DIR...\` take arguments)`,
  );
  const flagTarget = profileFromFlags(o);
  const options = { ...parseLoadOptions(o), ...(flagTarget ? { profile: flagTarget.profile } : {}) };
  checkOutputDir(options.reportDir ?? join('reports', 'load'));
  if (options.ndjsonFile !== undefined) options.ndjsonFile = checkOutputFile(options.ndjsonFile, '--out ndjson=');
  const profile = withFlagNetwork(options.profile ?? (options.profilePath ? loadProfile(options.profilePath) : undefined), o);
  if (profile) options.profile = profile;
  if (profile) guardLoadTarget(
    { baseUrl: profile.base_url, rate: options.rate, durationS: options.durationS, connections: options.connections, yes: o.yes === true },
    (l) => console.log(l),
  );
  // Interrupted is not lost: the first SIGINT/SIGTERM stops sending and writes the figures so far (partial), exit 130/143.
  const guard = armInterrupts();
  try {
    return ciHooks(await runLoad(options, { interrupts: guard }));
  } finally {
    guard.cleanup();
    guard.disarm();
  }
}

/** The profile with `--header`, `--client-cert`, `--client-key`, `--ca` added (core/network.ts); they need a target. */
function withFlagNetwork(profile: Profile | undefined, o: Options): Profile | undefined {
  const { network } = networkFromFlags(o);
  if (!network) return profile;
  if (!profile) throw new HarnessError(
    'HPS_ERR_USAGE',
    'load: --header, --client-cert, --client-key and --ca need a target (--profile or --base-url)',
  );
  const merged = { ...profile, network: mergeNetwork(profile.network, network) };
  checkNetwork(merged.network, '--header/--client-cert/--client-key/--ca');
  return merged;
}

/**
 * As `run` does: load.md appended to $GITHUB_STEP_SUMMARY; under GitHub Actions, one annotation
 * per failed threshold or check (not for a shard). Both from the files written (redacted), never
 * the run's memory.
 */
function ciHooks(result: LoadRunResult): number {
  const summaryFile = process.env.GITHUB_STEP_SUMMARY;
  const md = join(result.reportDir, 'load.md');
  if (summaryFile && existsSync(md)) appendFileSync(summaryFile, readFileSync(md, 'utf8') + '\n');
  // A shard's thresholds are not the verdict (`load merge` judges the whole): no annotations for it.
  if (process.env.GITHUB_ACTIONS === 'true' && !result.report.options.shard) {
    const written = JSON.parse(readFileSync(join(result.reportDir, 'load.json'), 'utf8')) as LoadReport;
    for (const line of loadAnnotations(written)) console.log(line);
  }
  return result.exitCode;
}

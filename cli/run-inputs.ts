/**
 * What `run` reads and checks before it starts anything, and `run --dry-run` too (issue "Honest at
 * every edge a user meets", item 2): the report directory (made and written to, or for a dry run
 * proved so and left as it was), the target given by flags (`--base-url`, the keys named by
 * `--*-key-env`), the network flags (headers, TLS files), the signing key, the profile (read,
 * `${ENV}` filled in, validated). The same errors and exit statuses either way; no request is sent.
 */
import { join } from 'node:path';
import type { KeyObject } from 'node:crypto';
import { HarnessError } from '../core/errors.ts';
import { checkNetwork, mergeNetwork } from '../core/network.ts';
import { checkOutputDir } from '../core/output-path.ts';
import { loadProfile, type Profile } from '../core/profile.ts';
import { loadSigningKey } from '../results/verdict/signing.ts';
import { networkFromFlags, type FlagNetwork } from './network-flags.ts';
import type { Options } from './options.ts';
import { profileFromFlags, type FlagTarget } from './target-flags.ts';

export interface RunInputs {
  flagTarget: FlagTarget | undefined;
  flagNetwork: FlagNetwork;
  signKey: KeyObject | undefined;
}

/** The checks `run` makes before the runner (which then loads the profile itself). */
export function checkRunInputs(o: Options, o2: { dryRun?: boolean } = {}): RunInputs {
  if ((o.profile !== undefined || o['base-url'] !== undefined) && o.variant !== undefined) {
    throw new HarnessError('HPS_ERR_USAGE', '--variant applies to the embedded reference server only (drop --profile / --base-url)');
  }
  // Before anything runs: a report directory that cannot be written would lose the results.
  checkOutputDir((o.report as string | undefined) ?? join('reports', 'runs'), '--report', { keep: !o2.dryRun });
  const flagTarget = profileFromFlags(o);
  const flagNetwork = networkFromFlags(o);
  // Before anything runs: a key that cannot sign would leave an unsigned certificate after the whole run.
  const signKey = loadSigningKey(o['sign-key'] as string | undefined);
  return { flagTarget, flagNetwork, signKey };
}

/**
 * `run --dry-run`: every check `run` makes before it contacts the target, the runner's own included
 * (--fault with a profile, the profile file, the network flags over the profile's network section).
 * Returns what was read, for the closing line.
 */
export function checkDryRunInputs(o: Options): string[] {
  const { flagTarget, flagNetwork, signKey } = checkRunInputs(o, { dryRun: true });
  if ((o.profile !== undefined || flagTarget) && (o.fault !== undefined || o['time-scale'] !== undefined)) {
    throw new HarnessError('HPS_ERR_USAGE', '--fault and --time-scale apply to the embedded reference server only (drop --profile)');
  }
  const profile: Profile | undefined = flagTarget?.profile ?? (typeof o.profile === 'string' ? loadProfile(o.profile) : undefined);
  if (flagNetwork.network) checkNetwork(mergeNetwork(profile?.network, flagNetwork.network), '--header/--client-cert/--client-key/--ca');
  return [
    typeof o.profile === 'string' ? `the profile ${o.profile}` : flagTarget ? 'the target and keys of --base-url/--*-key-env' :
      'no profile (the embedded reference)',
    ...(flagNetwork.network ? ['the network flags'] : []),
    ...(signKey ? ['the signing key'] : []),
    'the report directory (writable)',
  ];
}

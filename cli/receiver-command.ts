/**
 * `receiver`: certifies a merchant's webhook endpoint (merchant/receiver/). The target is --url with the
 * signing secret read from the variable --secret-env names, or a profile's `receiver` section, or
 * (neither) the embedded reference receiver, with --fault NAME planted. --mutation runs every
 * planted receiver fault and the clean reference receiver.
 */
import { loadSigningKey } from '../results/verdict/signing.ts';
import { HarnessError } from '../core/errors.ts';
import { loadProfile } from '../core/profile.ts';
import { toReceiverFaultSet } from '../references/receiver/faults.ts';
import { receiverMutation, runAgainstReference } from '../merchant/receiver/mutation.ts';
import { runReceiver } from '../merchant/receiver/run.ts';
import { exitCodeOf } from '../results/verdict/exit-code.ts';
import type { SidePolicy } from '../results/verdict/side-policy.ts';
import { DEFAULT_DEDUP, SCHEDULE_GAPS_MS, type DedupPlan } from '../merchant/receiver/redelivery.ts';
import { SETTLE_DEFAULT_MS } from '../merchant/receiver/inspect.ts';
import { checkNetwork } from '../core/network.ts';
import { networkFromFlags } from './network-flags.ts';
import { intOption, listOption, type Options } from './options.ts';
import { invokedAs } from '../core/invocation.ts';
import { checkOutputDir } from '../core/output-path.ts';
import { join } from 'node:path';

/** `--strict` / `--min-must-coverage` of `receiver` and `client`. */
export function sidePolicyOf(o: Options): SidePolicy {
  return {
    strict: o.strict === true,
    minMustCoverage: intOption(o, 'min-must-coverage', 0, 100),
    signKey: loadSigningKey(o['sign-key'] as string | undefined),
  };
}

/** `--dedup-attempts`, `--dedup-time-scale`, `--settle-timeout`, and their part of the replay line. */
function processingOptionsOf(o: Options): { dedup: DedupPlan; settleTimeoutMs: number; replay: string } {
  const attempts = intOption(o, 'dedup-attempts', 1, SCHEDULE_GAPS_MS.length);
  const timeScale = intOption(o, 'dedup-time-scale', 1, 3600);
  const settle = intOption(o, 'settle-timeout', 1, 3600);
  const replay = `${attempts !== undefined ? ` --dedup-attempts ${attempts}` : ''}${timeScale !== undefined ? ` ` +
    `--dedup-time-scale ${timeScale}` : ''}${settle !== undefined ? ` --settle-timeout ${settle}` : ''}`;
  return {
    dedup: { attempts: attempts ?? DEFAULT_DEDUP.attempts, timeScale: timeScale ?? DEFAULT_DEDUP.timeScale },
    settleTimeoutMs: (settle ?? SETTLE_DEFAULT_MS / 1000) * 1000,
    replay,
  };
}

export async function receiverCommand(o: Options): Promise<number> {
  // Before anything is sent: a report directory that cannot be written would lose the verdict (as run).
  checkOutputDir((o.report as string | undefined) ?? join('reports', 'runs'));
  const seed = intOption(o, 'seed', 0, 2147483647);
  const reportDir = o.report as string | undefined;
  if (o.mutation) return mutation(seed ?? 1);
  const processing = processingOptionsOf(o);
  const faults = listOption(o, 'fault');
  try {
    toReceiverFaultSet(faults);
  } catch (e) {
    throw new HarnessError('HPS_ERR_USAGE', `--fault: ${(e as Error).message}`);
  }
  const url = o.url as string | undefined;
  const profilePath = o.profile as string | undefined;
  if (!url && !profilePath) {
    if (networkFromFlags(o).network) throw new HarnessError(
      'HPS_ERR_USAGE',
      '--header, --client-cert, --client-key and --ca reach a merchant\'s receiver (--url or --profile), not the embedded one',
    );
    const report = await runAgainstReference(faults, seed ?? 1, reportDir, (l) => console.log(l), sidePolicyOf(o), processing);
    return exitCodeOf(report);
  }
  if (faults.length) throw new HarnessError(
    'HPS_ERR_USAGE',
    '--fault applies to the embedded reference receiver only (drop --url/--profile)',
  );
  const target = url ? fromOptions(o, url) : fromProfile(profilePath!);
  const paymentsApiPort = intOption(o, 'payments-api-port', 1, 65535);
  // The replay line re-runs the same way: the stand-in's port and the policy are part of it.
  const policy = sidePolicyOf(o);
  const replayBase = `${target.replayBase}${processing.replay}${paymentsApiPort !== undefined ? ` ` +
    `--payments-api-port ${paymentsApiPort}` : ''}${policy.strict ? ' --strict' : ''}${policy.minMustCoverage !== undefined ? ` ` +
      `--min-must-coverage ${policy.minMustCoverage}` : ''}`;
  const { network, replayArgs } = networkFromFlags(o);
  checkNetwork(network, '--header/--client-cert/--client-key/--ca');
  const withNetwork = replayArgs.length ? `${replayBase} ${replayArgs.join(' ')}` : replayBase;
  const { exitCode } = await runReceiver({
    ...target,
    replayBase: withNetwork,
    seed,
    reportDir,
    paymentsApiPort,
    policy,
    dedup: processing.dedup,
    settleTimeoutMs: processing.settleTimeoutMs,
    ...(network ? { network } : {}),
  });
  return exitCode;
}

function fromOptions(o: Options, url: string) {
  if (!/^https?:\/\/\S+$/.test(url)) throw new HarnessError('HPS_ERR_USAGE', `--url ${url}: must be an http(s) URL`);
  const variable = o['secret-env'] as string | undefined;
  if (!variable) throw new HarnessError(
    'HPS_ERR_USAGE',
    '--url needs --secret-env VAR (the variable holding the endpoint\'s signing secret)',
  );
  const secret = process.env[variable];
  if (!secret) throw new HarnessError('HPS_ERR_PROFILE_ENV', `--secret-env ${variable}: environment variable ${variable} is not set`);
  const inspectUrl = o['inspect-url'] as string | undefined;
  if (inspectUrl !== undefined && !/^https?:\/\/\S+$/.test(inspectUrl)) throw new HarnessError(
    'HPS_ERR_USAGE',
    `--inspect-url ${inspectUrl}: must be an http(s) URL`,
  );
  return {
    url,
    secret,
    inspectUrl,
    replayBase: `${invokedAs()} receiver --url ${url} --secret-env ${variable}${inspectUrl ? ` --inspect-url ${inspectUrl}` : ''}`,
  };
}

function fromProfile(path: string) {
  const p = loadProfile(path);
  if (!p.receiver) throw new HarnessError(
    'HPS_ERR_PROFILE',
    `${path}: receiver: is required for the receiver command (url, secret, optional inspect_url)`,
  );
  return {
    url: p.receiver.url,
    secret: p.receiver.secret,
    inspectUrl: p.receiver.inspect_url,
    replayBase: `${invokedAs()} receiver --profile ${path}`,
  };
}

async function mutation(seed: number): Promise<number> {
  const m = await receiverMutation(
    seed,
    (r) => console.error(`${r.caught ? 'caught' : 'MISSED'} ${r.fault}${r.caught ? ` by ${r.caughtBy.join(', ')}` : ` ` +
      `(broke: ${r.broke.join(', ') || 'nothing'})`}`),
  );
  console.log(`receiver faults caught: ${m.caught} of ${m.results.length} · clean reference receiver: ${m.cleanFindings.length ? `FALSE ` +
    `ALARMS ${m.cleanFindings.join(', ')}` : '0 findings'}`);
  return m.caught === m.results.length && m.cleanFindings.length === 0 ? 0 : 1;
}

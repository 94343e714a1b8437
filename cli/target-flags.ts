/**
 * `run --base-url URL --key-env VAR [--live-key-env VAR] [--other-key-env VAR]`:
 * a profile built from flags and the environment. Keys come only from
 * environment variables (a flag value would land in shell history and process
 * lists); the profile is validated exactly as a profile file is.
 */
import { HarnessError } from '../core/errors.ts';
import { parseProfile, type Profile } from '../core/profile.ts';
import type { Options } from './options.ts';

const KEY_FLAGS = { 'key-env': 'test', 'live-key-env': 'live', 'other-key-env': 'other_test' } as const;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface FlagTarget {
  profile: Profile;
  /** The same target in a replay line: flags and variable names, never values. */
  replayArgs: string[];
}

/**
 * CI systems set an undefined secret to the empty string (issue 31): an empty variable named by a
 * `--*-env` option is absent, said once on stderr. Without the Live key the documented workflow
 * then runs with the Test key alone; an empty Test key is reported as unset, naming the variable.
 */
export function profileFromFlags(
  o: Options,
  env: NodeJS.ProcessEnv = process.env,
  note: (line: string) => void = (l) => void process.stderr.write(`${l}\n`),
): FlagTarget | undefined {
  const baseUrl = o['base-url'];
  const used = Object.keys(KEY_FLAGS).filter((f) => o[f] !== undefined);
  if (baseUrl === undefined) {
    if (used.length) throw new HarnessError('HPS_ERR_USAGE', `--${used[0]} needs --base-url`);
    return undefined;
  }
  if (o.profile !== undefined) throw new HarnessError('HPS_ERR_USAGE', '--base-url and --profile are exclusive: give one target');
  if (o['key-env'] === undefined) throw new HarnessError(
    'HPS_ERR_USAGE',
    '--base-url needs --key-env VAR (the environment variable holding the Test secret key)',
  );
  const keys: Record<string, string> = {};
  const replayArgs = ['--base-url', String(baseUrl)];
  for (const [f, field] of Object.entries(KEY_FLAGS)) {
    const name = o[f];
    if (typeof name !== 'string') continue;
    // A key pasted here instead of a variable name must not be echoed back.
    if (/^p[tk]_(test|live)_/.test(name) || !ENV_NAME.test(name)) throw new HarnessError(
      'HPS_ERR_USAGE',
      `--${f} takes the NAME of an environment variable holding the key, not a key`,
    );
    replayArgs.push(`--${f}`, name);
    if (env[name] === '') {
      if (field === 'test') throw new HarnessError(
        'HPS_ERR_PROFILE_ENV',
        `--${f} ${name}: the variable is empty (an unset CI secret?): the Test secret key is needed`,
      );
      note(`hps-conformance: --${f} ${name}: the variable is empty, taken as unset: keys.${field} is left out (its rules are SKIP)`);
      continue;
    }
    keys[field] = `\${${name}}`;
  }
  const profile = parseProfile(JSON.stringify({ base_url: baseUrl, keys }), '--base-url/--key-env', env);
  return { profile, replayArgs };
}

/**
 * `run URL`: a shorthand for `run --base-url URL`, the way other API testers take their target.
 * The Test key comes from --key-env VAR, else from the HPS_KEY environment variable; without
 * either it is a usage error (a run with no key would judge nothing).
 */
export function withPositionalUrl(o: Options, pos: readonly string[], env: NodeJS.ProcessEnv = process.env): Options {
  if (pos.length === 0) return o;
  if (pos.length > 1) throw new HarnessError('HPS_ERR_USAGE', `run takes one target URL, got ${pos.length} arguments`);
  const url = pos[0]!;
  if (!/^https?:\/\/[^\s]+$/i.test(url)) throw new HarnessError(
    'HPS_ERR_USAGE',
    `run ${url}: the argument is the target's base URL (http:// or https://)`,
  );
  if (o['base-url'] !== undefined || o.profile !== undefined) throw new HarnessError(
    'HPS_ERR_USAGE',
    `run ${url}: give the target once (the URL, --base-url or --profile)`,
  );
  if (o['key-env'] !== undefined) return { ...o, 'base-url': url };
  if (env.HPS_KEY !== undefined && env.HPS_KEY !== '') return { ...o, 'base-url': url, 'key-env': 'HPS_KEY' };
  throw new HarnessError('HPS_ERR_USAGE', `run ${url} needs the Test secret key: --key-env VAR, or the HPS_KEY environment variable`);
}

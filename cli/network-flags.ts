/**
 * `--header 'Name: value'` (repeatable), `--client-cert FILE`, `--client-key FILE`, `--ca FILE`:
 * the profile's `network` section from the command line (core/network.ts), added to the profile's
 * own (a flag wins). A value may take `${NAME}` from the environment, as a profile does: such a
 * value is a secret, redacted like a key (quote the argument so the shell leaves `${NAME}` alone).
 */
import { HarnessError } from '../core/errors.ts';
import { interpolateEnv } from '../core/profile.ts';
import type { ProfileNetwork } from '../core/network.ts';
import type { Options } from './options.ts';

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
const ENV_REF = /\$\{[A-Za-z_][A-Za-z0-9_]*\}/;

/** One `Name: value` argument: its name and value (interpolated), and whether the value is a secret. */
function parseHeaderArg(arg: string, env: NodeJS.ProcessEnv): { name: string; value: string; secret: boolean } {
  const colon = arg.indexOf(':');
  const name = colon > 0 ? arg.slice(0, colon).trim() : '';
  if (!TOKEN.test(name)) throw new HarnessError('HPS_ERR_USAGE', "--header: give 'Name: value' (Name an HTTP header name)");
  const raw = arg.slice(colon + 1).trim();
  if (/[\r\n\0]/.test(raw)) throw new HarnessError('HPS_ERR_USAGE', `--header ${name}: the value may not contain CR, LF or NUL`);
  const problems: string[] = [];
  const value = interpolateEnv(raw, env, problems, `--header ${name}`) as string;
  if (problems.length) throw new HarnessError('HPS_ERR_USAGE', problems.join('; '));
  if (/[\r\n\0]/.test(value)) throw new HarnessError(
    'HPS_ERR_USAGE',
    `--header ${name}: the value from the environment contains CR, LF or NUL`,
  );
  return { name, value, secret: ENV_REF.test(raw) };
}

const shellWord = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export interface FlagNetwork {
  network: ProfileNetwork | undefined;
  /** The same flags in a replay line: `${NAME}` as typed, never the value. */
  replayArgs: string[];
}

export function networkFromFlags(o: Options, env: NodeJS.ProcessEnv = process.env): FlagNetwork {
  const args = Array.isArray(o.header) ? o.header : [];
  const headers: Record<string, string> = {};
  const redacted: string[] = [];
  const replayArgs: string[] = [];
  for (const arg of args) {
    const h = parseHeaderArg(arg, env);
    headers[h.name] = h.value;
    if (h.secret) redacted.push(h.name);
    replayArgs.push(`--header=${shellWord(arg)}`);
  }
  const network: ProfileNetwork = {
    ...(args.length ? { headers } : {}),
    ...(redacted.length ? { redacted_headers: redacted } : {}),
  };
  for (const [flag, field] of [['client-cert', 'client_cert'], ['client-key', 'client_key'], ['ca', 'ca']] as const) {
    const v = o[flag];
    if (typeof v !== 'string') continue;
    network[field] = v;
    replayArgs.push(`--${flag}=${shellWord(v)}`);
  }
  return { network: Object.keys(network).length ? network : undefined, replayArgs };
}


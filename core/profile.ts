/**
 * Loads a profile exactly as docs/profile.md says: `${NAME}` interpolation from the
 * environment, ajv validation, one clear line per problem naming the field.
 */
import { INPUT_CAPS, readCappedText } from './read-capped.ts';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { ajv } from '../catalogue/schemas/ajv.ts';
import { PROFILE_PATTERN_MESSAGES, profileSchema, type Profile } from '../catalogue/schemas/profile.ts';
import { HarnessError } from './errors.ts';
import { locateJsonError } from './json-locate.ts';
import { registerSecrets, stripUserInfo, userInfoSecrets } from './redact.ts';
import { checkNetwork, envHeaderNames, mergeNetwork, networkSecrets } from './network.ts';

export type { Profile, WebhookEndpoint } from '../catalogue/schemas/profile.ts';

/**
 * Compiled on first use, not at import: the suite workers import this module for its types and
 * helpers and never validate a profile (a compile there costs each worker ~0.1-0.3 s of CPU).
 */
let compiled: ValidateFunction<Profile> | undefined;
function validateProfile(data: unknown): data is Profile {
  compiled ??= ajv.compile<Profile>(profileSchema);
  return compiled(data);
}
/** The errors of the last failed validation. */
const profileErrors = (): ErrorObject[] => compiled?.errors ?? [];

/** Replaces every `${NAME}` in string values; unset variables are problems naming NAME and the field. */
export function interpolateEnv(value: unknown, env: NodeJS.ProcessEnv, problems: string[], at = ''): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, name: string) => {
      const v = env[name];
      if (v === undefined) {
        problems.push(`${at || '(root)'}: environment variable ${name} is not set`);
        return '';
      }
      return v;
    });
  }
  if (Array.isArray(value)) return value.map((v, i) => interpolateEnv(v, env, problems, `${at}[${i}]`));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, interpolateEnv(v, env, problems, at ? `${at}.${k}` : k)]),
    );
  }
  return value;
}

function fieldOf(instancePath: string): string {
  if (!instancePath) return '(root)';
  return instancePath
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '');
}

/** One line per ajv error, naming the field (`keys.test: must start with pt_test_sk_`). */
export function describeProfileErrors(errors: readonly ErrorObject[]): string[] {
  const lines = new Set<string>();
  for (const e of errors) {
    const field = fieldOf(e.instancePath);
    switch (e.keyword) {
      case 'required':
        lines.add(`${field === '(root)' ? '' : field + '.'}${(e.params as { missingProperty: string }).missingProperty}: is required`);
        break;
      case 'additionalProperties':
        lines.add(`${field === '(root)' ? '' : field + '.'}${(e.params as { additionalProperty: string }).additionalProperty}: is not a ` +
          `profile field`);
        break;
      case 'pattern': {
        const p = (e.params as { pattern: string }).pattern;
        lines.add(`${field}: ${PROFILE_PATTERN_MESSAGES[p] ?? e.message}`);
        break;
      }
      case 'anyOf':
        break; // the branch errors say more
      default:
        lines.add(`${field}: ${e.message}`);
    }
  }
  return [...lines];
}

/** A profile is a few levels deep; far deeper is not a profile (and would exhaust the stack of a recursive walk). */
export const MAX_PROFILE_DEPTH = 64;

/** Whether a parsed JSON value nests arrays/objects deeper than `max` (walked without recursion). */
function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/** JSON text to a value, or one line saying where it is broken (never quoting it: it may hold a key). */
function parseJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text around the error (maybe a key): locate it ourselves.
    let at: ReturnType<typeof locateJsonError> = null;
    try {
      at = locateJsonError(text);
    } catch {
      throw new HarnessError('HPS_ERR_PROFILE', `${source}: not valid JSON (nested deeper than ${MAX_PROFILE_DEPTH} levels)`);
    }
    const where = at ? `line ${at.line}, column ${at.column} (in ${at.field}): expected ${at.expected}` : 'cannot be parsed';
    throw new HarnessError('HPS_ERR_PROFILE', `${source}: not valid JSON at ${where}`);
  }
}

/** The base URL a client can use (port in range, a host); the pattern alone lets e.g. port 99999 through. */
function checkBaseUrl(baseUrl: string, source: string): void {
  const port = /^https?:\/\/(?:[^@/]*@)?(?:\[[^\]]*\]|[^:/?#]*):(\d+)/.exec(baseUrl)?.[1];
  if (port !== undefined && Number(port) > 65_535) throw new HarnessError(
    'HPS_ERR_PROFILE',
    `${source}: base_url: port ${port} is over 65535`,
  );
  if (!URL.canParse(baseUrl)) throw new HarnessError('HPS_ERR_PROFILE', `${source}: base_url: not a valid URL`);
}

/** Parses and validates profile JSON text. Throws HarnessError (exit 2) listing every problem. */
export function parseProfile(text: string, source: string, env: NodeJS.ProcessEnv = process.env): Profile {
  // A UTF-8 byte-order mark (some Windows editors write one) is not part of the JSON.
  const raw = parseJson(text.replace(/^\uFEFF/, ''), source);
  if (nestedDeeperThan(raw, MAX_PROFILE_DEPTH)) {
    throw new HarnessError('HPS_ERR_PROFILE', `${source}: nested deeper than ${MAX_PROFILE_DEPTH} levels (not a profile)`);
  }
  const problems: string[] = [];
  const data = interpolateEnv(raw, env, problems);
  if (problems.length) {
    throw new HarnessError('HPS_ERR_PROFILE_ENV', `${source}: ${problems.join('; ')}`, problems);
  }
  if (!validateProfile(data)) {
    const lines = describeProfileErrors(profileErrors());
    throw new HarnessError('HPS_ERR_PROFILE', `${source}: ${lines.join('; ')}`, lines);
  }
  const profile = data as Profile;
  checkBaseUrl(profile.base_url, source);
  // A header value taken from the environment is a secret, redacted like a key.
  const fromEnv = envHeaderNames(raw);
  if (fromEnv.length) profile.network = mergeNetwork(profile.network, { redacted_headers: fromEnv });
  checkNetwork(profile.network, source);
  // User-info in base_url is never sent (the client talks to the origin) nor printed: drop it here.
  registerSecrets(userInfoSecrets(profile.base_url));
  profile.base_url = stripUserInfo(profile.base_url).replace(/\/+$/, '');
  registerSecrets(profileSecrets(profile));
  return profile;
}

export function loadProfile(path: string, env: NodeJS.ProcessEnv = process.env): Profile {
  const text = readCappedText(path, INPUT_CAPS.profile, 'profile', 'HPS_ERR_PROFILE');
  return parseProfile(text, path, env);
}

/** Every secret of a profile, for redaction of free text. */
export function profileSecrets(p: Profile): string[] {
  const out: string[] = Object.values(p.keys).filter((v): v is string => typeof v === 'string');
  for (const e of p.webhooks?.endpoints ?? []) out.push(e.secret);
  if (p.control) out.push(p.control.token);
  if (p.webhooks?.query_token) out.push(p.webhooks.query_token);
  if (p.receiver) out.push(p.receiver.secret);
  out.push(...networkSecrets(p.network));
  return out;
}

/** Reads a dotted profile path (`keys.live`, `fixtures.order`, `probes.live_writes`). */
export function profileHas(p: Profile, dotted: string): boolean {
  let cur: unknown = p;
  for (const part of dotted.split('.')) {
    if (!cur || typeof cur !== 'object') return false;
    cur = (cur as Record<string, unknown>)[part];
  }
  if (dotted === 'probes.live_writes') return cur === true;
  return cur !== undefined && cur !== null;
}

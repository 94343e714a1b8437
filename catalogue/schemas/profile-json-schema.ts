/**
 * The profile's JSON Schema as shipped for editors and other tools (catalogue/schemas/profile.schema.json),
 * generated from the schema the tool validates with (./profile.ts), never written by hand.
 *
 * One difference, and why: the tool validates a profile after `${NAME}` interpolation, so a file
 * on disk holds references such as `"test": "${HPS_KEY_TEST}"` where the schema wants
 * `pt_test_sk_…`. In the shipped schema every place that takes a string also accepts a string
 * holding a `${NAME}` reference (checked for real once interpolated, by the tool). Everything else
 * (required members, unknown members refused, numbers, booleans) is the tool's schema unchanged.
 *
 *   npx tsx catalogue/schemas/profile-json-schema.ts           # (re)write catalogue/schemas/profile.schema.json
 *   npx tsx catalogue/schemas/profile-json-schema.ts --check   # exit 1 when the file differs
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { JSON_SCHEMA_DIALECT } from './enums.ts';
import { profileSchema } from './profile.ts';

export const PROFILE_SCHEMA_PATH = fileURLToPath(new URL('./profile.schema.json', import.meta.url));

/** A string holding at least one `${NAME}` reference (core/profile.ts interpolates these). */
export const ENV_REFERENCE = { type: 'string', pattern: '\\$\\{[A-Za-z_][A-Za-z0-9_]*\\}' } as const;

const takesString = (node: Record<string, unknown>): boolean =>
  node['type'] === 'string' ||
  (Array.isArray(node['enum']) && node['enum'].every((v) => typeof v === 'string')) ||
  typeof node['const'] === 'string';

/** A subschema, each string-taking node widened to "that, or a `${NAME}` reference". */
function widen(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(widen);
  if (node === null || typeof node !== 'object') return node;
  const src = node as Record<string, unknown>;
  if (takesString(src)) return { anyOf: [structuredClone(src), ENV_REFERENCE] };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(src)) {
    if (k === 'properties' && v !== null && typeof v === 'object') {
      out[k] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, name === '$schema' ? s : widen(s)]));
    } else if (k === 'enum' || k === 'const' || k === 'required') out[k] = structuredClone(v);
    else out[k] = widen(v);
  }
  return out;
}

export function buildProfileJsonSchema(): Record<string, unknown> {
  const { $id, ...rest } = widen(profileSchema) as Record<string, unknown>;
  return {
    $schema: JSON_SCHEMA_DIALECT,
    $id,
    title: 'hps-conformance target profile',
    description:
      'The target profile of hps-conformance (docs/profile.md). Generated from catalogue/schemas/profile.ts; string values may hold ' +
        '${NAME} references to environment variables, checked once interpolated.',
    ...rest,
  };
}

export function serializeProfileJsonSchema(): string {
  return `${JSON.stringify(buildProfileJsonSchema(), null, 2)}\n`;
}

function main(argv: readonly string[]): number {
  const text = serializeProfileJsonSchema();
  if (argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(PROFILE_SCHEMA_PATH, 'utf8');
    } catch {
      current = '';
    }
    if (current === text) return 0;
    console.error(`${PROFILE_SCHEMA_PATH} is out of date: run npm run schemas:profile`);
    return 1;
  }
  writeFileSync(PROFILE_SCHEMA_PATH, text);
  console.log(`wrote ${PROFILE_SCHEMA_PATH}`);
  return 0;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = main(process.argv.slice(2));
}

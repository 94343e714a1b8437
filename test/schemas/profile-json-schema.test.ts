/**
 * catalogue/schemas/profile.schema.json, the profile's JSON Schema for editors, is the one the tool
 * validates with (catalogue/schemas/profile.ts), generated (npm run schemas:profile) and equal to the file;
 * it accepts what the tool accepts, `${NAME}` references included, and refuses what it refuses.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../core/profile.ts';
import { buildProfileJsonSchema, serializeProfileJsonSchema } from '../../catalogue/schemas/profile-json-schema.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const shippedText = readFileSync(join(ROOT, 'catalogue', 'schemas', 'profile.schema.json'), 'utf8');
const exampleText = readFileSync(join(ROOT, 'docs', 'examples', 'profile.json'), 'utf8');
const example = JSON.parse(exampleText) as Record<string, any>;
const shipped = new Ajv2020({ strict: true, allErrors: true }).compile(JSON.parse(shippedText));

/** Every ${NAME} of the example set to a value of the right shape. */
function envFor(text: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [, name] of text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
    env[name!] = name!.startsWith('HPS_WHSEC') ? 'whsec_example' : /LIVE/.test(name!) ? 'pt_live_sk_example1234' : name!.startsWith('HPS_KEY') ? 'pt_test_sk_example1234' : /URL/.test(name!) ? 'https://sink.example.test' : 'a-token-of-16-chars-or-more';
  }
  return env;
}

const toolAccepts = (p: unknown, env: NodeJS.ProcessEnv = {}) => {
  try {
    parseProfile(JSON.stringify(p), 'p.json', env);
    return true;
  } catch {
    return false;
  }
};

describe('catalogue/schemas/profile.schema.json', () => {
  it('equals the schema generated from catalogue/schemas/profile.ts (regenerate: npm run schemas:profile)', () => {
    expect(shippedText).toBe(serializeProfileJsonSchema());
    expect(JSON.parse(shippedText)).toEqual(buildProfileJsonSchema());
  });

  it('docs/examples/profile.json names it in $schema, and both the schema and the tool accept the example', () => {
    expect(example['$schema']).toBe('../../catalogue/schemas/profile.schema.json');
    expect(shipped(example), JSON.stringify(shipped.errors)).toBe(true);
    expect(toolAccepts(example, envFor(exampleText))).toBe(true);
  });

  it.each([
    ['an unknown member', (p: any) => ({ ...p, bogus: 1 })],
    ['a base_url that is not http(s)', (p: any) => ({ ...p, base_url: 'ftp://x' })],
    ['a literal Test key of the wrong shape', (p: any) => ({ ...p, keys: { ...p.keys, test: 'sk_test_1' } })],
    ['no keys.test', (p: any) => ({ ...p, keys: { live: p.keys.live } })],
    ['a time_scale of 0', (p: any) => ({ ...p, webhooks: { ...p.webhooks, time_scale: 0 } })],
    [
      'a non-boolean livemode',
      (p: any) => ({ ...p, webhooks: { ...p.webhooks, endpoints: [{ ...p.webhooks.endpoints[0], livemode: 'yes' }] } }),
    ],
    [
      'an unknown event type',
      (p: any) => ({ ...p, webhooks: { ...p.webhooks, endpoints: [{ ...p.webhooks.endpoints[0], events: ['payment.refunded'] }] } }),
    ],
  ])('refuses %s, as the tool does', (_what, change) => {
    const bad = change(structuredClone(example));
    expect(shipped(bad)).toBe(false);
    expect(toolAccepts(bad, envFor(exampleText))).toBe(false);
  });

  it('accepts ${NAME} anywhere a string goes, which the tool checks once interpolated', () => {
    const p = { ...structuredClone(example), base_url: '${HPS_BASE_URL}' };
    expect(shipped(p)).toBe(true);
    expect(toolAccepts(p, { ...envFor(exampleText), HPS_BASE_URL: 'https://api.example.test' })).toBe(true);
    expect(toolAccepts(p, { ...envFor(exampleText), HPS_BASE_URL: 'not a url' })).toBe(false);
  });
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HarnessError } from '../core/errors.ts';
import { loadProfile, parseProfile, profileHas } from '../core/profile.ts';

const good = {
  base_url: 'http://127.0.0.1:4010/',
  keys: { test: 'pt_test_sk_abcdef123456', live: '${HPS_LIVE_KEY}' },
  webhooks: { listen: '127.0.0.1:4020', endpoints: [{ path: '/hooks/a', livemode: false, events: '*', secret: 'whsec_abc' }] },
  probes: { live_writes: false },
};

function problems(p: unknown, env: NodeJS.ProcessEnv = {}): string[] {
  try {
    parseProfile(JSON.stringify(p), 'p.json', env);
  } catch (e) {
    expect(e).toBeInstanceOf(HarnessError);
    expect((e as HarnessError).exitCode).toBe(2);
    return (e as HarnessError).problems.length ? (e as HarnessError).problems : [(e as Error).message];
  }
  return [];
}

describe('profile loading (docs/profile.md)', () => {
  it('accepts a valid profile, interpolates ${ENV} and trims base_url', () => {
    const p = parseProfile(JSON.stringify(good), 'p.json', { HPS_LIVE_KEY: 'pt_live_sk_zzzz9999' });
    expect(p.keys.live).toBe('pt_live_sk_zzzz9999');
    expect(p.base_url).toBe('http://127.0.0.1:4010');
    expect(profileHas(p, 'keys.live')).toBe(true);
    expect(profileHas(p, 'keys.other_test')).toBe(false);
    expect(profileHas(p, 'probes.live_writes')).toBe(false);
  });

  it('names the unset environment variable and the field', () => {
    expect(problems(good, {})).toEqual(['keys.live: environment variable HPS_LIVE_KEY is not set']);
  });

  it('gives one line per problem, naming the field', () => {
    const bad = {
      ...good,
      keys: { test: 'sk_test_x', live: 'pt_test_sk_x' },
      extra: 1,
      webhooks: { listen: 'nope', endpoints: [{ path: 'x', livemode: 'no', events: '*', secret: 's' }] },
    };
    const lines = problems(bad, { HPS_LIVE_KEY: 'x' });
    expect(lines).toEqual(expect.arrayContaining([
      'keys.test: must start with pt_test_sk_',
      'keys.live: must start with pt_live_sk_',
      'extra: is not a profile field',
      'webhooks.listen: must be host:port, such as 127.0.0.1:4020',
      'webhooks.endpoints[0].path: must be a path starting with /',
      'webhooks.endpoints[0].livemode: must be boolean',
      'webhooks.endpoints[0].secret: must start with whsec_',
    ]));
  });

  it('requires base_url and keys.test', () => {
    expect(problems({ keys: {} })).toEqual(expect.arrayContaining(['base_url: is required', 'keys.test: is required']));
  });

  it('never echoes a secret in its messages', () => {
    const lines = problems({ base_url: 'http://x:1', keys: { test: 'pt_live_sk_SECRETSECRET' } });
    expect(lines.join('\n')).not.toContain('SECRETSECRET');
  });

  it('reports an unreadable file and bad JSON as one line', () => {
    expect(() => loadProfile('/nonexistent/profile.json')).toThrow(/^profile: cannot read \/nonexistent\/profile.json \(ENOENT\)$/);
    const dir = mkdtempSync(join(tmpdir(), 'hps-'));
    writeFileSync(join(dir, 'p.json'), '{ nope');
    expect(() => loadProfile(join(dir, 'p.json'))).toThrow(/not valid JSON/);
  });
});

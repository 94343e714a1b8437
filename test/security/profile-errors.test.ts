/** A profile error names line, column and field, and never quotes the file (issue 11). */
import { describe, expect, it } from 'vitest';
import { locateJsonError } from '../../core/json-locate.ts';
import { parseProfile } from '../../core/profile.ts';

const SECRET = 'pt_test_sk_Zx9Qw8Er7Ty6Ui5Op4As3Df2';

function messageOf(text: string): string {
  try {
    parseProfile(text, 'p.json', {});
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('parsed');
}

describe('profile syntax errors', () => {
  const cases: Array<[string, string, RegExp]> = [
    [
      'unterminated key',
      `{\n  "base_url": "http://127.0.0.1:1",\n  "keys": { "test": "${SECRET}\n}`,
      /line 3, column \d+ \(in keys\.test\)/,
    ],
    ['bad literal next to a key', `{"keys": {"test": "${SECRET}", "live": tru}}`, /line 1, column \d+ \(in keys\.live\): expected a value/],
    ['missing comma', `{"keys": {"test": "${SECRET}" "x": 1}}`, /line 1, column \d+ \(in keys\): expected "," or "}"/],
    ['trailing garbage', `{"keys": {}} ${SECRET}`, /\(in \(root\)\): expected the end of the text/],
  ];
  for (const [name, text, where] of cases) {
    it(name, () => {
      const m = messageOf(text);
      expect(m).toMatch(where);
      expect(m).not.toContain(SECRET.slice(11, 19));
      expect(m).not.toMatch(/tru|Zx9Q|http/);
      expect(() => JSON.parse(text)).toThrow();
    });
  }
  it('agrees with JSON.parse on valid text', () => {
    expect(locateJsonError('{"a":[1,2.5e3,{"b":null}],"c":"\\u00e9\\n"}')).toBeNull();
  });
  it('strips base_url user-info at load', () => {
    const p = parseProfile(JSON.stringify({ base_url: 'https://u:p4ssw0rdXYZ@h.example/api/', keys: { test: SECRET } }), 'p.json', {});
    expect(p.base_url).toBe('https://h.example/api');
  });
});

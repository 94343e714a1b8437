/**
 * redactText catches every transform of a known secret (issue 11), and auth-probe evidence carries
 * a credential's family and fingerprint, never its text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fingerprint, redactDeep, redactHeaders, redactText, stripUserInfo } from '../../core/redact.ts';
import { invalidCredentials, malformedAuthorization, unknownKey } from '../../suites/auth/bad-credentials.ts';
import { moreTransformsOf, readerViews, transformsOf } from './transforms.ts';

const KEY = 'pt_test_sk_Q7vX2mK9pLw4Rt8ZaB3nC6yD';
const LIVE = 'pt_live_sk_h5J2kL8mN4pQ7rS1tU6vW9xY';
const WHSEC = 'whsec_9fG3hJ6kL2mN5pQ8rS4tV7wX1yZ0aB3c';
const TOKEN = 'ctl-4e8f1a9b7c3d2e6f5a0b';
const SECRETS = [KEY, LIVE, WHSEC, TOKEN];

/** Every transform of every secret, in every view a reader may decode the text to. */
function hitsIn(text: string): string[] {
  return readerViews(text).flatMap((view) => {
    const lower = view.toLowerCase();
    return SECRETS.flatMap((s) => [
      ...transformsOf(s),
      ...moreTransformsOf(s),
    ].filter((t) => t.test(view, lower)).map((t) => `${t.name} (${s.slice(0, 6)}…)`));
  });
}

const b64 = (s: string) => Buffer.from(s).toString('base64');
const swap = (s: string) => [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');

describe('redactText catches a secret in any form', () => {
  const part = KEY.slice(11);
  const forms: Record<string, string> = {
    exact: KEY,
    'base64(key)': `Basic ${b64(KEY)}`,
    'base64(key:)': `Basic ${b64(`${KEY}:`)}`,
    'base64(:key)': `Basic ${b64(`:${KEY}`)}`,
    'base64url(key:)': Buffer.from(`${KEY}:`).toString('base64url'),
    'base64 inside a longer string': b64(`user=${KEY}&x=1`),
    'url-encoded': encodeURIComponent(KEY).replace(/_/g, '%5F'),
    'fully percent-encoded': [...Buffer.from(KEY)].map((b) => `%${b.toString(16)}`).join(''),
    'upper-cased': KEY.toUpperCase(),
    'case swapped': swap(KEY),
    'secret part under another prefix': `pt_hunabfxl_sk_${part}`,
    'secret part alone': part,
    'one character inserted': `${KEY.slice(0, 20)}é${KEY.slice(20)}`,
    'one byte inserted early': `${KEY.slice(0, 13)}Z${KEY.slice(13)}`,
    'one character removed': KEY.slice(0, 25) + KEY.slice(26),
    'signing secret upper-cased': WHSEC.toUpperCase(),
    'control token base64': b64(`${TOKEN}:`),
    'control token with a character removed': TOKEN.slice(0, 10) + TOKEN.slice(11),
    'control token with a character inserted': `${TOKEN.slice(0, 7)}x${TOKEN.slice(7)}`,
    'hex, lower case': Buffer.from(KEY).toString('hex'),
    'hex, upper case': Buffer.from(KEY).toString('hex').toUpperCase(),
    'hex of Bearer key, mid-string': Buffer.from(`Bearer ${KEY}`).toString('hex').slice(3),
    reversed: [...KEY].reverse().join(''),
    'reversed, upper-cased': [...KEY].reverse().join('').toUpperCase(),
    'signing secret in hex': Buffer.from(WHSEC).toString('hex'),
    'control token reversed': [...TOKEN].reverse().join(''),
    'key as JSON in base64url': Buffer.from(JSON.stringify({ authorization: `Bearer ${KEY}` })).toString('base64url'),
  };
  for (const [name, leak] of Object.entries(forms)) {
    it(`${name}`, () => {
      const text = `counterexample: [{"authorization":"${leak}"}] end`;
      expect(hitsIn(text).length, 'the planted form is a hit before redaction').toBeGreaterThan(0);
      const out = redactText(text, SECRETS);
      expect(hitsIn(out)).toEqual([]);
      expect(out).toMatch(/^counterexample: /);
      expect(out).toMatch(/ end$/);
    });
  }
  it('leaves unrelated text alone, escapes, entities, percent signs and non-ASCII included', () => {
    for (const text of [
      'caf\u00e9 &amp; 50% off: “ok” ﬁne',
      'pt_test_sk_…ab12 was used',
      '{"a":"\\n\\u0041"}',
    ]) expect(redactText(text, SECRETS)).toBe(text);
    const text = 'GET /v1/payments?limit=5 answered 401 invalid_api_key (WWW-Authenticate: Bearer)';
    expect(redactText(text, SECRETS)).toBe(text);
  });
  it('redactDeep stops at 256 levels: a 20 000-deep structure is copied without a stack overflow', () => {
    let deep: unknown = KEY;
    for (let i = 0; i < 20_000; i++) deep = { a: [deep] };
    const out = JSON.stringify(redactDeep(deep, SECRETS));
    expect(out).toContain('nested deeper than 256 levels');
    expect(hitsIn(out)).toEqual([]);
  });
  it('strips user-info from URLs, and redactDeep reaches keys and nested strings', () => {
    expect(stripUserInfo('target https://user:pa55word@staging.example:8443/api ok')).toBe('target https://staging.example:8443/api ok');
    const deep = redactDeep({ [KEY]: [{ note: `Basic ${b64(`${KEY}:`)}` }], n: 3 }, SECRETS);
    expect(hitsIn(JSON.stringify(deep))).toEqual([]);
    expect(deep.n).toBe(3);
  });
  it('Authorization headers other than a plain key become scheme, length and fingerprint', () => {
    const h = redactHeaders({ authorization: `Basic ${b64(`${KEY}:`)}` }, SECRETS);
    expect(h.authorization).toBe(`Basic ‹${b64(`${KEY}:`).length} chars, ${fingerprint(b64(`${KEY}:`))}›`);
    expect(redactHeaders({ authorization: `Bearer ${KEY}` }).authorization).toBe(`Bearer pt_test_sk_…${KEY.slice(-4)}`);
  });
});

/** Forms a renderer or a reader decodes (issue 31): the whole text holding one is blanked. */
describe('redactText finds a secret after every decoding, and blanks the whole text', () => {
  const esc = (s: string) => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  const decoded: Record<string, string> = {
    'JSON \\u escapes': esc(KEY),
    'JSON escapes of the secret part': `pt_test_sk_${esc(KEY.slice(11))}`,
    'HTML hex references': [...KEY].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join(''),
    'HTML decimal references': [...KEY].map((c) => `&#${c.charCodeAt(0)};`).join(''),
    'percent-encoding of some characters': KEY.replace(/[a-f]/g, (c) => `%${c.charCodeAt(0).toString(16)}`),
    fullwidth: [...KEY].map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).join(''),
    'zero-width spaces between characters': [...KEY].join('\u200b'),
    'soft hyphens and word joiners': [...KEY].map((c, i) => c + (i % 2 ? '\u00ad' : '\u2060')).join(''),
    'base32 of the key': Buffer.from(KEY).toString('hex').length ? base32(KEY) : '',
    'base32 after two bytes': base32(`xy${KEY}`).slice(4),
    'rot13 of the secret part': KEY.slice(11).replace(
      /[a-z]/gi,
      (c) => String.fromCharCode(((c.toLowerCase().charCodeAt(0) - 97 + 13) % 26) + (c <= 'Z' ? 65 : 97)),
    ),
    'signing secret JSON-escaped': esc(WHSEC),
    'control token fullwidth': [...TOKEN].map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).join(''),
  };
  for (const [name, leak] of Object.entries(decoded)) {
    it(name, () => {
      const text = `{"error":{"message":"auth was ${leak}"}}`;
      expect(hitsIn(text).length, 'the planted form is a hit before redaction').toBeGreaterThan(0);
      const out = redactText(text, SECRETS);
      expect(hitsIn(out)).toEqual([]);
      expect(hitsIn(JSON.stringify(redactDeep(JSON.parse(text.replace(/\\u200b|\\u00ad|\\u2060/g, '')), SECRETS)))).toEqual([]);
    });
  }
});

function base32(s: string): string {
  let bits = '';
  for (const b of Buffer.from(s)) bits += b.toString(2).padStart(8, '0');
  return (bits.match(/.{1,5}/g) ?? []).map((c) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'[parseInt(c.padEnd(5, '0'), 2)]).join('');
}

describe('auth probes record the credential family and a fingerprint', () => {
  it('fast-check prints every bad credential without its text', () => {
    const arbs = [
      malformedAuthorization(KEY),
      unknownKey([KEY, LIVE], [KEY, LIVE]),
      invalidCredentials({ test: KEY, live: LIVE, test_revoked: `${KEY}R` }, [KEY, LIVE]),
    ];
    let n = 0;
    for (const arb of arbs) {
      for (const cred of fc.sample(arb, { seed: 3, numRuns: 300 })) {
        const printed = fc.stringify([{ operationId: 'createPayment' }, cred]);
        expect(printed).toContain(JSON.stringify(cred.family));
        expect(printed).toMatch(/sha256:[0-9a-f]{8}|credential:"key none"/);
        expect(hitsIn(printed), printed).toEqual([]);
        n++;
      }
    }
    console.log(`${n} bad credentials printed as family + fingerprint, 0 hits`);
  });
});

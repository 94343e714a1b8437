import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { computeSignature, parseSignatureHeader, signPayload, verifySignature } from '../../service/sink/index.ts';

// External vectors (test/sink/vectors/README.md): computed by others, checked with tolerance off.
const stripeDotnetBody = readFileSync(new URL('./vectors/stripe-dotnet-event_test_signature.json', import.meta.url));
const VECTORS = [
  {
    source: 'stripe/stripe-dotnet event_test_signature.json',
    secret: 'webhook_secret',
    t: 1533204620,
    body: stripeDotnetBody,
    v1: '2220f87ef101a04665f11cdf770523143f875572008577fa0f20882ddb9cc3c7',
  },
  {
    source: 'typeclasses/stripe stripe-signature test.hs',
    secret: 'secret',
    t: 123,
    body: Buffer.from('hello'),
    v1: 'f89c0a0e96fa6304a7ebd5ecaf13bc1beb859577cd7cafb7bdbc43c3bc2f6afa',
  },
];

describe('external signature vectors', () => {
  it('the stripe-dotnet body is the published one, byte for byte (484 bytes ending with one LF)', () => {
    expect(stripeDotnetBody.length).toBe(484);
    expect(stripeDotnetBody.at(-1)).toBe(0x0a);
    expect(stripeDotnetBody.at(-2)).not.toBe(0x0a);
  });

  for (const vector of VECTORS) {
    it(`${vector.source}: computes the published v1 and verifies it`, () => {
      expect(computeSignature(vector.secret, vector.t, vector.body)).toBe(vector.v1);
      const verdict = verifySignature({
        header: `t=${vector.t},v1=${vector.v1}`,
        rawBody: vector.body,
        secrets: [vector.secret],
        toleranceSeconds: null,
      });
      expect(verdict).toMatchObject({ valid: true, t: vector.t, matchedSecretIndex: 0, matchedV1Index: 0 });
    });

    it(`${vector.source}: one changed body byte no longer verifies`, () => {
      const body = Buffer.from(vector.body);
      body[0] = (body[0] ?? 0) ^ 1;
      const verdict = verifySignature({
        header: `t=${vector.t},v1=${vector.v1}`,
        rawBody: body,
        secrets: [vector.secret],
        toleranceSeconds: null,
      });
      expect(verdict).toMatchObject({ valid: false, problem: 'no_matching_signature' });
    });
  }

  it('re-serialised JSON (same data, other bytes) does not verify: the raw bytes are signed', () => {
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(stripeDotnetBody.toString('utf8'))));
    const verdict = verifySignature({
      header: `t=1533204620,v1=${VECTORS[0]!.v1}`,
      rawBody: reserialised,
      secrets: ['webhook_secret'],
      toleranceSeconds: Infinity,
    });
    expect(verdict.problem).toBe('no_matching_signature');
  });
});

describe('verifySignature', () => {
  const body = Buffer.from('{"id":"evt_1"}');
  const now = 1_700_000_000;
  const good = computeSignature('whsec_a', now, body);

  it('accepts a fresh signature with the default 300 s tolerance', () => {
    expect(verifySignature({
      header: signPayload('whsec_a', now, body),
      rawBody: body,
      secrets: ['whsec_a'],
      nowSeconds: now + 10,
    })).toMatchObject({
      valid: true,
      ageSeconds: 10,
    });
  });

  it('several v1 entries: any one matching passes, unknown schemes are ignored', () => {
    const header = `t=${now},v0=zzz,v1=${'0'.repeat(64)},v2=abc,v1=${good}`;
    expect(verifySignature({ header, rawBody: body, secrets: ['whsec_a'], nowSeconds: now })).toMatchObject({
      valid: true,
      matchedV1Index: 1,
      v1Count: 2,
    });
  });

  it('several candidate secrets (rotation): reports which one matched', () => {
    const verdict = verifySignature({ header: `t=${now},v1=${good}`, rawBody: body, secrets: ['whsec_old', 'whsec_a'], nowSeconds: now });
    expect(verdict).toMatchObject({ valid: true, matchedSecretIndex: 1 });
  });

  it('a wrong secret does not verify', () => {
    expect(verifySignature({ header: `t=${now},v1=${good}`, rawBody: body, secrets: ['whsec_b'], nowSeconds: now })).toMatchObject({
      valid: false,
      problem: 'no_matching_signature',
    });
  });

  it('the signature covers t: the same v1 under another t does not verify', () => {
    expect(verifySignature({ header: `t=${now + 1},v1=${good}`, rawBody: body, secrets: ['whsec_a'], nowSeconds: now }).problem).toBe(
      'no_matching_signature',
    );
  });

  it('uppercase hex is not the lowercase hex the spec asks for', () => {
    const verdict = verifySignature({ header: `t=${now},v1=${good.toUpperCase()}`, rawBody: body, secrets: ['whsec_a'], nowSeconds: now });
    expect(verdict).toMatchObject({ valid: false, problem: 'signature_not_lowercase_hex' });
  });

  it.each([
    ['a truncated v1', good.slice(0, 63)],
    ['a v1 one character too long', `${good}0`],
    ['a v1 with non-ASCII characters of the same length', `${good.slice(0, 62)}é`],
  ])('%s is compared safely and does not verify', (_title, v1) => {
    expect(verifySignature({ header: `t=${now},v1=${v1}`, rawBody: body, secrets: ['whsec_a'], nowSeconds: now }).problem).toBe(
      'no_matching_signature',
    );
  });

  it('a timestamp 301 s old is rejected as timestamp_too_old (300 s is accepted)', () => {
    const header = `t=${now},v1=${good}`;
    expect(verifySignature({ header, rawBody: body, secrets: ['whsec_a'], nowSeconds: now + 300 }).valid).toBe(true);
    expect(verifySignature({ header, rawBody: body, secrets: ['whsec_a'], nowSeconds: now + 301 })).toMatchObject({
      valid: false,
      problem: 'timestamp_too_old',
      matchedSecretIndex: 0,
    });
  });

  it('a timestamp more than the tolerance in the future is rejected as timestamp_in_future', () => {
    expect(verifySignature({ header: `t=${now},v1=${good}`, rawBody: body, secrets: ['whsec_a'], nowSeconds: now - 301 }).problem).toBe(
      'timestamp_in_future',
    );
  });

  it('toleranceSeconds null or Infinity turns the timestamp check off', () => {
    for (const toleranceSeconds of [null, Infinity]) {
      expect(verifySignature({
        header: `t=${now},v1=${good}`,
        rawBody: body,
        secrets: ['whsec_a'],
        nowSeconds: now + 1e6,
        toleranceSeconds,
      }).valid).toBe(true);
    }
  });

  it('a missing header and an empty secret list are reported, not thrown', () => {
    expect(verifySignature({ header: undefined, rawBody: body, secrets: ['whsec_a'] }).problem).toBe('missing_header');
    expect(verifySignature({ header: `t=${now},v1=${good}`, rawBody: body, secrets: [], nowSeconds: now }).problem).toBe('no_secrets');
  });

  it('a malformed header gives problem malformed with a detail', () => {
    const verdict = verifySignature({ header: 't=,v1=abc', rawBody: body, secrets: ['whsec_a'] });
    expect(verdict).toMatchObject({ valid: false, problem: 'malformed' });
    expect(verdict.detail).toMatch(/empty value/);
  });

  it('keys the HMAC with the UTF-8 bytes of the secret', () => {
    const utf8Key = Buffer.from([0x63, 0x6c, 0xc3, 0xa9]); // "clé" in UTF-8
    expect(computeSignature('clé', 1, 'x')).toBe(createHmac('sha256', utf8Key).update('1.x').digest('hex'));
  });
});

describe('parseSignatureHeader', () => {
  it('parses t and every v1, ignoring other schemes', () => {
    expect(parseSignatureHeader('t=123,v1=aa,v0=bb,v1=cc')).toEqual({ ok: true, t: 123, tText: '123', v1: ['aa', 'cc'] });
  });

  // Each row: a header that must be rejected as data (never thrown). The first five are stripe-dotnet's.
  it.each([
    ['t=,v1=abc', 'stripe-dotnet: empty t'],
    ['t,v1=,v0=', 'stripe-dotnet: t without "=" and empty values'],
    ['t,,', 'stripe-dotnet: t without "=" and empty items'],
    [',,', 'stripe-dotnet: only separators'],
    ['t', 'stripe-dotnet: a bare t'],
    ['', 'empty header'],
    ['v1=abc', 'no t'],
    ['t=123', 'no v1'],
    ['t=123,v0=abc', 'only an unknown scheme, no v1'],
    ['t=123abc,v1=abc', 't not a number'],
    ['t=-123,v1=abc', 'negative t'],
    ['t=1.5,v1=abc', 'fractional t'],
    ['t=1234567890123456,v1=abc', 't with more than 15 digits'],
    ['t=1,t=2,v1=abc', 'duplicated t'],
    ['t=1,v1=', 'empty v1'],
    ['t=1,v1=abc,', 'trailing comma'],
    [',t=1,v1=abc', 'leading comma'],
    ['t=1, v1=abc', 'space after the comma'],
    ['t=1,v1=abc ', 'trailing space'],
    ['t=1,\tv1=abc', 'tab'],
    ['t=1,=abc,v1=abc', 'empty scheme name'],
  ])('rejects %j (%s)', (header) => {
    const parsed = parseSignatureHeader(header);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problem.length).toBeGreaterThan(0);
  });

  it('never throws on a non-string', () => {
    expect(parseSignatureHeader(undefined as unknown as string)).toMatchObject({ ok: false });
  });
});

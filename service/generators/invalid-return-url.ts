/**
 * invalidReturnUrl: return_url values the spec clearly rejects with 400 `invalid_return_url`.
 *
 * Spec, CreatePaymentRequest.return_url: "absolute https URL, or a native-app deep link scheme;
 * `javascript:`, `data:`, `file:` and `intent:` are always rejected". Errors: `invalid_return_url` —
 * "return_url is not an absolute https URL or a native deep link". Two rules:
 *
 * CREATE-RETURN-URL-FORBIDDEN-SCHEME — a URL whose scheme, as a WHATWG URL parser reads it
 * (https://url.spec.whatwg.org/#concept-basic-url-parser), is one of the four:
 *
 *   forbidden = [ lead ] scheme-text ":" payload
 *   lead      = 1*3( %x00-20 )              ; the parser strips leading C0 controls and spaces
 *   scheme-text = the scheme in any letter case, with %x09 / %x0A / %x0D anywhere inside
 *                                           ; the parser removes ASCII tab and newline everywhere
 *   payload   = "alert(1)" / "//%0Aalert(1)" / "///etc/passwd" / "//scan/#Intent;...;end" / ...
 *
 * "javascript://..." is included on purpose: a deep-link check of the form `scheme "://"` accepts it.
 *
 * CREATE-RETURN-URL-NOT-HTTPS — not absolute https and not a deep link:
 *
 *   not-https = http-url / relative / ""
 *   http-url  = "http://" host [ port ] path [ query ] [ fragment ]   ; "http" in any letter case
 *   relative  = "/done" / "done" / "./done" / "../done" / "//host/x" / "?x=1" / "#x" / "example.com/done"
 *
 * A relative reference never contains ":" here (so it never reads as a scheme). Cases the spec
 * leaves open (ftp:, ws:, vbscript:, about:, "https:/x", a leading space before https) are in
 * borderlineReturnUrl.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import type { InvalidCase } from './invalid-case.ts';
import { ALNUM, show, stringOf } from './internal/charsets.ts';
import { has, reading, set, type FieldRules } from './internal/field-rule.ts';
import { FORBIDDEN_SCHEMES, hierarchicalUrl, hostName, NON_APP_SCHEMES, path, query } from './internal/url-parts.ts';

export type ReturnUrlRuleId = 'CREATE-RETURN-URL-FORBIDDEN-SCHEME' | 'CREATE-RETURN-URL-NOT-HTTPS';

export interface InvalidReturnUrlConstraints {
  /** Which of the two rules the values break. @defaultValue both */
  breaks?: readonly ReturnUrlRuleId[];
}

type Forbidden = (typeof FORBIDDEN_SCHEMES)[number];

const PAYLOADS: Record<Forbidden, readonly string[]> = {
  javascript: ['alert(1)', 'void(0)', '//%0Aalert(document.cookie)', '//example.com/%0Aalert(1)'],
  data: [
    'text/html,<script>alert(1)</script>',
    'text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'application/json,{}',
    '//text/plain,done',
  ],
  file: ['///etc/passwd', '//localhost/etc/passwd', '/C:/Windows/win.ini', '///data/data/com.example.app/done'],
  intent: [
    '//scan/#Intent;scheme=zxing;package=com.google.zxing.client.android;end',
    '#Intent;action=android.intent.action.VIEW;scheme=https;end',
    '//checkout/done#Intent;scheme=myapp;end',
  ],
};

/** Toggle the case of the letters of `s` where the bit of `mask` says so (bit i for letter i). */
function toggleCase(s: string, mask: number): string {
  let i = 0;
  return s.replace(/[a-z]/g, (ch) => ((mask >> i++ % 31) & 1 ? ch.toUpperCase() : ch));
}

/** Insert `chars[k]` after character `positions[k] % (len - 1) + 1` of `s` (strictly inside). */
function insertInside(s: string, inserts: ReadonlyArray<readonly [number, string]>): string {
  let out = s;
  for (const [at, ch] of inserts) {
    const i = 1 + (at % (out.length - 1));
    out = `${out.slice(0, i)}${ch}${out.slice(i)}`;
  }
  return out;
}

const forbiddenScheme: Arbitrary<InvalidCase<string>> = fc
  .tuple(
    fc.constantFrom(...FORBIDDEN_SCHEMES),
    fc.nat(3),
    fc.constantFrom('plain', 'case', 'inner', 'lead', 'case+inner+lead'),
    fc.nat(),
    fc.array(fc.tuple(fc.nat(), fc.constantFrom('\t', '\n', '\r')), { minLength: 1, maxLength: 3 }),
    fc.array(fc.integer({ min: 0x00, max: 0x20 }), { minLength: 1, maxLength: 3 }),
  )
  .map(([scheme, payloadIndex, how, mask, inserts, lead]) => {
    const payloads = PAYLOADS[scheme];
    const payload = payloads[payloadIndex % payloads.length]!;
    let text: string = scheme;
    const tricks: string[] = [];
    if (how.includes('case')) {
      // at least one letter upper-cased, so the mixed case is real
      text = toggleCase(text, mask | 1);
      tricks.push('letter case mixed');
    }
    if (how.includes('inner')) {
      text = insertInside(text, inserts);
      tricks.push('tab/newline inside the scheme');
    }
    let value = `${text}:${payload}`;
    if (how.includes('lead')) {
      value = `${String.fromCharCode(...lead)}${value}`;
      tricks.push('leading control/space characters');
    }
    return {
      value,
      breaks: 'CREATE-RETURN-URL-FORBIDDEN-SCHEME' as const,
      codes: ['invalid_return_url'] as const,
      why: `return_url ${show(value)} uses the always-rejected ${scheme}: scheme${tricks.length ? ` (${tricks.join(', ')})` : ''}`,
    };
  });

function notHttps(value: string, why: string): InvalidCase<string> {
  return {
    value,
    breaks: 'CREATE-RETURN-URL-NOT-HTTPS',
    codes: ['invalid_return_url'],
    why: `return_url ${show(value)} ${why}`,
  };
}

const httpScheme = fc.tuple(fc.constant('http'), fc.nat(15)).map(([s, mask]) => toggleCase(s, mask));
const segmentPath = stringOf(`${ALNUM}-_`, 1, 12);
const notHttpsCase: Arbitrary<InvalidCase<string>> = fc.oneof(
  { weight: 3, arbitrary: hierarchicalUrl(httpScheme).map((v) => notHttps(v, 'is plain http, not https')) },
  {
    weight: 3,
    arbitrary: fc.oneof(
      fc.tuple(path, fc.option(query)).map(([p, q]) => `${p || '/'}${q ?? ''}`),
      fc.tuple(fc.constantFrom('', './', '../'), segmentPath, path).map(([dot, s, p]) => `${dot}${s}${p}`),
      fc.tuple(hostName, path).map(([h, p]) => `//${h}${p || '/'}`),
      fc.tuple(hostName, path).map(([h, p]) => `${h}${p}`),
      query,
      fc.constantFrom('/done', 'done', '//host/x', '#done', 'www.example.com'),
    ).map((v) => notHttps(v, v.startsWith('//') ? 'is scheme-relative, not absolute' : 'is a relative reference, not absolute')),
  },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '   ').map((v) => notHttps(v, v === '' ? 'is empty' : 'is only spaces')) },
);

/** return_url values the spec clearly rejects; codes `[invalid_return_url]`. */
export function invalidReturnUrl(constraints: InvalidReturnUrlConstraints = {}): Arbitrary<InvalidCase<string>> {
  const breaks = constraints.breaks ?? ['CREATE-RETURN-URL-FORBIDDEN-SCHEME', 'CREATE-RETURN-URL-NOT-HTTPS'];
  const arbs: Arbitrary<InvalidCase<string>>[] = [];
  if (breaks.includes('CREATE-RETURN-URL-FORBIDDEN-SCHEME')) arbs.push(forbiddenScheme);
  if (breaks.includes('CREATE-RETURN-URL-NOT-HTTPS')) arbs.push(notHttpsCase);
  if (arbs.length === 0) throw new RangeError('invalidReturnUrl: breaks must name at least one rule');
  return fc.oneof(...arbs);
}

/** What the spec says of a return_url string: the rule it breaks, none (valid), or BORDERLINE. */
function returnUrlReading(v: string): string[] {
  let url: URL | null = null;
  try {
    url = new URL(v);
  } catch {
    return ['CREATE-RETURN-URL-NOT-HTTPS'];
  }
  const scheme = url.protocol.slice(0, -1);
  if (['javascript', 'data', 'file', 'intent'].includes(scheme)) return ['CREATE-RETURN-URL-FORBIDDEN-SCHEME'];
  if (scheme === 'http') return ['CREATE-RETURN-URL-NOT-HTTPS'];
  if (scheme === 'https' && /^https:\/\/[a-z0-9.-]+(:[0-9]+)?([/?#]|$)/.test(v)) return [];
  if (scheme.length >= 3 && /^[a-z][a-z0-9.-]*:\/\/[a-z0-9-]/.test(v) && !NON_APP_SCHEMES.includes(scheme)) return [];
  return ['BORDERLINE'];
}

const returnUrlViolation = (rule: ReturnUrlRuleId): FieldRules<ReturnUrlRuleId>['violations'][ReturnUrlRuleId] => (slots) =>
  slots.includes('return_url') ? [invalidReturnUrl({ breaks: [rule] }).map(set('return_url'))] : [];

/** The two return_url rules in a body (service/generators/internal/field-rule.ts). */
export const FIELD_RULES: FieldRules<ReturnUrlRuleId> = {
  violations: {
    'CREATE-RETURN-URL-FORBIDDEN-SCHEME': returnUrlViolation('CREATE-RETURN-URL-FORBIDDEN-SCHEME'),
    'CREATE-RETURN-URL-NOT-HTTPS': returnUrlViolation('CREATE-RETURN-URL-NOT-HTTPS'),
  },
  // "an absolute https URL or a native-app deep link; never javascript:, data:, file:, intent:" (a return_url that is no string is a wrong
  // type)
  oracle: (body) => (has(
    body,
    'return_url',
  ) && typeof body.return_url === 'string' ? reading('return_url', returnUrlReading(body.return_url)) : {}),
};

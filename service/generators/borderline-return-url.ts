/**
 * borderlineReturnUrl: return_url values the spec does not clearly rule on (DESIGN oracle
 * principle 2: "a return_url with an unusual custom scheme" is observed, not asserted).
 *
 * The spec accepts "an absolute https URL, or a native-app deep link scheme" and always rejects four
 * schemes; it does not define which schemes count as a native app's. So:
 *
 *   unusual app scheme  "a://x", "x+y://done", "myapp-://done", "MyApp://done", "myapp:done", "myapp:///done"
 *   well-known, not app "ftp://", "ws://", "wss://", "vbscript:", "blob:", "about:blank", "mailto:", "tel:"
 *   odd https           "https:/host" (one slash), "https:///host", "https://127.0.0.1/", "https://localhost/",
 *                       "https://user:pass@host/", an IDN host, leading/trailing space, 2000+ characters
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import type { BorderlineCase } from './invalid-case.ts';
import { ALNUM, show, stringOf } from './internal/charsets.ts';
import { appScheme, hierarchicalUrl, hostName, path } from './internal/url-parts.ts';

function borderline(value: string, why: string): BorderlineCase<string> {
  return { value, why: `return_url ${show(value)} ${why}` };
}

/** return_url values whose acceptance the spec leaves open. */
export function borderlineReturnUrl(): Arbitrary<BorderlineCase<string>> {
  const unusualScheme = fc.oneof(
    fc.constantFrom('a', 'x', 'z9').map((s) => borderline(`${s}://done`, 'has a one- or two-character scheme')),
    fc
      .tuple(appScheme, fc.constantFrom('app', 'x', 'v2'))
      .map(([a, b]) => borderline(`${a}+${b}://done`, 'has a scheme with "+"')),
    fc
      .tuple(appScheme, fc.constantFrom('.', '-', '..', '.-'))
      .map(([a, tail]) => borderline(`${a}${tail}://done`, `has a scheme ending in ${show(tail)}`)),
    appScheme.map((s) => borderline(`${s.toUpperCase()}://done`, 'has an upper-case scheme')),
    fc.tuple(appScheme, path).map(([s, p]) => borderline(`${s}:${p.slice(1) || 'done'}`, 'is a deep link without "//"')),
    appScheme.map((s) => borderline(`${s}:///done`, 'is a deep link with an empty host')),
  );
  const wellKnown = fc
    .constantFrom(
      'ftp://example.com/done',
      'ws://example.com/done',
      'wss://example.com/done',
      'vbscript:msgbox(1)',
      'blob:https://example.com/1f0e3dad-9990-4c2b-9c4b-6d1b1e1c0a11',
      'about:blank',
      'mailto:shop@example.com',
      'tel:+8801700000000',
      'sms:+8801700000000',
      'view-source:https://example.com/',
      'market://details?id=com.example.shop',
      'content://com.example.shop/done',
    )
    .map((v) => borderline(v, `uses the well-known ${v.split(':')[0]}: scheme, neither https nor clearly an app's own`));
  const oddHttps = fc.oneof(
    fc.tuple(hostName, path).map(([h, p]) => borderline(`https:/${h}${p}`, 'has one slash after "https:" (WHATWG repairs it)')),
    fc.tuple(hostName, path).map(([h, p]) => borderline(`https:///${h}${p}`, 'has three slashes after "https:" (WHATWG repairs it)')),
    fc
      .constantFrom('127.0.0.1', '10.0.0.1', '[::1]', 'localhost', '0x7f.1')
      .map((h) => borderline(`https://${h}/done`, 'points at a loopback/private/numeric host')),
    hostName.map((h) => borderline(`https://user:pass@${h}/done`, 'carries userinfo')),
    fc.constantFrom(
      'bücher.example',
      'বাংলা.example',
      'xn--bcher-kva.example',
    ).map((h) => borderline(`https://${h}/done`, 'has an internationalised host')),
    hierarchicalUrl(fc.constant('https')).map((u) => borderline(` ${u}`, 'has a leading space')),
    hierarchicalUrl(fc.constant('https')).map((u) => borderline(`${u} `, 'has a trailing space')),
    fc.constantFrom('HTTPS', 'Https').map((s) => borderline(`${s}://example.com/done`, 'spells https in upper case')),
    fc
      .tuple(hostName, stringOf(ALNUM, 2100, 2100))
      .map(([h, long]) => borderline(`https://${h}/${long}`, `is ${h.length + 9 + long.length} characters long`)),
  );
  return fc.oneof(unusualScheme, wellKnown, oddHttps);
}

/**
 * validReturnUrl: return_url values the spec clearly accepts.
 *
 * Spec, CreatePaymentRequest.return_url: "absolute https URL, or a native-app deep link scheme;
 * `javascript:`, `data:`, `file:` and `intent:` are always rejected". Two kinds:
 *
 *   return-url = https-url / deep-link
 *   https-url  = "https://" host [ port ] path [ query ] [ fragment ]
 *   deep-link  = app-scheme "://" app-host path [ query ] [ fragment ]
 *   app-host   = 1*20( %x61-7A / DIGIT / "-" )
 *
 * (host, port, path, query, fragment and app-scheme: internal/url-parts.ts; deep links carry no
 * port). Deep links use a
 * conventional scheme (lowercase, 3+ characters, letters and digits with "." or "-" between words,
 * never a well-known scheme such as http, ftp, ws, mailto, vbscript, blob or about). Unusual schemes
 * ("a://", "x+y://", uppercase, no "//") are borderline (borderlineReturnUrl).
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { DIGITS, LOWER, stringOf } from './internal/charsets.ts';
import { appScheme, hierarchicalUrl } from './internal/url-parts.ts';

export interface ValidReturnUrlConstraints {
  /** Yield absolute https URLs. @defaultValue true */
  https?: boolean;
  /** Yield native-app deep links. @defaultValue true */
  deepLinks?: boolean;
}

/** Absolute https URLs and native-app deep links. */
export function validReturnUrl(constraints: ValidReturnUrlConstraints = {}): Arbitrary<string> {
  const https = constraints.https ?? true;
  const deepLinks = constraints.deepLinks ?? true;
  const arbs: Arbitrary<string>[] = [];
  if (https) arbs.push(hierarchicalUrl(fc.constant('https')));
  if (deepLinks) arbs.push(hierarchicalUrl(appScheme, stringOf(`${LOWER}${DIGITS}-`, 1, 20), false));
  if (arbs.length === 0) throw new RangeError('validReturnUrl: https and deepLinks cannot both be false');
  return fc.oneof(...arbs);
}

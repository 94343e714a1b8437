/**
 * XML 1.0 text and attribute escaping. Characters XML forbids (C0 controls but tab, LF and CR;
 * U+FFFE, U+FFFF; lone surrogates) are replaced by U+FFFD, never passed through: one of them makes
 * the whole file malformed and CI drops every result.
 */
import { inert } from '../../core/inert.ts';

const FORBIDDEN = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Forbidden characters as U+FFFD; the controls XML allows but a reader should not get (DEL, C1, bidi, U+2028/9) made visible (core/inert.ts); CR kept. */
export function xmlSafe(s: string): string {
  return s.replace(FORBIDDEN, '\uFFFD').split('\r').map(inert).join('\r');
}

export function xmlText(s: string): string {
  return xmlSafe(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Attribute values also keep their tabs and line breaks (a parser would fold them to spaces). */
export function xmlAttr(s: string): string {
  return xmlText(s).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}

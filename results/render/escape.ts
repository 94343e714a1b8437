/**
 * HTML that escapes by default. `html\`…\`` is a tagged template: every interpolated value is
 * escaped for HTML text and double-quoted attributes (strings, numbers, enums alike), unless it is
 * itself `Html` (the result of another `html\`…\`` or of `trustedHtml` for our own constants).
 * Arrays are rendered item by item and joined; `undefined`, `null` and `false` render nothing. A
 * field added to a page is escaped without anyone remembering to: only `trustedHtml` opts out.
 *
 * Control, bidi and separator characters are shown as visible escapes (core/inert.ts), so a value
 * cannot reorder or hide what the reader sees; CRLF is kept as a line break.
 */
import { inert } from '../../core/inert.ts';

/** A fragment of HTML that is safe as it is: made by `html\`…\`` or declared by `trustedHtml`. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type HtmlValue = Html | string | number | bigint | boolean | null | undefined | readonly HtmlValue[];

/** Escaping for HTML text and double-quoted attribute values; control characters made visible. */
export function esc(s: unknown): string {
  return inert(String(s).replace(/\r\n/g, '\n'))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function piece(v: HtmlValue): string {
  if (v instanceof Html) return v.text;
  if (v === undefined || v === null || v === false) return '';
  if (Array.isArray(v)) return v.map(piece).join('');
  return esc(v);
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += piece(values[i]!) + strings[i + 1]!;
  return new Html(out);
}

/** Our own markup (a stylesheet, a script, a section another renderer escaped): never a value from a file. */
export function trustedHtml(s: string): Html {
  return new Html(s);
}

/** Items joined by a separator (escaped like any value unless Html). */
export function joinHtml(items: readonly HtmlValue[], sep: HtmlValue = ''): Html {
  return new Html(items.map(piece).join(piece(sep)));
}

/**
 * A URL for an href or src: a fragment, a relative path, or http(s); anything else (`javascript:`,
 * `data:`, `vbscript:`, a scheme hidden behind control characters or spaces) becomes `#`.
 */
export function safeUrl(u: string): string {
  const t = u.replace(/[\x00-\x20\x7f-\x9f]/g, '');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(t)?.[1]?.toLowerCase();
  return scheme === undefined || scheme === 'http' || scheme === 'https' ? u : '#';
}

/** A link to an element of this page by its id (the id percent-encoded, as the page's script decodes it). */
export const fragment = (id: string): string => `#${encodeURIComponent(id)}`;

/**
 * What a text says once decoded the ways the tool or a reader decodes it (issue 31): JSON and JS
 * string escapes (`\u0070`, `\x70`, `\u{70}`), HTML character references (`&#x70;`, `&#112;`,
 * `&amp;`), percent-encoding, then Unicode compatibility normalisation (NFKC: fullwidth and other
 * look-alike forms) with invisible characters (format characters such as zero-width spaces, soft
 * hyphens, joiners) removed. Redaction (core/redact.ts) searches this view as well as the raw text,
 * so a secret written in any of these forms is found before a renderer decodes it.
 */

/** Characters that can make a text decode to something else: where none occurs, the text is its own view. */
const DECODABLE = /[\\%&\u0080-\uffff]/;
/** Format characters (zero-width space/joiners, soft hyphen, word joiner, BOM, bidi marks…) and variation selectors. */
const INVISIBLE = /[\p{Cf}\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180D\u3164\uFE00-\uFE0F\uFFA0]/gu;
const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  lowbar: '_',
  colon: ':',
  sol: '/',
  period: '.',
  hyphen: '-',
  dash: '-',
};
/** Rounds of decoding (an escape inside an entity inside percent-encoding): each is linear in the text. */
const ROUNDS = 3;

function fromCodePoint(n: number): string {
  return Number.isInteger(n) && n >= 0 && n <= 0x10ffff ? String.fromCodePoint(n) : '';
}

function unescapeJs(s: string): string {
  return s
    .replace(/\\u\{([0-9a-fA-F]{1,6})\}/g, (_m, h: string) => fromCodePoint(parseInt(h, 16)))
    .replace(/\\u([0-9a-fA-F]{4})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/\\x([0-9a-fA-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/\\([\\/"'])/g, '$1');
}

function unescapeHtml(s: string): string {
  return s
    .replace(/&#[xX]([0-9a-fA-F]{1,6});?/g, (_m, h: string) => fromCodePoint(parseInt(h, 16)))
    .replace(/&#([0-9]{1,7});?/g, (_m, d: string) => fromCodePoint(Number(d)))
    .replace(/&([a-zA-Z]+);/g, (m, n: string) => NAMED[n.toLowerCase()] ?? m);
}

/** %XX runs decoded as UTF-8 (bytes that are not UTF-8 become U+FFFD); a lone % stays. */
function unescapePercent(s: string): string {
  return s.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8'));
}

/** NFKC with invisible characters removed. */
export function normalisedText(s: string): string {
  return s.normalize('NFKC').replace(INVISIBLE, '');
}

/** The text decoded (escapes, references, percent-encoding) and normalised, or the text itself when nothing in it decodes. */
export function decodedView(text: string): string {
  if (!DECODABLE.test(text)) return text;
  let out = text;
  for (let i = 0; i < ROUNDS; i++) {
    const next = normalisedText(unescapePercent(unescapeHtml(unescapeJs(out))));
    if (next === out) break;
    out = next;
  }
  return out;
}

/** The forms a secret may take when it leaks, searched by the security tests (independent of core/redact.ts, on purpose). */
export interface Transform {
  name: string;
  test(haystack: string, lower: string): boolean;
}

const b64 = (s: string) => Buffer.from(s).toString('base64');
const b64url = (s: string) => Buffer.from(s).toString('base64url');

/** The forms a secret may take (independent of core/redact.ts, on purpose). */
export function transformsOf(secret: string): Transform[] {
  const part = /^(?:pt_[a-z]+_sk_|whsec_)(.*)$/.exec(secret)?.[1] ?? secret;
  const out: Transform[] = [];
  const exact = (name: string, s: string) => out.push({ name, test: (h) => h.includes(s) });
  const folded = (name: string, s: string) => out.push({ name, test: (_h, l) => l.includes(s.toLowerCase()) });
  folded('exact, any case', secret);
  folded('secret part under any prefix, any case', part);
  folded('url-encoded', encodeURIComponent(secret).replace(/_/g, '%5F'));
  folded('every byte percent-encoded', [...Buffer.from(secret)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''));
  for (const [label, s] of [['key', secret], ['key:', `${secret}:`], [':key', `:${secret}`], ['secret part', part]] as const) {
    exact(`base64(${label})`, b64(s).replace(/=+$/, ''));
    exact(`base64url(${label})`, b64url(s));
  }
  // Hex of the key and of its secret part, both cases; the key and its secret part reversed.
  const hex = (s: string) => Buffer.from(s).toString('hex');
  exact('hex, lower case', hex(part));
  exact('hex, upper case', hex(part).toUpperCase());
  folded('reversed', [...secret].reverse().join(''));
  folded('secret part reversed', [...part].reverse().join(''));
  // base64 of the key at the two other byte alignments (inside a longer string), padding chars cut.
  for (const pad of ['x', 'xy']) {
    const enc = b64(pad + secret);
    exact(`base64 at offset ${pad.length}`, enc.slice(4, enc.length - 4));
  }
  // One character inserted or removed anywhere in the secret part.
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const ins = new RegExp(
    Array.from({ length: part.length + 1 }, (_, i) => `${esc(part.slice(0, i))}[\\s\\S]${esc(part.slice(i))}`).join('|'),
    'i',
  );
  const del = new RegExp(Array.from({ length: part.length }, (_, i) => esc(part.slice(0, i) + part.slice(i + 1))).join('|'), 'i');
  out.push({ name: 'one character inserted', test: (h) => ins.test(h) });
  out.push({ name: 'one character removed', test: (h) => del.test(h) });
  // Any 12-character run of the secret part, any case.
  out.push({
    name: '12-character run of the secret part',
    test: (
      _h,
      l,
    ) => Array.from({ length: Math.max(1, part.length - 11) }, (_, i) => part.slice(i, i + 12).toLowerCase()).some((g) => l.includes(g)),
  });
  return out;
}


const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/** base32 (RFC 4648, no padding) of `s` after `pad` bytes, cut to the characters `s` alone decides. */
function base32At(s: string, pad: number): string {
  let bits = '';
  for (const b of Buffer.concat([Buffer.alloc(pad, 0x78), Buffer.from(s)])) bits += b.toString(2).padStart(8, '0');
  const all = (bits.match(/.{1,5}/g) ?? []).map((c) => BASE32[parseInt(c.padEnd(5, '0'), 2)]).join('');
  return all.slice(Math.ceil((pad * 8) / 5), Math.floor(((pad + Buffer.byteLength(s)) * 8) / 5));
}

/** Forms added by issue 31 (rot13, base32 at every alignment), searched case-folded. */
export function moreTransformsOf(secret: string): Transform[] {
  const part = /^(?:pt_[a-z]+_sk_|whsec_)(.*)$/.exec(secret)?.[1] ?? secret;
  const rot13 = part.replace(/[a-z]/gi, (c) => String.fromCharCode(((c.toLowerCase().charCodeAt(0) - 97 + 13) % 26) + 97));
  const out: Transform[] = [{ name: 'rot13 of the secret part', test: (_h, l) => l.includes(rot13.toLowerCase()) }];
  for (let pad = 0; pad < 5; pad++) {
    const enc = base32At(secret, pad).toLowerCase();
    out.push({ name: `base32 at offset ${pad}`, test: (_h, l) => l.includes(enc) });
  }
  return out;
}

/**
 * The views of a text a reader or a renderer may decode (issue 31), written independently of
 * core/decoded-views.ts: JSON string escapes, HTML character references, percent-decoding, NFKC and
 * invisible characters removed, each alone and all together. A leak search looks in every view.
 */
export function readerViews(text: string): string[] {
  const json = text.replace(/\\u([0-9a-fA-F]{4})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  const html = text.replace(
    /&#x([0-9a-f]+);/gi,
    (_m, h: string) => String.fromCodePoint(parseInt(h, 16)),
  ).replace(/&#(\d+);/g, (_m, d: string) => String.fromCodePoint(Number(d)));
  let pct = text;
  try {
    pct = decodeURIComponent(text.replace(/%(?![0-9a-fA-F]{2})/g, '%25'));
  } catch { /* not percent-decodable as a whole: keep the text */ }
  const visible = (s: string) => s.normalize('NFKC').replace(/[\u00ad\u200b-\u200f\u2060-\u2064\ufeff]/g, '');
  return [...new Set([
    text,
    json,
    html,
    pct,
    visible(text),
    visible(html.replace(/\\u([0-9a-fA-F]{4})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))),
  ])];
}

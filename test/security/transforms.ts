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
  const ins = new RegExp(Array.from({ length: part.length + 1 }, (_, i) => `${esc(part.slice(0, i))}[\\s\\S]${esc(part.slice(i))}`).join('|'), 'i');
  const del = new RegExp(Array.from({ length: part.length }, (_, i) => esc(part.slice(0, i) + part.slice(i + 1))).join('|'), 'i');
  out.push({ name: 'one character inserted', test: (h) => ins.test(h) });
  out.push({ name: 'one character removed', test: (h) => del.test(h) });
  // Any 12-character run of the secret part, any case.
  out.push({ name: '12-character run of the secret part', test: (_h, l) => Array.from({ length: Math.max(1, part.length - 11) }, (_, i) => part.slice(i, i + 12).toLowerCase()).some((g) => l.includes(g)) });
  return out;
}


/**
 * Secrets never reach a report, a log or an error message, in any form. Known secrets (API keys,
 * signing secrets, the control token, base_url user-info) are cut to their prefix and last 4; and
 * anything that still looks like a transform of one is blanked as `‹redacted›`:
 *  - any run of >= 12 characters of the secret part (the part after `pt_xxx_sk_` / `whsec_`),
 *    letter case ignored: the secret under any prefix, upper-cased, with a character inserted or
 *    removed (one side of the edit keeps >= 12 characters of a 24-character secret), URL-encoded;
 *  - short secrets (< 24 characters): the secret with one character inserted or removed;
 *  - any run of >= 16 characters of the base64 / base64url encoding of the key or of its secret
 *    part at each of the 3 byte alignments (so `key:`, `:key`, `Basic base64(key:)` are caught);
 *  - the percent-encoding of the key;
 *  - the hex of the secret part (either case: matched case-folded, so any run of >= 12 hex digits,
 *    6 bytes of the secret, at any byte of it) and the secret part reversed (any run of >= 12);
 *  - the secret part in rot13, and base32 of the key or its secret part at each of the 5 byte
 *    alignments (case-folded: any run of >= 12 characters).
 * Then on meaning, not bytes (issue 31): the text is also searched once decoded the ways a reader
 * or a renderer decodes it (core/decoded-views.ts: JSON/JS escapes, HTML references,
 * percent-encoding, NFKC, invisible characters removed); a secret found only there blanks the whole
 * text, so no later decoding (the HTML report pretty-prints JSON bodies) can bring it back.
 * `redactDeep` does the same on every string and key of a parsed structure, to a bounded depth.
 * Matching uses a k-gram table (linear in the text), cached per list of secrets.
 */
import { createHash } from 'node:crypto';
import { decodedView } from './decoded-views.ts';

const SECRET_SHAPE = /\b(pt_(?:test|live)_sk_|whsec_)([A-Za-z0-9_\-]+)/g;
const PREFIXED = /^(pt_[A-Za-z]+_sk_|whsec_)(.*)$/;
/** Shortest run of a secret's characters (case-folded) taken as a leak. */
export const PLAIN_GRAM = 12;
/** Shortest run of an encoded secret (case-sensitive) taken as a leak. */
export const ENCODED_GRAM = 16;
const MIN_SECRET = 6;
const BLANK = '‹redacted›';

export function redactSecret(value: string): string {
  const m = /^(pt_(?:test|live)_sk_|whsec_)(.*)$/.exec(value);
  if (m) return `${m[1]}…${m[2]!.slice(-4)}`;
  if (value.length <= 8) return '…';
  return `…${value.slice(-4)}`;
}

/** A short, stable fingerprint of a credential (first 8 hex of its SHA-256), safe to print. */
export function fingerprint(value: string): string {
  return `sha256:${createHash('sha256').update(value, 'utf8').digest('hex').slice(0, 8)}`;
}

/** The part of a secret worth hiding: what follows a known prefix, or the whole. */
export function secretPart(secret: string): string {
  return PREFIXED.exec(secret)?.[2] ?? secret;
}

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
const b64url = (s: string): string => Buffer.from(s, 'utf8').toString('base64url');
const hex = (s: string): string => Buffer.from(s, 'utf8').toString('hex');
const rot13 = (s: string): string => s.replace(
  /[a-z]/gi,
  (c) => String.fromCharCode(((c.toLowerCase().charCodeAt(0) - 97 + 13) % 26) + (c <= 'Z' ? 65 : 97)),
);
const percentAll = (s: string): string => [...Buffer.from(
  s,
  'utf8',
)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/**
 * The base64 characters of `s` whatever bytes precede it: for each alignment (0-2 bytes before),
 * the encoding with the characters touched by the padding bytes cut off at both ends.
 */
export function base64Cores(s: string, alphabet: 'base64' | 'base64url'): string[] {
  const out: string[] = [];
  for (const pad of ['', 'A', 'AA']) {
    const enc = Buffer.from(pad + s, 'utf8').toString(alphabet).replace(/=+$/, '');
    const head = Math.ceil((pad.length * 4) / 3);
    const len = Buffer.byteLength(s, 'utf8');
    const full = Math.floor(((pad.length + len) * 4) / 3);
    out.push(enc.slice(head, full));
  }
  return out;
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32(bytes: Buffer): string {
  let out = '';
  let acc = 0;
  let bits = 0;
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(acc >>> (bits - 5)) & 31];
      bits -= 5;
    }
    acc &= (1 << bits) - 1;
  }
  return bits > 0 ? out + BASE32[(acc << (5 - bits)) & 31] : out;
}

/** The base32 characters of `s` whatever bytes precede it (0-4), cut like base64Cores. */
export function base32Cores(s: string): string[] {
  const len = Buffer.byteLength(s, 'utf8');
  const out: string[] = [];
  for (let pad = 0; pad < 5; pad++) {
    const enc = base32(Buffer.concat([Buffer.alloc(pad, 0x41), Buffer.from(s, 'utf8')]));
    out.push(enc.slice(Math.ceil((pad * 8) / 5), Math.floor(((pad + len) * 8) / 5)));
  }
  return out;
}

/** Every form of one secret, as {plain (case-folded), encoded (exact)} strings to match on k-grams. */
export function secretForms(secret: string): { plain: string[]; encoded: string[] } {
  const part = secretPart(secret);
  const reversed = [...part].reverse().join('');
  const plain = [
    part,
    encodeURIComponent(secret),
    percentAll(secret),
    hex(part),
    reversed,
    rot13(part),
    ...base32Cores(secret),
    ...base32Cores(part),
  ].map((s) => s.toLowerCase());
  const encoded: string[] = [];
  for (const s of new Set([secret, part, `${secret}:`, `:${secret}`])) {
    encoded.push(b64(s), b64url(s), ...base64Cores(s, 'base64'), ...base64Cores(s, 'base64url'));
  }
  return { plain, encoded };
}

interface Matcher {
  /** Each known secret and what it is replaced with (redactSecret), longest first. */
  exact: Array<[secret: string, shown: string]>;
  plain: Set<string>;
  encoded: Set<string>;
  /** Which 4-character heads the k-grams of `plain` / `encoded` start with (headsOf): positions whose head is not in it are skipped. */
  plainHeads: Uint8Array;
  encodedHeads: Uint8Array;
  /** The forms of `plain` / `encoded` shorter than their gram (matched whole), listed once. */
  plainShort: string[];
  encodedShort: string[];
  /** Short secret parts: one insertion or deletion is matched by regex. */
  edits: RegExp | null;
}

const cache = new Map<string, Matcher>();

function grams(s: string, k: number, into: Set<string>): void {
  if (s.length < k) {
    if (s.length >= MIN_SECRET) into.add(s); // a short form: matched whole (see scan)
    return;
  }
  for (let i = 0; i + k <= s.length; i++) into.add(s.slice(i, i + k));
}

/** Characters of a k-gram's head, hashed into a bitmap of HEAD_BITS bits: a filter, never a match. */
const HEAD_BITS = 20;
const HEAD_MASK = (1 << HEAD_BITS) - 1;

function headAt(s: string, i: number): number {
  return (((s.charCodeAt(i) * 31 + s.charCodeAt(i + 1)) * 31 + s.charCodeAt(i + 2)) * 31 + s.charCodeAt(i + 3)) & HEAD_MASK;
}

/**
 * The heads of every k-gram of `set`, as a bitmap. A text position whose head is not set cannot
 * start a k-gram of the set (equal strings hash equally), so the scan skips it without building
 * the k-character string; a set head only sends the position on to the exact lookup.
 */
function headsOf(set: Set<string>, k: number): Uint8Array {
  const bits = new Uint8Array(1 << (HEAD_BITS - 3));
  for (const g of set) {
    if (g.length < k) continue; // a short form, matched whole
    const h = headAt(g, 0);
    bits[h >> 3]! |= 1 << (h & 7);
  }
  return bits;
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function editsRegex(parts: string[]): RegExp | null {
  const alts: string[] = [];
  for (const p of parts) {
    if (p.length >= 2 * PLAIN_GRAM || p.length < MIN_SECRET) continue;
    for (let i = 0; i <= p.length; i++) alts.push(`${escapeRe(p.slice(0, i))}[\\s\\S]${escapeRe(p.slice(i))}`);
    for (let i = 0; i < p.length; i++) alts.push(escapeRe(p.slice(0, i) + p.slice(i + 1)));
  }
  return alts.length ? new RegExp(alts.join('|'), 'gi') : null;
}

function buildMatcher(secrets: readonly string[]): Matcher {
  const usable = [...new Set(secrets.filter((s) => typeof s === 'string' && s.length >= MIN_SECRET))];
  const plain = new Set<string>();
  const encoded = new Set<string>();
  for (const s of usable) {
    const f = secretForms(s);
    for (const p of f.plain) grams(p, PLAIN_GRAM, plain);
    for (const e of f.encoded) grams(e, ENCODED_GRAM, encoded);
  }
  // Longest first, so a key is replaced before a shorter secret inside it.
  const exact = [...usable].sort((a, b) => b.length - a.length).map((x): [string, string] => [x, redactSecret(x)]);
  const short = (set: Set<string>, k: number) => [...set].filter((g) => g.length < k);
  return {
    exact, plain, encoded,
    plainHeads: headsOf(plain, PLAIN_GRAM), encodedHeads: headsOf(encoded, ENCODED_GRAM),
    plainShort: short(plain, PLAIN_GRAM), encodedShort: short(encoded, ENCODED_GRAM), edits: editsRegex(usable.map(secretPart)),
  };
}

/**
 * The matcher of the registered secrets plus `extra`, cached by the registrations' generation and
 * the extra list: a call costs a comparison with the last list, or one short join, never a rebuild
 * (a report is thousands of calls).
 */
function matcherFor(extra: readonly string[]): Matcher {
  // A client passes the same list on every call (thousands a run): the last one is kept with a copy
  // of its contents, so a list changed in place is never matched with the matcher of its old contents.
  const last = lastMatcher;
  if (last && last.generation === generation && sameList(last.extra, extra)) return last.matcher;
  const id = `${generation}\u0001${extra.join('\u0000')}`;
  let m = cache.get(id);
  if (!m) {
    m = buildMatcher([...extra, ...registered.keys()]);
    if (cache.size > 32) cache.clear();
    cache.set(id, m);
  }
  lastMatcher = { generation, extra: [...extra], matcher: m };
  return m;
}

let lastMatcher: { generation: number; extra: readonly string[]; matcher: Matcher } | undefined;

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Ranges [start, end) of `text` covered by a k-gram of `set` (or a whole short form). */
function scan(
  text: string,
  set: Set<string>,
  heads: Uint8Array,
  shortForms: readonly string[],
  k: number,
  fold: boolean,
  ranges: Array<[number, number]>,
): void {
  if (set.size === 0 || text.length < MIN_SECRET) return;
  const t = fold ? text.toLowerCase() : text;
  if (t.length !== text.length) return scanSlow(text, set, fold, ranges);
  for (let i = 0; i + k <= t.length; i++) {
    const h = headAt(t, i);
    if ((heads[h >> 3]! & (1 << (h & 7))) === 0) continue;
    if (set.has(t.slice(i, i + k))) ranges.push([i, i + k]);
  }
  for (const g of shortForms) {
    for (let at = t.indexOf(g); at !== -1; at = t.indexOf(g, at + 1)) ranges.push([at, at + g.length]);
  }
}

/** Case folding changed the length (rare Unicode): fall back to per-gram search on the original. */
function scanSlow(text: string, set: Set<string>, fold: boolean, ranges: Array<[number, number]>): void {
  for (const g of set) {
    const re = new RegExp(escapeRe(g), fold ? 'gi' : 'g');
    for (const m of text.matchAll(re)) ranges.push([m.index!, m.index! + m[0].length]);
  }
}

function blankRanges(text: string, ranges: Array<[number, number]>): string {
  if (!ranges.length) return text;
  ranges.sort((a, b) => a[0] - b[0]);
  let out = '';
  let cursor = 0;
  let [s, e] = ranges[0]!;
  const flush = () => {
    out += text.slice(cursor, s) + BLANK;
    cursor = e;
  };
  for (const [a, b] of ranges.slice(1)) {
    if (a <= e) e = Math.max(e, b);
    else {
      flush();
      [s, e] = [a, b];
    }
  }
  flush();
  return out + text.slice(cursor);
}

/** Redacts key-shaped strings, every known secret and every transform of one in free text. */
export function redactText(text: string, extraSecrets: readonly string[] = []): string {
  const known = extraSecrets.length > 0 || registered.size > 0;
  const m = known ? matcherFor(extraSecrets) : undefined;
  const out = redactRaw(text, m);
  const view = decodedView(out);
  // A secret (or a key-shaped string) that only decoding reveals: the whole text goes.
  if (view !== out && (keyShaped(view) || (m !== undefined && rangesOf(view, m).length > 0))) return BLANK;
  return out;
}

/** Longest text `redactRepeated` remembers, and how many it remembers (then it forgets them all). */
const REPEATED_MAX_CHARS = 256;
const REPEATED_MAX = 2000;
/** By the extra secrets (joined), then by the text. */
const repeated = new Map<string, Map<string, string>>();
let repeatedCount = 0;
let repeatedGeneration = -1;

/**
 * redactText for short values that come again and again (an HTTP header's value: a content type, a cache policy): the
 * result remembered for the same text, extra secrets and registered secrets (forgotten when those change), bounded.
 */
export function redactRepeated(text: string, extraSecrets: readonly string[] = []): string {
  if (text.length > REPEATED_MAX_CHARS) return redactText(text, extraSecrets);
  if (repeatedGeneration !== generation || repeatedCount >= REPEATED_MAX) {
    repeated.clear();
    repeatedCount = 0;
    repeatedGeneration = generation;
  }
  const extra = extraSecrets.length === 1 ? extraSecrets[0]! : extraSecrets.join('\u0000');
  let known = repeated.get(extra);
  if (known === undefined) repeated.set(extra, (known = new Map()));
  let out = known.get(text);
  if (out === undefined) {
    known.set(text, (out = redactText(text, extraSecrets)));
    repeatedCount++;
  }
  return out;
}

/** The raw text with key-shaped strings cut, known secrets shortened and every transform blanked. */
function redactRaw(text: string, m: Matcher | undefined): string {
  let out = text.replace(SECRET_SHAPE, (_all, prefix: string, rest: string) => `${prefix}…${rest.slice(-4)}`);
  if (!m) return stripUserInfo(out);
  for (const [s, shown] of m.exact) if (out.includes(s)) out = out.split(s).join(shown);
  return stripUserInfo(blankRanges(out, rangesOf(out, m)));
}

function keyShaped(text: string): boolean {
  return new RegExp(SECRET_SHAPE.source).test(text);
}

/** Where `text` holds a transform of a secret of `m`. */
function rangesOf(text: string, m: Matcher): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  scan(text, m.plain, m.plainHeads, m.plainShort, PLAIN_GRAM, true, ranges);
  scan(text, m.encoded, m.encodedHeads, m.encodedShort, ENCODED_GRAM, false, ranges);
  if (m.edits) for (const x of text.matchAll(m.edits)) ranges.push([x.index!, x.index! + x[0].length]);
  return ranges;
}

/** Deepest nesting `redactDeep` copies; anything deeper is replaced by a note (never walked: no stack overflow). */
export const MAX_REDACT_DEPTH = 256;
const TOO_DEEP = `‹nested deeper than ${MAX_REDACT_DEPTH} levels: not kept›`;

/** Redacts every string (keys included) of a JSON-like value; returns a copy, cut at MAX_REDACT_DEPTH levels. */
export function redactDeep<T>(value: T, secrets: readonly string[] = []): T {
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return redactText(v, secrets);
    if (!v || typeof v !== 'object') return v;
    if (depth >= MAX_REDACT_DEPTH) return TOO_DEEP;
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [redactText(k, secrets), walk(x, depth + 1)]));
  };
  return walk(value, 0) as T;
}

/** `scheme://user:pass@host` -> `scheme://host`, in a URL or in free text. */
export function stripUserInfo(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]*@/gi, '$1');
}

/** The user-info of a URL (user and password, decoded), to redact wherever it might be printed. */
export function userInfoSecrets(url: string): string[] {
  try {
    const u = new URL(url);
    return [u.username, u.password].map((s) => decodeURIComponent(s)).filter((s) => s.length >= MIN_SECRET);
  } catch {
    return [];
  }
}

/**
 * Secrets known to this process (a loaded profile's, a run's target), redacted from every text
 * besides the ones passed; counted, so a secret registered twice stays until both release it.
 */
const registered = new Map<string, number>();
/** Bumped by every change of `registered`: part of the matcher cache's key. */
let generation = 0;

/**
 * Registers secrets for every later redaction in this process. Returns their release: a run
 * releases its embedded target's throwaway keys when it ends, so a process that runs many
 * (the mutation score: 160 runs) does not scan every text for every run's keys.
 */
export function registerSecrets(secrets: readonly string[]): () => void {
  const added = secrets.filter((s) => typeof s === 'string' && s.length >= MIN_SECRET);
  for (const s of added) registered.set(s, (registered.get(s) ?? 0) + 1);
  if (added.length) generation++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    for (const s of added) {
      const n = (registered.get(s) ?? 1) - 1;
      if (n <= 0) registered.delete(s);
      else registered.set(s, n);
    }
    if (added.length) generation++;
  };
}

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/**
 * A credential as evidence: a key of the right shape keeps its prefix and last 4 (which key was
 * used); anything else is its scheme, length and fingerprint, never its text.
 */
export function redactCredential(v: string): string {
  const m = /^(\S+)(\s+)(.+)$/.exec(v);
  const [scheme, token] = m ? [m[1]!, m[3]!] : ['', v];
  if (/^(pt_(?:test|live)_sk_|whsec_)[A-Za-z0-9]+$/.test(token)) return `${scheme ? `${scheme} ` : ''}${redactSecret(token)}`;
  return `${scheme ? `${scheme} ` : ''}‹${token.length} chars, ${fingerprint(token)}›`;
}

export function redactHeaders(headers: Record<string, string>, extraSecrets: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    out[redactText(
      k,
      extraSecrets,
    )] = SECRET_HEADERS.has(k.toLowerCase()) ? redactText(redactCredential(v), extraSecrets) : redactText(v, extraSecrets);
  }
  return out;
}

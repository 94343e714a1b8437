/**
 * traffic.har: every exchange the proxy relayed, as HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/),
 * streamed: each entry is appended to a segment file as it finishes (a batch a write) and the HAR is written from the
 * segments at close, so memory stays flat however long the proxy runs, and the file is bounded by
 * size (the oldest entries dropped, their count kept in the file: HarWriter). Secrets never reach the file: Authorization and
 * Proxy-Authorization become their redacted form, Cookie and Set-Cookie the cookies' names only, and every header value, URL and
 * body goes through redactText with the request's own key; bodies are clipped (MAX_HAR_BODY).
 */
import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { redactRepeated, redactSecret, redactText } from '../../core/redact.ts';
import { TOOL } from '../../core/version.ts';

/** Characters of a body kept in the HAR (the rest is cut, said in the content's comment). */
export const MAX_HAR_BODY = 64 * 1024;
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

export interface HarExchange {
  startedAt: Date;
  durationMs: number;
  method: string;
  /** The URL the application asked for (the proxy's origin and the path). */
  url: string;
  requestHeaders: Record<string, string>;
  requestBody: string;
  /** Undefined: no answer reached the application (the error says why). */
  response?: { status: number; headers: Record<string, string>; body: string };
  error?: string;
}

type NameValue = { name: string; value: string };

/** The HAR's default bound, in bytes (`proxy --har-max-mb`): about 70 000 typical exchanges. */
export const DEFAULT_HAR_MAX_BYTES = 64 * 1024 * 1024;

/** Entries waiting for their write at most (the entries and their bytes), and how long: one write for many exchanges. */
const MAX_PENDING = 1024;
const MAX_PENDING_BYTES = 1024 * 1024;
const FLUSH_DELAY_MS = 100;

/** One segment of entries on disk: the bytes it holds and how many entries. */
interface Segment {
  path: string;
  fd: number;
  bytes: number;
  count: number;
}

/**
 * Bounded by size: entries go to two segment files beside the HAR, each at most half the bound;
 * when the newer one is full the older is dropped (its entries counted) and a new one started. At
 * close the HAR is written from the segments (oldest first), its log saying how many of the oldest
 * entries were dropped (`_droppedEntries`, and in words in `comment`). Memory stays flat: entries
 * are written as they finish and copied in chunks at close. `maxBytes` 0: no bound.
 */
export class HarWriter {
  private older: Segment | null = null;
  private current: Segment;
  private dropped = 0;
  private serial = 0;
  private closed = false;
  /** Entries added and not yet written (bounded: MAX_PENDING, MAX_PENDING_BYTES, FLUSH_DELAY_MS; never across a rotation). */
  private pending: string[] = [];
  private pendingBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Exchanges the proxy could not hand to this writer (its judging queue was full): said in the file. */
  notWritten = 0;

  constructor(private readonly path: string, private readonly maxBytes = DEFAULT_HAR_MAX_BYTES) {
    this.current = this.segment();
  }

  /** Entries the HAR holds (the dropped ones not counted). */
  get entries(): number {
    return (this.older?.count ?? 0) + this.current.count;
  }

  /** The oldest entries dropped to keep the bound. */
  get droppedEntries(): number {
    return this.dropped;
  }

  /** Adds an entry to the current segment, written at the next flush (or when the segment is full). */
  add(ex: HarExchange): void {
    if (this.closed) return;
    const line = `${JSON.stringify(harEntry(ex))}\n`;
    const bytes = Buffer.byteLength(line);
    if (this.maxBytes > 0 && this.current.count > 0 && this.current.bytes + bytes > this.maxBytes / 2) this.rotate();
    this.pending.push(line);
    this.pendingBytes += bytes;
    this.current.bytes += bytes;
    this.current.count++;
    if (this.pending.length >= MAX_PENDING || this.pendingBytes >= MAX_PENDING_BYTES) this.flush();
  }

  /** Writes the entries added since the last flush within FLUSH_DELAY_MS (sooner when they reach MAX_PENDING_BYTES). */
  flushSoon(): void {
    if (!this.pending.length || this.timer) return;
    this.timer = setTimeout(() => this.flush(), FLUSH_DELAY_MS);
    this.timer.unref();
  }

  /** Writes the entries added since the last flush, in one write. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.pending.length) return;
    writeSync(this.current.fd, this.pending.join(''));
    this.pending = [];
    this.pendingBytes = 0;
  }

  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    const fd = openSync(this.path, 'w', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(this.head()).slice(0, -2)},"entries":[\n`);
      let first = true;
      for (const seg of [this.older, this.current]) {
        if (seg === null) continue;
        closeSync(seg.fd);
        first = copyEntries(seg.path, fd, first);
        rmSync(seg.path, { force: true });
      }
      writeSync(fd, '\n]}}\n');
    } finally {
      closeSync(fd);
    }
  }

  private head(): Record<string, unknown> {
    const log: Record<string, unknown> = { version: '1.2', creator: { name: TOOL.name, version: TOOL.version }, pages: [] };
    if (this.dropped > 0) {
      log.comment = `the oldest ${this.dropped} entries were dropped to keep this file under ${Math.round(this.maxBytes / 1048576)} MiB ` +
        '(proxy --har-max-mb)';
      log._droppedEntries = this.dropped;
    }
    if (this.notWritten > 0) {
      const why = `${this.notWritten} exchanges are not in this file: the proxy's judging queue was full when they came (docs/proxy.md)`;
      log.comment = log.comment ? `${String(log.comment)}; ${why}` : why;
      log._notWrittenEntries = this.notWritten;
    }
    return { log };
  }

  private segment(): Segment {
    const path = `${dirname(this.path)}/.${basename(this.path)}.${this.serial++}.part`;
    return { path, fd: openSync(path, 'w', 0o600), bytes: 0, count: 0 };
  }

  private rotate(): void {
    this.flush();
    if (this.older) {
      closeSync(this.older.fd);
      rmSync(this.older.path, { force: true });
      this.dropped += this.older.count;
    }
    this.older = this.current;
    this.current = this.segment();
  }
}

/** Appends a segment's entries (one JSON per line) to the HAR's array, comma-separated; whether the next is still the first. */
function copyEntries(path: string, fd: number, first: boolean): boolean {
  const src = openSync(path, 'r');
  const chunk = Buffer.alloc(1024 * 1024);
  const text = new StringDecoder('utf8');
  let pending = '';
  let isFirst = first;
  try {
    for (let n = readSync(src, chunk); n > 0; n = readSync(src, chunk)) {
      const lines = (pending + text.write(chunk.subarray(0, n))).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (line === '') continue;
        writeSync(fd, `${isFirst ? '' : ',\n'}${line}`);
        isFirst = false;
      }
    }
  } finally {
    closeSync(src);
  }
  return isFirst;
}

/** One HAR 1.2 entry, redacted. */
export function harEntry(ex: HarExchange): Record<string, unknown> {
  const secrets = bearerOf(ex.requestHeaders);
  const clean = (s: string) => redactText(s, secrets);
  const url = clean(ex.url);
  const entry: Record<string, unknown> = {
    startedDateTime: ex.startedAt.toISOString(),
    time: ex.durationMs,
    request: {
      method: ex.method, url, httpVersion: 'HTTP/1.1', cookies: [], headers: headerList(ex.requestHeaders, secrets),
      queryString: queryOf(url), headersSize: -1, bodySize: Buffer.byteLength(ex.requestBody),
      ...(ex.requestBody ? { postData: {
        mimeType: ex.requestHeaders['content-type'] ?? '',
        text: clipped(clean(ex.requestBody)).text,
      } } : {}),
    },
    response: responseOf(ex, secrets),
    cache: {},
    timings: { send: 0, wait: ex.durationMs, receive: 0 },
  };
  if (ex.error !== undefined) entry._error = clean(ex.error);
  return entry;
}

function responseOf(ex: HarExchange, secrets: readonly string[]): Record<string, unknown> {
  const r = ex.response;
  if (!r) return {
    status: 0,
    statusText: '',
    httpVersion: '',
    cookies: [],
    headers: [],
    content: { size: 0, mimeType: 'x-unknown' },
    redirectURL: '',
    headersSize: -1,
    bodySize: -1,
  };
  const clean = (s: string) => redactText(s, secrets);
  const body = clipped(clean(r.body));
  return {
    status: r.status, statusText: '', httpVersion: 'HTTP/1.1', cookies: [], headers: headerList(r.headers, secrets),
    content: {
      size: Buffer.byteLength(r.body),
      mimeType: r.headers['content-type'] ?? 'x-unknown',
      text: body.text,
      ...(body.cut ? { comment: `clipped to ${MAX_HAR_BODY} characters` } : {}),
    },
    redirectURL: clean(r.headers.location ?? ''), headersSize: -1, bodySize: Buffer.byteLength(r.body),
  };
}

/** The headers, each value redacted (a header's value repeats from exchange to exchange: redactRepeated remembers it). */
function headerList(headers: Record<string, string>, secrets: readonly string[]): NameValue[] {
  return Object.entries(headers).map(([name, value]) => {
    const lower = name.toLowerCase();
    return {
      name,
      value: lower === 'cookie' || lower === 'set-cookie' ? cookieNames(value) : CREDENTIAL_HEADERS.has(lower) ? credential(value) : redactRepeated(
        value,
        secrets,
      ),
    };
  });
}

/** "a=…; b=…": the cookies' names (and attributes' names), no value. */
function cookieNames(value: string): string {
  return value.split(';').map((part) => part.trim().replace(/=.*$/s, '=…')).join('; ');
}

/** "Bearer pt_test_sk_…abcd": the scheme and the redacted secret, never the secret. */
function credential(value: string): string {
  const m = /^(\S+)\s+(.+)$/.exec(value);
  return m ? `${m[1]} ${redactSecret(m[2]!)}` : redactSecret(value);
}

function bearerOf(headers: Record<string, string>): string[] {
  const v = headers.authorization;
  const m = v ? /^\S+\s+(.+)$/.exec(v) : null;
  return m ? [m[1]!] : v ? [v] : [];
}

function queryOf(url: string): NameValue[] {
  if (!url.includes('?')) return [];
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

function clipped(s: string): { text: string; cut: boolean } {
  return s.length > MAX_HAR_BODY ? { text: s.slice(0, MAX_HAR_BODY), cut: true } : { text: s, cut: false };
}

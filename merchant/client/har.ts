/**
 * traffic.har: every exchange the proxy relayed, as HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/),
 * streamed: the head is written at open, each entry is appended as it finishes, the tail at close,
 * so memory stays flat however long the proxy runs. Secrets never reach the file: Authorization and
 * Proxy-Authorization become their redacted form, Cookie and Set-Cookie the cookies' names only, and every header value, URL and
 * body goes through redactText with the request's own key; bodies are clipped (MAX_HAR_BODY).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { redactSecret, redactText } from '../../core/redact.ts';
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

export class HarWriter {
  private readonly fd: number;
  private count = 0;
  private closed = false;

  constructor(path: string) {
    this.fd = openSync(path, 'w', 0o600);
    const head = { log: { version: '1.2', creator: { name: TOOL.name, version: TOOL.version }, pages: [] } };
    writeSync(this.fd, `${JSON.stringify(head).slice(0, -2)},"entries":[\n`);
  }

  get entries(): number {
    return this.count;
  }

  add(ex: HarExchange): void {
    if (this.closed) return;
    writeSync(this.fd, `${this.count ? ',\n' : ''}${JSON.stringify(harEntry(ex))}`);
    this.count++;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    writeSync(this.fd, '\n]}}\n');
    closeSync(this.fd);
  }
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
      method: ex.method, url, httpVersion: 'HTTP/1.1', cookies: [], headers: headerList(ex.requestHeaders, clean),
      queryString: queryOf(url), headersSize: -1, bodySize: Buffer.byteLength(ex.requestBody),
      ...(ex.requestBody ? { postData: {
        mimeType: ex.requestHeaders['content-type'] ?? '',
        text: clipped(clean(ex.requestBody)).text,
      } } : {}),
    },
    response: responseOf(ex, clean),
    cache: {},
    timings: { send: 0, wait: ex.durationMs, receive: 0 },
  };
  if (ex.error !== undefined) entry._error = clean(ex.error);
  return entry;
}

function responseOf(ex: HarExchange, clean: (s: string) => string): Record<string, unknown> {
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
  const body = clipped(clean(r.body));
  return {
    status: r.status, statusText: '', httpVersion: 'HTTP/1.1', cookies: [], headers: headerList(r.headers, clean),
    content: {
      size: Buffer.byteLength(r.body),
      mimeType: r.headers['content-type'] ?? 'x-unknown',
      text: body.text,
      ...(body.cut ? { comment: `clipped to ${MAX_HAR_BODY} characters` } : {}),
    },
    redirectURL: clean(r.headers.location ?? ''), headersSize: -1, bodySize: Buffer.byteLength(r.body),
  };
}

function headerList(headers: Record<string, string>, clean: (s: string) => string): NameValue[] {
  return Object.entries(headers).map(([name, value]) => {
    const lower = name.toLowerCase();
    return { name, value: lower === 'cookie' || lower === 'set-cookie' ? cookieNames(value) : CREDENTIAL_HEADERS.has(lower) ? credential(value) : clean(value) };
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
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

function clipped(s: string): { text: string; cut: boolean } {
  return s.length > MAX_HAR_BODY ? { text: s.slice(0, MAX_HAR_BODY), cut: true } : { text: s, cut: false };
}

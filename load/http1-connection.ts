/**
 * The load generator's transport for http: targets: one socket, one request at a time, the
 * request written as one string and the answer parsed in place. undici (undici-connection.ts,
 * kept for https:) costs about as much per request as everything else the generator does; on
 * loopback that cost is what limits one core.
 *
 * It reads what HTTP/1.1 lets a server send back to a GET or POST (RFC 9112):
 * - interim 1xx answers, skipped (101 is refused: nothing asked to switch protocols);
 * - a body framed by Content-Length, by chunked transfer coding (extensions and trailers
 *   skipped), or by the connection's close; none for 204 and 304;
 * - `Connection: close`, and HTTP/1.0 without keep-alive: the socket is closed after the
 *   answer and the next request opens a new one.
 * Anything else (a malformed status line or size, conflicting lengths, bytes nobody asked for)
 * fails the request in flight as a protocol error and drops the connection.
 *
 * Bounds: the head is at most 64 KiB, the body MAX_BODY_BYTES; every request (connecting
 * included) has a deadline (deadlines.ts: one sweeper for every connection, a timer per request
 * would cost more than the rest), so a request fails between `timeoutMs` and
 * `timeoutMs + SWEEP_MS` after it was sent.
 *
 * Reads land in one buffer per thread (net's `onread`), not in a fresh 64 KiB allocation per read
 * pushed through the socket's Readable stream (its push, 'data' event and read-more tick): the
 * bytes kept past the read (a body, an unfinished line) are copied out of it at once, so the next
 * read, on any connection, can reuse it.
 */
import net from 'node:net';
import { trackDeadlines, type HasDeadline } from './deadlines.ts';
import { IDLE_KEEP_ALIVE_MS } from '../core/keep-alive.ts';
import { ConnectionError, type Connection, type ConnectionAnswer, type ConnectionRequest } from './connection.ts';
import { Settler } from './settler.ts';

export { SWEEP_MS } from './deadlines.ts';

export const MAX_HEAD_BYTES = 64 * 1024;
const MAX_CHUNK_LINE_BYTES = 1024;
const KEEP_ALIVE_MARGIN_MS = 1000;
const CRLF = Buffer.from('\r\n');
const CRLFCRLF = Buffer.from('\r\n\r\n');
const UNSAFE_IN_HEAD = /[\r\n\0]/;
const UNSAFE_IN_PATH = /[\s\0]/;
const HEX = /^[0-9a-fA-F]{1,15}$/;
const DIGITS = /^\d{1,15}$/;

const enum State {
  Idle,
  Head,
  Length,
  ChunkSize,
  ChunkData,
  ChunkEnd,
  Trailers,
  UntilClose,
}

const noop = (): void => undefined;

/** What every socket of this thread reads into (one read at a time runs on a thread). */
const READ_BUFFER_BYTES = 64 * 1024;
let readBuffer: Buffer | null = null;

/** A copy of `data[from, to)`: what outlives the read must not stay in the shared buffer. */
function copyOf(data: Buffer, from: number, to: number): Buffer {
  const out = Buffer.allocUnsafe(to - from);
  data.copy(out, 0, from, to);
  return out;
}

function headerBlock(headers: Readonly<Record<string, string>>): string {
  let block = '';
  for (const name in headers) {
    const value = headers[name]!;
    if (UNSAFE_IN_HEAD.test(name) || UNSAFE_IN_HEAD.test(value) || name.includes(':')) throw new ConnectionError(
      `header ${JSON.stringify(name)} cannot be sent: CR, LF, NUL or ':' in it`,
      'HPS_BAD_REQUEST',
    );
    block += `${name}: ${value}\r\n`;
  }
  return block;
}

/** What the head of one answer says about the body that follows and the connection after it. */
interface Head {
  status: number;
  /** -1: chunked; -2: until the connection closes; else the body's length. */
  length: number;
  closeAfter: boolean;
  /** How long the connection may idle before the next request (from `Keep-Alive: timeout=N`). */
  reuseWithinMs: number;
  /** A 429's Retry-After (read only on 429: no cost on the hot path). */
  retryAfter?: string;
}

/** The values of every `name:` header line in `lower` (the head, lowercased), trimmed. */
function valuesOf(lower: string, name: string): string[] {
  const out: string[] = [];
  for (let at = lower.indexOf(name); at >= 0; at = lower.indexOf(name, at + name.length)) {
    const end = lower.indexOf('\r\n', at + name.length);
    out.push(lower.slice(at + name.length, end < 0 ? lower.length : end).trim());
  }
  return out;
}

/** The comma-separated tokens of header values (most heads have one value and no comma). */
function tokens(values: string[]): string[] {
  if (values.length === 0 || (values.length === 1 && !values[0]!.includes(','))) return values;
  return values.flatMap((v) => v.split(',')).map((v) => v.trim());
}

/**
 * A server announcing `Keep-Alive: timeout=N` closes an idle connection after N s: a request
 * sent just then would be lost with the connection, so one idle for longer than N s less a
 * margin is replaced before the next request (undici does the same); one announcing nothing,
 * after IDLE_KEEP_ALIVE_MS.
 */
function reuseWithin(lower: string): number {
  const value = valuesOf(lower, '\r\nkeep-alive:').join(',');
  if (value === lastKeepAlive.value) return lastKeepAlive.ms; // a server sends the same value every time
  const t = /(?:^|[,\s])timeout=(\d{1,6})/.exec(value);
  const ms = t ? Number(t[1]) * 1000 - Math.min(KEEP_ALIVE_MARGIN_MS, Number(t[1]) * 500) : IDLE_KEEP_ALIVE_MS;
  lastKeepAlive = { value, ms };
  return lastKeepAlive.ms;
}
let lastKeepAlive = { value: '', ms: IDLE_KEEP_ALIVE_MS };

function parseHead(head: string, method: string): Head {
  // "HTTP/1.x NNN" then a space or the line's end
  const minor = head.charCodeAt(7) - 48;
  const status = Number(head.slice(9, 12));
  const after = head.length > 12 ? head.charCodeAt(12) : 32;
  if (!head.startsWith('HTTP/1.') || (minor !== 0 && minor !== 1) || head.charCodeAt(8) !== 32 || !DIGITS.test(head.slice(
    9,
    12,
  )) || (after !== 32 && after !== 13)) {
    throw new ConnectionError(`not an HTTP/1.x status line: ${JSON.stringify(head.slice(0, 40))}`, 'HPS_PROTOCOL');
  }
  if (status === 101) throw new ConnectionError('101 Switching Protocols to a request that asked for no upgrade', 'HPS_PROTOCOL');
  const lower = head.toLowerCase();
  const connection = tokens(valuesOf(lower, '\r\nconnection:'));
  const close = connection.includes('close') || (minor === 0 && !connection.includes('keep-alive'));
  const reuseWithinMs = close ? 0 : reuseWithin(lower);
  if (status === 429) return {
    ...framingOf(lower, status, method, close, reuseWithinMs),
    retryAfter: valuesOf(lower, '\r\nretry-after:')[0],
  };
  return framingOf(lower, status, method, close, reuseWithinMs);
}

function framingOf(lower: string, status: number, method: string, close: boolean, reuseWithinMs: number): Head {
  if (status < 200 || status === 204 || status === 304 || method === 'HEAD') return { status, length: 0, closeAfter: close, reuseWithinMs };
  // Transfer-Encoding overrides Content-Length; a coding other than chunked last runs to the close.
  const codings = tokens(valuesOf(lower, '\r\ntransfer-encoding:'));
  if (codings.length) return {
    status,
    length: codings.at(-1) === 'chunked' ? -1 : -2,
    closeAfter: close || codings.at(-1) !== 'chunked',
    reuseWithinMs,
  };
  // A list of equal values is one value (RFC 9110 8.6); anything else is unusable framing.
  const lengths = tokens(valuesOf(lower, '\r\ncontent-length:'));
  if (!lengths.length) return { status, length: -2, closeAfter: true, reuseWithinMs };
  for (const v of lengths) if (!DIGITS.test(v) || v !== lengths[0]) throw new ConnectionError(
    `unusable content-length: ${JSON.stringify(lengths.join(', '))}`,
    'HPS_PROTOCOL',
  );
  return { status, length: Number(lengths[0]), closeAfter: close, reuseWithinMs };
}

export class Http1Connection implements Connection, HasDeadline {
  private socket: net.Socket | null = null;
  private state = State.Idle;
  private method = '';
  private pending: Buffer | null = null;
  private head: Head = { status: 0, length: 0, closeAfter: false, reuseWithinMs: Infinity };
  /** When the last answer completed, and until when the connection may be reused. */
  private reuseUntil = Infinity;
  private left = 0;
  private chunks: Buffer[] = [];
  private size = 0;
  private deadline = Infinity;
  private readonly answer = new Settler<ConnectionAnswer>();
  private lastHeaders: Readonly<Record<string, string>> | null = null;
  private lastBlock = '';
  private closed = false;
  private readonly onError = (e: Error): void => this.fail(e, true);
  private readonly onClose = (): void => this.socketClosed();

  constructor(
    private readonly hostname: string,
    private readonly port: number,
    private readonly hostHeader: string,
    private readonly timeoutMs: number,
    private readonly maxBodyBytes: number,
  ) {
    trackDeadlines(this, true);
  }

  static forUrl(baseUrl: string, timeoutMs: number, maxBodyBytes: number): Http1Connection {
    const u = new URL(baseUrl);
    if (u.protocol !== 'http:') throw new ConnectionError(`${u.protocol} is not plain HTTP`, 'HPS_BAD_REQUEST');
    const hostname = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
    return new Http1Connection(hostname, Number(u.port || 80), u.host, timeoutMs, maxBodyBytes);
  }

  /** One request; the connection takes the next only once this one is answered or failed. */
  send(req: ConnectionRequest): Promise<ConnectionAnswer> {
    if (this.closed) return Promise.reject(new ConnectionError('connection closed by the generator', 'HPS_CONNECTION_CLOSED'));
    if (this.state !== State.Idle) return Promise.reject(new ConnectionError(
      'a request is already in flight on this connection',
      'HPS_BUSY',
    ));
    if (UNSAFE_IN_PATH.test(req.path) || !req.path.startsWith('/')) return Promise.reject(new ConnectionError(
      `path ${JSON.stringify(req.path.slice(0, 80))} cannot be sent`,
      'HPS_BAD_REQUEST',
    ));
    let block = this.lastBlock;
    if (req.headers !== this.lastHeaders) {
      try {
        block = headerBlock(req.headers);
      } catch (e) {
        return Promise.reject(e);
      }
      this.lastHeaders = req.headers;
      this.lastBlock = block;
    }
    let text = `${req.method} ${req.path} HTTP/1.1\r\nhost: ${this.hostHeader}\r\n${block}`;
    text += req.body === undefined ? '\r\n' : `content-length: ${Buffer.byteLength(req.body)}\r\n\r\n${req.body}`;
    this.method = req.method;
    this.state = State.Head;
    this.chunks = [];
    this.size = 0;
    const t = performance.now();
    if (this.socket && t > this.reuseUntil) this.drop(); // the server may be closing it: a new one
    this.deadline = t + this.timeoutMs;
    const answer = this.answer.next();
    (this.socket ?? this.connect()).write(text);
    return answer;
  }

  /** Closes the socket; a request in flight fails. */
  close(): Promise<void> {
    this.closed = true;
    trackDeadlines(this, false);
    this.fail(new ConnectionError('connection closed by the generator', 'HPS_CONNECTION_CLOSED'), true);
    return Promise.resolve();
  }

  /** Called by the sweeper: fails the request in flight once its deadline has passed. */
  checkDeadline(t: number): void {
    if (this.state !== State.Idle && t > this.deadline) this.fail(
      new ConnectionError(`no complete answer within ${this.timeoutMs} ms`, 'HPS_TIMEOUT'),
      true,
    );
  }

  private connect(): net.Socket {
    const buffer = (readBuffer ??= Buffer.allocUnsafe(READ_BUFFER_BYTES));
    // Only the current socket's bytes are read (a dropped one's never reach the next request).
    const onread = { buffer, callback: (n: number) => this.onRead(s, buffer, n) };
    const s: net.Socket = net.connect({ host: this.hostname, port: this.port, noDelay: true, onread });
    this.reuseUntil = Infinity;
    s.on('error', this.onError);
    s.on('close', this.onClose);
    this.socket = s;
    return s;
  }

  private drop(): void {
    const s = this.socket;
    if (!s) return;
    this.socket = null;
    s.off('close', this.onClose);
    s.on('error', noop); // a late error on a dropped socket concerns nobody
    s.destroy();
  }

  /** Fails the request in flight, if any; `dropSocket` closes the connection (the next request reconnects). */
  private fail(e: Error, dropSocket: boolean): void {
    if (dropSocket) this.drop();
    this.pending = null;
    if (this.state === State.Idle) return;
    this.state = State.Idle;
    this.chunks = [];
    this.answer.reject(e);
  }

  private socketClosed(): void {
    this.socket = null;
    if (this.state === State.UntilClose) this.complete();
    else this.fail(new ConnectionError('the server closed the connection before the answer was complete', 'HPS_CONNECTION_CLOSED'), false);
  }

  private complete(): void {
    const c = this.chunks;
    const body = c.length === 1 ? c[0]! : Buffer.concat(c, this.size);
    this.state = State.Idle;
    this.chunks = [];
    if (this.head.closeAfter) this.drop();
    else this.reuseUntil = this.head.reuseWithinMs === Infinity ? Infinity : performance.now() + this.head.reuseWithinMs;
    this.answer.resolve(this.head.retryAfter === undefined ? {
      status: this.head.status,
      body,
    } : { status: this.head.status, body, retryAfter: this.head.retryAfter });
  }

  private take(data: Buffer, at: number, n: number): void {
    this.size += n;
    if (this.size > this.maxBodyBytes) throw new ConnectionError(`answer larger than ${this.maxBodyBytes} bytes`, 'HPS_BODY_TOO_LARGE');
    this.chunks.push(copyOf(data, at, at + n));
  }

  /** Always true: returning false would pause the socket. */
  private onRead(s: net.Socket, buffer: Buffer, n: number): boolean {
    if (s === this.socket) this.read(buffer.subarray(0, n));
    return true;
  }

  /** `chunk` is the shared read buffer's (or holds a copy of it): what is kept past this call is copied. */
  private read(chunk: Buffer): void {
    const data = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = null;
    try {
      const at = this.parse(data, 0);
      if (at < data.length) {
        if (this.state === State.Idle) throw new ConnectionError('bytes after the answer that no request asked for', 'HPS_PROTOCOL');
        this.pending = copyOf(data, at, data.length);
      }
    } catch (e) {
      this.fail(e as Error, true);
    }
  }

  /** Consumes what it can of `data` from `at`; returns where it stopped (the rest waits for more bytes). */
  private parse(data: Buffer, at: number): number {
    while (at < data.length && this.state !== State.Idle) {
      const next = this.step(data, at);
      if (next < 0) return at;
      at = next;
    }
    return at;
  }

  /** One step of the answer's state machine from `at`: where it got to, or -1 to wait for more bytes. */
  private step(data: Buffer, at: number): number {
    switch (this.state) {
      case State.Head:
        return this.headStep(data, at);
      case State.Length:
      case State.ChunkData:
      case State.UntilClose:
        return this.bodyStep(data, at);
      case State.ChunkSize:
      case State.Trailers:
        return this.lineStep(data, at);
      case State.ChunkEnd:
        if (data.length - at < 2) return -1;
        if (data[at] !== 13 || data[at + 1] !== 10) throw new ConnectionError('chunk data not followed by CRLF', 'HPS_PROTOCOL');
        this.state = State.ChunkSize;
        return at + 2;
      default:
        return at;
    }
  }

  private headStep(data: Buffer, at: number): number {
    const end = data.indexOf(CRLFCRLF, at);
    if (end < 0) {
      if (data.length - at > MAX_HEAD_BYTES) throw new ConnectionError(`answer head longer than ${MAX_HEAD_BYTES} bytes`, 'HPS_PROTOCOL');
      return -1;
    }
    this.head = parseHead(data.toString('latin1', at, end), this.method);
    if (this.head.status < 200) return end + 4; // interim answer: the real one follows
    this.left = this.head.length;
    if (this.left === 0) this.complete();
    else this.state = this.left === -1 ? State.ChunkSize : this.left === -2 ? State.UntilClose : State.Length;
    return end + 4;
  }

  private bodyStep(data: Buffer, at: number): number {
    const n = this.state === State.UntilClose ? data.length - at : Math.min(this.left, data.length - at);
    this.take(data, at, n);
    if (this.state === State.UntilClose) return data.length;
    this.left -= n;
    if (this.left === 0) {
      if (this.state === State.Length) this.complete();
      else this.state = State.ChunkEnd;
    }
    return at + n;
  }

  /** A chunk-size line, or a trailer line (the empty one ends the answer). */
  private lineStep(data: Buffer, at: number): number {
    const end = data.indexOf(CRLF, at);
    if (end < 0) {
      if (data.length - at > (this.state === State.Trailers ? MAX_HEAD_BYTES : MAX_CHUNK_LINE_BYTES)) throw new ConnectionError(
        'chunk size or trailer line too long',
        'HPS_PROTOCOL',
      );
      return -1;
    }
    const line = data.toString('latin1', at, end);
    if (this.state === State.Trailers) {
      if (line === '') this.complete();
      return end + 2;
    }
    const size = line.split(';', 1)[0]!.trim();
    if (!HEX.test(size)) throw new ConnectionError(`malformed chunk size: ${JSON.stringify(line.slice(0, 40))}`, 'HPS_PROTOCOL');
    this.left = parseInt(size, 16);
    this.state = this.left === 0 ? State.Trailers : State.ChunkData;
    return end + 2;
  }
}

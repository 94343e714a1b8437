/**
 * Reads the durable log of a `hps-conformance sink` run (service/sink/README.md, "The log") for the judge.
 * The log is untrusted input: its size is capped before reading, it is streamed line by line
 * (service/sink/log-lines.ts: one line of at most `maxLineBytes` held at a time), every field read is
 * type-checked, and only a small record per attempt is kept (bodies are hashed, signatures checked
 * while the line is held, then dropped). A file that is not a sink log is one line and exit 2.
 */
import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { HarnessError } from '../../core/errors.ts';
import { logLines, parseSignatureHeader, verifySignature } from '../sink/index.ts';

/** One logged delivery of an event: what the judge needs, nothing more. */
export interface LoggedAttempt {
  seq: number;
  /** Arrival of the request head at the sink, epoch ms. */
  at: number;
  path: string;
  eventId: string;
  /** The Service-Event-ID header, or null when absent. */
  headerEventId: string | null;
  type: string | null;
  paymentId: string | null;
  /** SHA-256 of the body bytes as logged, computed here (the logged hash is not trusted). */
  bodySha256: string;
  bodySize: number;
  /** What the sink answered: an HTTP status, `timeout` (held past the 10 s time-out) or `reset`. */
  answer: number | 'timeout' | 'reset' | 'none';
  /** The signature: checked here with the profile's secret of that endpoint, else the sink's recorded verdict. */
  signature: { valid: boolean; problem: string | null; checkedHere: boolean; /** the header's t, when it parsed */ t?: number };
}

export interface ReadLog {
  bytes: number;
  sha256: string;
  lines: number;
  /** Lines not read: not JSON, over the line cap, of an unknown kind, fields of the wrong type, a torn last line. */
  skippedLines: number;
  tornTail: boolean;
  /** Signed deliveries whose body was not an event (no id): nothing to judge. */
  notEvents: number;
  attempts: LoggedAttempt[];
  /** Each sink start (epoch ms); a start after the first is a restart. */
  starts: number[];
  /** The sink closed in order at this instant (its `stop` line), or null (it crashed, or is still running). */
  stoppedAt: number | null;
  /** The first and last instants the log records. */
  firstAt: number;
  lastAt: number;
  /** When the sink was not listening: from the last line before a restart to the restart. */
  downtimes: Array<[number, number]>;
}

export interface LogCaps {
  /** The log file's size cap. */
  maxBytes: number;
  /** One line's cap: a delivery of the sink's largest body (1 MiB) in base64, plus its head. */
  maxLineBytes: number;
  /** Event deliveries kept: the sink's own store cap. */
  maxAttempts: number;
}

export const DEFAULT_CAPS: LogCaps = {
  maxBytes: 4 * 1024 ** 3,
  maxLineBytes: Math.ceil((4 / 3) * 1024 ** 2) + 256 * 1024,
  maxAttempts: 20_000,
};

/** Endpoint path → its signing secret (from the profile), to check every attempt's signature again. */
export type SecretsByPath = ReadonlyMap<string, string>;

const KNOWN_LINES = new Set(['start', 'stop', 'delivery', 'settled', 'redirect_hit']);

function badLog(file: string, why: string): HarnessError {
  return new HarnessError('HPS_ERR_USAGE', `webhooks judge: ${file}: ${why}`);
}

export async function readSinkLog(file: string, secrets: SecretsByPath | null, caps: LogCaps = DEFAULT_CAPS): Promise<ReadLog> {
  let size: number;
  try {
    const st = statSync(file);
    if (!st.isFile()) throw badLog(file, 'not a regular file');
    size = st.size;
  } catch (e) {
    throw e instanceof HarnessError ? e : badLog(file, `cannot read it (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (size === 0) throw badLog(file, 'empty: not a sink log');
  if (size > caps.maxBytes) throw badLog(file, `${size} bytes, over the judge's cap of ${caps.maxBytes} bytes`);
  const acc = new LogAccumulator(file, secrets, caps);
  try {
    for await (const item of logLines(file, size, caps.maxLineBytes)) {
      if (item.kind === 'line') acc.add(item.text);
      else acc.skip(item.kind === 'torn');
    }
  } catch (e) {
    if (e instanceof HarnessError) throw e;
    throw badLog(file, `cannot read it (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return acc.result(size, await fileSha256(file, size));
}

async function fileSha256(file: string, size: number): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(
    file,
    { start: 0, end: size - 1, highWaterMark: 1 << 20 },
  ) as AsyncIterable<Buffer>) hash.update(chunk);
  return hash.digest('hex');
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const strOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);

class LogAccumulator {
  private lines = 0;
  private skipped = 0;
  private torn = false;
  private notEvents = 0;
  private readonly attempts: LoggedAttempt[] = [];
  private readonly starts: number[] = [];
  private stoppedAt: number | null = null;
  private firstAt = Infinity;
  private lastAt = -Infinity;
  private readonly downtimes: Array<[number, number]> = [];
  private sawSinkLine = false;

  constructor(
    private readonly file: string,
    private readonly secrets: SecretsByPath | null,
    private readonly caps: LogCaps,
  ) {}

  skip(torn: boolean): void {
    this.lines++;
    this.skipped++;
    if (torn) this.torn = true;
  }

  add(text: string): void {
    if (text.trim() === '') return;
    this.lines++;
    let line: unknown;
    try {
      line = JSON.parse(text);
    } catch {
      line = undefined;
    }
    const kind = isObject(line) && typeof line.line === 'string' && KNOWN_LINES.has(line.line) ? line.line : null;
    // The first line decides whether this is a sink log at all: anything else is refused whole.
    if (!this.sawSinkLine && kind === null) throw badLog(
      this.file,
      `line ${this.lines} is not a sink log line (expected {"line":"start"|"delivery"|…})`,
    );
    this.sawSinkLine = true;
    if (kind === null || !this.fold(kind, line as Record<string, unknown>)) this.skipped++;
  }

  private seen(at: number): void {
    this.firstAt = Math.min(this.firstAt, at);
    this.lastAt = Math.max(this.lastAt, at);
  }

  private fold(kind: string, line: Record<string, unknown>): boolean {
    switch (kind) {
      case 'start': {
        if (!finite(line.at)) return false;
        // A restart: the sink was not listening from the last thing it recorded to now.
        if (this.starts.length && line.at > this.lastAt) this.downtimes.push([this.lastAt, line.at]);
        this.starts.push(line.at);
        this.stoppedAt = null;
        this.seen(line.at);
        return true;
      }
      case 'stop':
        if (!finite(line.at)) return false;
        this.stoppedAt = line.at;
        this.seen(line.at);
        return true;
      case 'delivery':
        return this.delivery(line.delivery);
      case 'settled':
        if (isObject(line.settled) && finite(line.settled.at)) this.seen(line.settled.at);
        return true;
      default: // redirect_hit: the run's HOOK-REDIRECT-NOT-FOLLOWED judges those
        if (isObject(line.hit) && finite(line.hit.receivedAt)) this.seen(line.hit.receivedAt);
        return true;
    }
  }

  private delivery(d: unknown): boolean {
    if (
      !isObject(d) ||
      !finite(d.seq) ||
      !finite(d.receivedAt) ||
      typeof d.path !== 'string' ||
      typeof d.body !== 'string' ||
      !isObject(d.headers) ||
      !isObject(d.answer)
    ) return false;
    this.seen(d.receivedAt);
    if (d.problem !== null && d.problem !== undefined) return true; // rejected (older logs kept some): not the target's signed event
    const event = isObject(d.event) && typeof d.event.id === 'string' ? d.event : null;
    if (!event) {
      this.notEvents++;
      return true;
    }
    if (this.attempts.length >= this.caps.maxAttempts) throw badLog(
      this.file,
      `more than ${this.caps.maxAttempts} event deliveries (the sink's own store cap): not a log the sink writes`,
    );
    const raw = Buffer.from(d.body, 'base64');
    const header = (name: string) => strOrNull((d.headers as Record<string, unknown>)[name]);
    this.attempts.push({
      seq: d.seq,
      at: d.receivedAt,
      path: d.path,
      eventId: event.id as string,
      headerEventId: header('service-event-id'),
      type: strOrNull(event.type),
      paymentId: strOrNull(event.paymentId),
      bodySha256: createHash('sha256').update(raw).digest('hex'),
      bodySize: raw.length,
      answer: answerOf(d.answer),
      signature: this.signature(d, raw, header('service-signature')),
    });
    return true;
  }

  private signature(d: Record<string, unknown>, raw: Buffer, header: string | null): LoggedAttempt['signature'] {
    const secret = this.secrets?.get(d.path as string);
    const parsed = header === null ? null : parseSignatureHeader(header);
    const t = parsed?.ok ? { t: parsed.t } : {};
    if (secret !== undefined) {
      const v = verifySignature({ header: header ?? undefined, rawBody: raw, secrets: [secret], toleranceSeconds: null });
      return { valid: v.valid, problem: v.valid ? null : (v.problem ?? 'invalid'), checkedHere: true, ...t };
    }
    const recorded = isObject(d.signature) && d.signature.valid === true;
    return { valid: recorded, problem: recorded ? null : 'the sink recorded it as not valid', checkedHere: false, ...t };
  }

  result(bytes: number, sha256: string): ReadLog {
    if (!this.sawSinkLine) throw badLog(this.file, 'no line could be read: not a sink log');
    return {
      bytes, sha256, lines: this.lines, skippedLines: this.skipped, tornTail: this.torn, notEvents: this.notEvents,
      attempts: this.attempts.sort((a, b) => a.at - b.at || a.seq - b.seq),
      starts: this.starts, stoppedAt: this.stoppedAt,
      firstAt: Number.isFinite(this.firstAt) ? this.firstAt : 0, lastAt: Number.isFinite(this.lastAt) ? this.lastAt : 0,
      downtimes: this.downtimes,
    };
  }
}

function answerOf(a: Record<string, unknown>): LoggedAttempt['answer'] {
  if ((a.kind === 'status' || a.kind === 'redirect') && Number.isInteger(a.status)) return a.status as number;
  if (a.kind === 'timeout') return 'timeout';
  if (a.kind === 'reset') return 'reset';
  return 'none';
}

/** A 2xx answer acknowledges (spec, Delivery rules 1); anything else the sink answered is a failure. */
export function acknowledged(a: LoggedAttempt): boolean {
  return typeof a.answer === 'number' && a.answer >= 200 && a.answer < 300;
}

/**
 * The sink's append-only log: one JSON object per line (JSONL), written with a synchronous append and
 * fdatasync before the answer is sent, so a crash after an answer never loses the request it answered.
 * Opening an existing log reloads it, so a restarted sink keeps its history (and its seq numbers,
 * attempt counts and redirect tokens). The reload is streamed (log-lines.ts: one line of at most a
 * whole delivery held at a time) and keeps what the running sink would (its caps, its rings), so a log
 * of any size reloads in bounded memory; a line that cannot be read, is too long, is past the caps, or
 * is a torn last line (a crash mid-write) is skipped and counted. The file is created 0600.
 *
 * Lines:
 *   {"line":"start","at":<ms>,"pid":<n>,"endpoints":[EndpointSummary...]}   each time a sink starts
 *   {"line":"stop","at":<ms>,"pid":<n>}                                      the sink closed in order (the end of what it watched)
 *   {"line":"delivery","delivery":Delivery}                                   every request, before its answer
 *   {"line":"settled","seq":<n>,"settled":HoldSettlement}                     a held answer ended
 *   {"line":"redirect_hit","hit":RedirectHit}                                 one of our redirect targets was requested (first 3 per token)
 */
import { closeSync, fdatasyncSync, fstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { logLines } from './log-lines.ts';
import { RedirectHitRing, type RedirectHitLimits } from './redirect-hits.ts';
import { isRejected, RejectedRing, type RingLimits } from './rejected-ring.ts';
import type { Delivery, EndpointSummary, HoldSettlement, RedirectHit } from './types.ts';
import type { SinkErrorCode } from '../../core/error-codes.ts';

export type LogLine =
  | { line: 'start'; at: number; pid: number; endpoints: EndpointSummary[] }
  /** The sink closed in order (a crash leaves none): until then, anything sent was recorded. */
  | { line: 'stop'; at: number; pid: number }
  | { line: 'delivery'; delivery: Delivery }
  | { line: 'settled'; seq: number; settled: HoldSettlement }
  | { line: 'redirect_hit'; hit: RedirectHit };

export interface LoadedLog {
  deliveries: Delivery[];
  /** The redirect hits kept (the ring per endpoint; hits with a token of no reloaded delivery are dropped). */
  redirectHits: RedirectHitRing;
  /** Lines not taken: unreadable, longer than the line cap, deliveries past the store's caps, the torn last line. */
  skippedLines: number;
  /** The last line had no LF (a crash mid-write): skipped. */
  tornTail: boolean;
  /** Rejected requests read beyond the ring's size (counted, not kept). */
  rejectedNotKept: number;
}

export interface DeliveryLog {
  readonly file: string;
  /** Appends one line and flushes it to disk. Throws on an I/O error (the caller answers 500). */
  append(line: LogLine): void;
  close(): void;
}

export interface OpenDeliveryLogOptions {
  /** fdatasync after each line. Default true. */
  sync?: boolean;
}

/**
 * What a reload keeps, whatever the log's size: at most `maxDeliveries` deliveries holding at most
 * `maxStoredBodyBytes` of raw bodies (the same caps the sink applies while running), the rings, and
 * one line of at most `maxLineBytes` being read.
 */
export interface ReloadLimits {
  maxDeliveries: number;
  maxStoredBodyBytes: number;
  maxLineBytes: number;
  rejectedRing?: RingLimits;
  redirectHits?: RedirectHitLimits;
}

/** Generous defaults for reading a log outside a sink (tests, tools). */
export const READ_ALL: ReloadLimits = {
  maxDeliveries: Number.MAX_SAFE_INTEGER,
  maxStoredBodyBytes: Number.MAX_SAFE_INTEGER,
  maxLineBytes: 64 * 1024 * 1024,
};

/** The log could not be opened or read: the message names the file. */
export class DeliveryLogError extends Error {
  readonly code = 'SINK_LOG' satisfies SinkErrorCode;
  constructor(readonly file: string, message: string) {
    super(`${file}: ${message}`);
    this.name = 'DeliveryLogError';
  }
}

/**
 * Opens (creating it 0600, in a directory created 0700) and reloads a log within `limits` (default:
 * keep everything, for tools and tests; a sink passes its own caps).
 */
export async function openDeliveryLog(
  file: string,
  options: OpenDeliveryLogOptions & { limits?: ReloadLimits } = {},
): Promise<{ log: DeliveryLog; loaded: LoadedLog }> {
  let fd: number;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    fd = openSync(file, 'a+', 0o600);
  } catch (error) {
    throw new DeliveryLogError(file, `cannot open the delivery log (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const sync = options.sync ?? true;
  let loaded: LoadedLog;
  try {
    loaded = await readLog(file, fstatSync(fd).size, options.limits ?? READ_ALL);
    // A torn last line (no final LF) must not glue itself to the next line we write.
    if (loaded.tornTail) writeSync(fd, '\n');
  } catch (error) {
    closeSync(fd);
    if (error instanceof DeliveryLogError) throw error;
    throw new DeliveryLogError(
      file,
      `cannot reload the delivery log (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  let closed = false;
  const log: DeliveryLog = {
    file,
    append(line) {
      if (closed) throw new Error('delivery log is closed');
      writeSync(fd, `${JSON.stringify(line)}\n`);
      if (sync) fdatasyncSync(fd);
    },
    close() {
      if (closed) return;
      closed = true;
      closeSync(fd);
    },
  };
  return { log, loaded };
}

/** Folds log lines into records; settlements join their deliveries. */
export class LogReader {
  readonly deliveries: Delivery[] = [];
  readonly redirectHits: RedirectHitRing;
  skippedLines = 0;
  private readonly bySeq = new Map<number, Delivery>();
  /** Redirect tokens of the deliveries kept, and their endpoint paths. */
  private readonly tokenPaths = new Map<string, string>();
  private bodyBytes = 0;
  /** Rejected requests: only what the rings keep is kept while reading (bounded memory). */
  private readonly ring: RejectedRing;

  constructor(private readonly limits: ReloadLimits = READ_ALL) {
    this.ring = new RejectedRing(limits.rejectedRing);
    this.redirectHits = new RedirectHitRing(limits.redirectHits);
  }

  /** One line of text (without its LF). */
  add(raw: string): void {
    if (raw.trim() === '') return;
    let line: LogLine;
    try {
      line = JSON.parse(raw) as LogLine;
    } catch {
      this.skippedLines++;
      return;
    }
    if (line === null || typeof line !== 'object' || !this.fold(line)) this.skippedLines++;
  }

  private fold(line: LogLine): boolean {
    switch (line.line) {
      case 'delivery':
        if (typeof line.delivery?.seq !== 'number' || typeof line.delivery.body !== 'string') return false;
        if (isRejected(line.delivery)) this.ring.add(line.delivery);
        else return this.keep(line.delivery);
        return true;
      case 'settled': {
        const delivery = this.bySeq.get(line.seq);
        if (delivery) delivery.settled = line.settled;
        return delivery !== undefined;
      }
      case 'redirect_hit': {
        // Only hits with a token of a kept delivery: older logs also hold strangers' hits (and bodies).
        const path = typeof line.hit?.n === 'number' && typeof line.hit.token === 'string' ? this.tokenPaths.get(line.hit.token) : undefined;
        if (path === undefined) return false;
        this.redirectHits.add({ ...line.hit, endpoint: path }, path);
        return true;
      }
      case 'start':
      case 'stop':
        return true;
      default:
        return false;
    }
  }

  /** A valid delivery, kept within the store's caps (count and body bytes); past them, skipped. */
  private keep(delivery: Delivery): boolean {
    const bytes = storedBodyBytes(delivery);
    if (this.deliveries.length >= this.limits.maxDeliveries || this.bodyBytes + bytes > this.limits.maxStoredBodyBytes) return false;
    this.bodyBytes += bytes;
    this.deliveries.push(delivery);
    this.bySeq.set(delivery.seq, delivery);
    const answer = delivery.answer;
    if ((answer?.kind === 'redirect' || answer?.kind === 'status') && answer.redirectToken) this.tokenPaths.set(
      answer.redirectToken,
      delivery.path,
    );
    return true;
  }

  result(tornTail = false): LoadedLog {
    const kept = this.ring.kept();
    const deliveries = kept.length ? [...this.deliveries, ...kept].sort((a, b) => a.seq - b.seq) : this.deliveries;
    return {
      deliveries,
      redirectHits: this.redirectHits,
      skippedLines: this.skippedLines,
      tornTail,
      rejectedNotKept: this.ring.count - kept.length,
    };
  }
}

/** The raw bytes a stored delivery holds (its body is kept as base64). */
export function storedBodyBytes(delivery: Delivery): number {
  return Math.ceil((delivery.body.length * 3) / 4);
}

/** Streams the first `size` bytes of a log line by line (log-lines.ts); a last line without LF is torn: skipped and counted. */
async function readLog(file: string, size: number, limits: ReloadLimits): Promise<LoadedLog> {
  const reader = new LogReader(limits);
  let tornTail = false;
  for await (const item of logLines(file, size, limits.maxLineBytes)) {
    if (item.kind === 'line') reader.add(item.text);
    else {
      reader.skippedLines++;
      tornTail = item.kind === 'torn';
    }
  }
  return reader.result(tornTail);
}

/**
 * The sink's append-only log: one JSON object per line (JSONL), written with a synchronous append and
 * fdatasync before the answer is sent, so a crash after an answer never loses the request it answered.
 * Opening an existing log reloads it, so a restarted sink keeps its history (and its seq numbers,
 * attempt counts and redirect tokens). The reload is streamed (readline over a read stream), so a log
 * of any size reloads; a line that cannot be read, and a torn last line (a crash mid-write), is skipped
 * and counted. The file is created 0600.
 *
 * Lines:
 *   {"line":"start","at":<ms>,"pid":<n>,"endpoints":[EndpointSummary...]}   each time a sink starts
 *   {"line":"delivery","delivery":Delivery}                                   every request, before its answer
 *   {"line":"settled","seq":<n>,"settled":HoldSettlement}                     a held answer ended
 *   {"line":"redirect_hit","hit":RedirectHit}                                 a redirect target was requested
 */
import { closeSync, createReadStream, fdatasyncSync, fstatSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { isRejected, RejectedRing, type RingLimits } from './rejected-ring.ts';
import type { Delivery, EndpointSummary, HoldSettlement, RedirectHit } from './types.ts';

export type LogLine =
  | { line: 'start'; at: number; pid: number; endpoints: EndpointSummary[] }
  | { line: 'delivery'; delivery: Delivery }
  | { line: 'settled'; seq: number; settled: HoldSettlement }
  | { line: 'redirect_hit'; hit: RedirectHit };

export interface LoadedLog {
  deliveries: Delivery[];
  redirectHits: RedirectHit[];
  /** Lines that could not be read, the torn last line included. */
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

/** The log could not be opened or read: the message names the file. */
export class DeliveryLogError extends Error {
  readonly code = 'SINK_LOG';
  constructor(readonly file: string, message: string) {
    super(`${file}: ${message}`);
    this.name = 'DeliveryLogError';
  }
}

/**
 * Opens (creating it 0600, in a directory created 0700) and reloads a log. The reload is streamed
 * line by line, so a log of any size reloads in bounded memory (beyond what is kept: stored
 * deliveries; rejected requests go to a capped ring).
 */
export async function openDeliveryLog(file: string, options: OpenDeliveryLogOptions & { rejectedRing?: RingLimits } = {}): Promise<{ log: DeliveryLog; loaded: LoadedLog }> {
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
    loaded = await readLog(file, fstatSync(fd).size, options.rejectedRing);
    // A torn last line (no final LF) must not glue itself to the next line we write.
    if (loaded.tornTail) writeSync(fd, '\n');
  } catch (error) {
    closeSync(fd);
    if (error instanceof DeliveryLogError) throw error;
    throw new DeliveryLogError(file, `cannot reload the delivery log (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
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
  readonly redirectHits: RedirectHit[] = [];
  skippedLines = 0;
  private readonly bySeq = new Map<number, Delivery>();
  /** Rejected requests: only what the rings keep is kept while reading (bounded memory). */
  private readonly ring: RejectedRing;

  constructor(limits?: RingLimits) {
    this.ring = new RejectedRing(limits);
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
        if (typeof line.delivery?.seq !== 'number') return false;
        if (isRejected(line.delivery)) this.ring.add(line.delivery);
        else {
          this.deliveries.push(line.delivery);
          this.bySeq.set(line.delivery.seq, line.delivery);
        }
        return true;
      case 'settled': {
        const delivery = this.bySeq.get(line.seq);
        if (delivery) delivery.settled = line.settled;
        return delivery !== undefined;
      }
      case 'redirect_hit':
        if (typeof line.hit?.n !== 'number') return false;
        this.redirectHits.push(line.hit);
        return true;
      case 'start':
        return true;
      default:
        return false;
    }
  }

  result(tornTail = false): LoadedLog {
    const kept = this.ring.kept();
    const deliveries = kept.length ? [...this.deliveries, ...kept].sort((a, b) => a.seq - b.seq) : this.deliveries;
    return { deliveries, redirectHits: this.redirectHits, skippedLines: this.skippedLines, tornTail, rejectedNotKept: this.ring.count - kept.length };
  }
}

/** Reads a log's text into records (small logs, tests); settlements are folded into their deliveries. */
export function parseLog(text: string): LoadedLog {
  const reader = new LogReader();
  const lines = text.split('\n');
  const torn = text.length > 0 && !text.endsWith('\n');
  for (const [i, raw] of lines.entries()) {
    if (torn && i === lines.length - 1) reader.skippedLines++; // a torn last line is never trusted
    else reader.add(raw);
  }
  return reader.result(torn);
}

/** Streams the first `size` bytes of a log line by line; a last line without LF is torn: skipped and counted. */
async function readLog(file: string, size: number, limits?: RingLimits): Promise<LoadedLog> {
  const reader = new LogReader(limits);
  if (size === 0) return reader.result();
  const lastByte = Buffer.alloc(1);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, lastByte, 0, 1, size - 1);
  } finally {
    closeSync(fd);
  }
  const tornTail = lastByte[0] !== 0x0a;
  const lines = createInterface({ input: createReadStream(file, { start: 0, end: size - 1, encoding: 'utf8', highWaterMark: 1 << 20 }), crlfDelay: Infinity });
  let pending: string | undefined;
  for await (const line of lines) {
    if (pending !== undefined) reader.add(pending);
    pending = line;
  }
  if (pending !== undefined) {
    if (tornTail) reader.skippedLines++;
    else reader.add(pending);
  }
  return reader.result(tornTail);
}

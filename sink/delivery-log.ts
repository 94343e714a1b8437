/**
 * The sink's append-only log: one JSON object per line (JSONL), written with a synchronous append and
 * fdatasync before the answer is sent, so a crash after an answer never loses the request it answered.
 * Opening an existing log reloads it, so a restarted sink keeps its history (and its seq numbers,
 * attempt counts and redirect tokens). A line that cannot be read (the torn tail of a crash) is skipped
 * and counted.
 *
 * Lines:
 *   {"line":"start","at":<ms>,"pid":<n>,"endpoints":[EndpointSummary...]}   each time a sink starts
 *   {"line":"delivery","delivery":Delivery}                                   every request, before its answer
 *   {"line":"settled","seq":<n>,"settled":HoldSettlement}                     a held answer ended
 *   {"line":"redirect_hit","hit":RedirectHit}                                 a redirect target was requested
 */
import { closeSync, fdatasyncSync, fstatSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Delivery, EndpointSummary, HoldSettlement, RedirectHit } from './types.ts';

export type LogLine =
  | { line: 'start'; at: number; pid: number; endpoints: EndpointSummary[] }
  | { line: 'delivery'; delivery: Delivery }
  | { line: 'settled'; seq: number; settled: HoldSettlement }
  | { line: 'redirect_hit'; hit: RedirectHit };

export interface LoadedLog {
  deliveries: Delivery[];
  redirectHits: RedirectHit[];
  skippedLines: number;
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

export function openDeliveryLog(file: string, options: OpenDeliveryLogOptions = {}): { log: DeliveryLog; loaded: LoadedLog } {
  mkdirSync(dirname(file), { recursive: true });
  const fd = openSync(file, 'a+');
  const sync = options.sync ?? true;
  let loaded: LoadedLog;
  try {
    const text = readAll(fd);
    loaded = parseLog(text);
    // A torn last line (no final LF) must not glue itself to the next line we write.
    if (text.length > 0 && !text.endsWith('\n')) writeSync(fd, '\n');
  } catch (error) {
    closeSync(fd);
    throw error;
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

/** Reads a log's text into records; settlements are folded into their deliveries. */
export function parseLog(text: string): LoadedLog {
  const deliveries: Delivery[] = [];
  const bySeq = new Map<number, Delivery>();
  const redirectHits: RedirectHit[] = [];
  let skippedLines = 0;
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    let line: LogLine;
    try {
      line = JSON.parse(raw) as LogLine;
    } catch {
      skippedLines++;
      continue;
    }
    if (line === null || typeof line !== 'object') {
      skippedLines++;
      continue;
    }
    switch (line.line) {
      case 'delivery':
        if (typeof line.delivery?.seq !== 'number') {
          skippedLines++;
          break;
        }
        deliveries.push(line.delivery);
        bySeq.set(line.delivery.seq, line.delivery);
        break;
      case 'settled': {
        const delivery = bySeq.get(line.seq);
        if (delivery) delivery.settled = line.settled;
        else skippedLines++;
        break;
      }
      case 'redirect_hit':
        if (typeof line.hit?.n === 'number') redirectHits.push(line.hit);
        else skippedLines++;
        break;
      case 'start':
        break;
      default:
        skippedLines++;
    }
  }
  return { deliveries, redirectHits, skippedLines };
}

function readAll(fd: number): string {
  const size = fstatSync(fd).size;
  const buffer = Buffer.alloc(size);
  let offset = 0;
  while (offset < size) {
    const n = readSync(fd, buffer, offset, size - offset, offset);
    if (n === 0) break;
    offset += n;
  }
  return buffer.subarray(0, offset).toString('utf8');
}

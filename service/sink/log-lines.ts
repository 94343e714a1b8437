/**
 * The lines of a log file, streamed in bounded memory: at most `maxLineBytes` of one line are ever
 * held (a longer line is skipped to its LF and reported as `null`), plus one read chunk. A last line
 * without its LF (a crash mid-write) is reported as torn, never parsed.
 */
import { createReadStream } from 'node:fs';

export type LogLineItem = { kind: 'line'; text: string } | { kind: 'overlong' } | { kind: 'torn' };

const CHUNK_BYTES = 1 << 20;

export async function* logLines(file: string, size: number, maxLineBytes: number): AsyncGenerator<LogLineItem> {
  if (size === 0) return;
  let parts: Buffer[] = [];
  let held = 0;
  let overlong = false;
  for await (const chunk of createReadStream(file, { start: 0, end: size - 1, highWaterMark: CHUNK_BYTES }) as AsyncIterable<Buffer>) {
    let from = 0;
    for (let lf = chunk.indexOf(0x0a, from); lf !== -1; lf = chunk.indexOf(0x0a, from)) {
      if (!overlong && held + (lf - from) <= maxLineBytes) {
        parts.push(chunk.subarray(from, lf));
        yield { kind: 'line', text: Buffer.concat(parts).toString('utf8') };
      } else yield { kind: 'overlong' };
      [parts, held, overlong, from] = [[], 0, false, lf + 1];
    }
    if (from < chunk.length && !overlong) {
      held += chunk.length - from;
      if (held > maxLineBytes) [parts, overlong] = [[], true];
      else parts.push(Buffer.from(chunk.subarray(from))); // a copy: the chunk itself is not kept
    }
  }
  if (held > 0 || overlong) yield { kind: 'torn' };
}

/**
 * The lines of a log file, streamed in bounded memory: at most `maxLineBytes` of one line are ever
 * held (a longer line is skipped to its LF and reported as `null`), plus one read chunk. A last line
 * without its LF (a crash mid-write) is reported as torn, never parsed.
 */
import { open } from 'node:fs/promises';

export type LogLineItem = { kind: 'line'; text: string } | { kind: 'overlong' } | { kind: 'torn' };

const CHUNK_BYTES = 1 << 20;

/**
 * A line's text, decoded straight from the read buffer when the line lies within it: no copy per
 * line (a copy per line was ~620 MB of short-lived buffers for a 620 MB log; the reload's peak of
 * arrayBuffers went from 8 MB to 2 MB). Only a line that spans reads (at most one per read) is joined
 * from its copied parts.
 */
function lineText(parts: Buffer[], chunk: Buffer, from: number, lf: number): string {
  if (parts.length === 0) return chunk.toString('utf8', from, lf);
  return Buffer.concat([...parts, chunk.subarray(from, lf)]).toString('utf8');
}

/**
 * One buffer is read into again and again, not a new chunk per read left to the collector. (The
 * ~260 MB of growth once reported here for a busy machine, and ~285 MB later, were measured with
 * getrusage's maxRSS, which carries the forking parent's peak: test/sink/reload-child.ts.)
 */
export async function* logLines(file: string, size: number, maxLineBytes: number): AsyncGenerator<LogLineItem> {
  if (size === 0) return;
  let parts: Buffer[] = [];
  let held = 0;
  let overlong = false;
  const handle = await open(file, 'r');
  const chunkBuffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, size));
  try {
    for (let position = 0; position < size;) {
      const { bytesRead } = await handle.read(chunkBuffer, 0, Math.min(chunkBuffer.length, size - position), position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const chunk = chunkBuffer.subarray(0, bytesRead);
      let from = 0;
      for (let lf = chunk.indexOf(0x0a, from); lf !== -1; lf = chunk.indexOf(0x0a, from)) {
        if (!overlong && held + (lf - from) <= maxLineBytes) yield { kind: 'line', text: lineText(parts, chunk, from, lf) };
        else yield { kind: 'overlong' };
        [parts, held, overlong, from] = [[], 0, false, lf + 1];
      }
      if (from < chunk.length && !overlong) {
        held += chunk.length - from;
        if (held > maxLineBytes) [parts, overlong] = [[], true];
        else parts.push(Buffer.from(chunk.subarray(from))); // a copy: the buffer is read into again
      }
    }
  } finally {
    await handle.close();
  }
  if (held > 0 || overlong) yield { kind: 'torn' };
}

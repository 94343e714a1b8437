/**
 * Files the tool is given (profiles, report.json and certificate.json of others, signing keys,
 * load shards) read with a size cap (issue 31): a file, a device or a pipe that never ends
 * (`--profile /dev/zero`) stops the command with one line and exit 2, never fills memory. The size
 * is counted while reading, not taken from stat (a device or a pipe has none).
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { HarnessError, type HarnessErrorCode } from './errors.ts';
import { inertLine } from './inert.ts';

/** Caps of the files the tool reads, bytes. */
export const INPUT_CAPS = {
  profile: 1024 * 1024,
  signingKey: 64 * 1024,
  certificate: 1024 * 1024,
  /** A TLS file (`--ca`, `--client-cert`, `--client-key`): a CA bundle of a few hundred certificates fits. */
  pem: 4 * 1024 * 1024,
} as const;

const CHUNK = 64 * 1024;

/**
 * The file's text (UTF-8), read up to `cap` bytes; a longer file, or one that cannot be read, is a
 * HarnessError (`code`, exit 2) saying `what` and the path.
 */
export function readCappedText(path: string, cap: number, what: string, code: HarnessErrorCode = 'HPS_ERR_USAGE'): string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw new HarnessError(code, inertLine(`${what}: cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? 'error'})`));
  }
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(Math.min(CHUNK, cap + 1 - size));
      let n: number;
      try {
        n = readSync(fd, buf, 0, buf.length, null);
      } catch (e) {
        throw new HarnessError(code, inertLine(`${what}: cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? 'error'})`));
      }
      if (n === 0) break;
      size += n;
      if (size > cap) throw new HarnessError(code, inertLine(`${what}: ${path} is larger than the ${cap}-byte cap: not read`));
      chunks.push(buf.subarray(0, n));
    }
    return Buffer.concat(chunks, size).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

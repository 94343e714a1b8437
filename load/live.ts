/**
 * While the measured window runs: one merged line per interval (intervals.ts) written to
 * `--out ndjson=FILE` as it happens (for Grafana/Loki or a plotting script), and the live line:
 * rewritten in place on a terminal, one line per interval otherwise (CI logs).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { HarnessError } from '../core/errors.ts';
import { IntervalMerger, intervalText, type IntervalLine, type IntervalSnapshot } from './intervals.ts';

export interface LiveOptions {
  runId: string;
  workers: number;
  intervalS: number;
  windowS: number;
  /** `--out ndjson=FILE`. */
  ndjsonFile?: string;
  /** Where the live line goes; `tty`: rewrite it in place. */
  write: (text: string) => void;
  tty: boolean;
}

export interface Live {
  onInterval(s: IntervalSnapshot): void;
  /** Emits what is left, ends the live line, closes the file. */
  close(): void;
}

export function startLive(o: LiveOptions): Live {
  let fd: number | null = null;
  if (o.ndjsonFile) {
    try {
      fd = openSync(o.ndjsonFile, 'w', 0o644);
    } catch (e) {
      throw new HarnessError(
        'HPS_ERR_USAGE',
        `--out ndjson=${o.ndjsonFile}: cannot be written (${(e as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
  }
  let shown = false;
  const emit = (line: IntervalLine): void => {
    if (fd !== null) {
      try {
        writeSync(fd, `${JSON.stringify(line)}\n`);
      } catch {
        // A full disk must not stop the load; load.json is written at the end all the same.
      }
    }
    const text = intervalText(line, o.windowS);
    o.write(o.tty ? `\r\x1b[2K${text}` : `${text}\n`);
    shown = true;
  };
  const merger = new IntervalMerger(o.workers, o.intervalS, o.windowS, o.runId, emit);
  return {
    onInterval: (s) => merger.add(s),
    close() {
      merger.flush();
      if (o.tty && shown) o.write('\n');
      if (fd !== null) closeSync(fd);
    },
  };
}

/**
 * A run's files: report.json (through a temporary file and a rename, never through a symlink:
 * core/safe-write.ts), its certificate and its renderings, written by the one writer of report.json
 * (results/verdict/persist-report.ts). When the report directory fails late
 * (made unwritable, full, removed), the results are not lost: they go to a fallback directory of
 * their own under the temporary directory, named on stderr, and the run exits EXIT.reportFallback.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HarnessError } from '../../../core/errors.ts';
import { inertLine } from '../../../core/inert.ts';
import type { Profile } from '../../../core/profile.ts';
import type { KeyObject } from 'node:crypto';
import type { Certificate, Report } from '../../../catalogue/report/model.ts';
import { persistReport } from '../../../results/verdict/persist-report.ts';

export interface Written {
  /** Where the files are. */
  dir: string;
  /** Set when they could not go to the report directory: why. */
  fallbackBecause?: string;
  certificate: Certificate;
}

function writeAll(dir: string, report: Report, profile: Profile, key: KeyObject | undefined): Certificate {
  return persistReport(dir, report, { certificate: { profile, key } }).certificate!;
}

export function writeRunFiles(
  dir: string,
  report: Report,
  profile: Profile,
  key?: KeyObject,
  warn: (line: string) => void = (l) => void process.stderr.write(`${l}\n`),
): Written {
  try {
    return { dir, certificate: writeAll(dir, report, profile, key) };
  } catch (e) {
    const because = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    try {
      const fallback = mkdtempSync(join(tmpdir(), `hps-conformance-results-${report.run_id}-`));
      const certificate = writeAll(fallback, report, profile, key);
      warn(inertLine(`hps-conformance: cannot write the report into ${dir} (${because}): the results are in ${fallback} instead`));
      return { dir: fallback, fallbackBecause: because, certificate };
    } catch (e2) {
      throw new HarnessError(
        'HPS_ERR_REPORT',
        inertLine(`cannot write the report into ${dir} (${because}) nor into a fallback directory ` +
          `(${(e2 as NodeJS.ErrnoException).code ?? (e2 as Error).message}): the results are lost`),
      );
    }
  }
}

/**
 * One writer of report.json: results/verdict/persist-report.ts writes it (through the safe write,
 * core/safe-write.ts), for every side; no other module of the product writes a file by that name
 * (static scan: a write call on the same line as `report.json` or REPORT_FILE). Tests and benches
 * write fixtures of their own and are not scanned.
 */
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './source-files.ts';

const THE_WRITER = 'results/verdict/persist-report.ts';
const WRITE_CALL =
  /\b(?:writeFile|writeFileSync|writeFileAtomic|appendFile|appendFileSync|createWriteStream|openSync|renameSync|copyFileSync)\s*\(/;
const REPORT_NAME = /['"`](?:[^'"`]*\/)?report\.json['"`]|\bREPORT_FILE\b/;

/** The lines of a text that write report.json: `path:line`. */
export function reportWrites(path: string, text: string): string[] {
  return text.split('\n').flatMap((l, i) => (WRITE_CALL.test(l) && REPORT_NAME.test(l) ? [`${path}:${i + 1}`] : []));
}

describe('one writer of report.json', () => {
  const product = sourceFiles().filter((f) => !/^(test|bench)\//.test(f.path));

  it(`only ${THE_WRITER} writes report.json`, () => {
    expect(product.filter((f) => f.path !== THE_WRITER).flatMap((f) => reportWrites(f.path, f.text))).toEqual([]);
  });

  it('the writer writes it through the safe write', () => {
    const text = product.find((f) => f.path === THE_WRITER)!.text;
    expect(reportWrites(THE_WRITER, text)).toHaveLength(1);
    expect(text).toMatch(/writeFileAtomic\(join\(dir, REPORT_FILE\)/);
  });

  it('catches another writer (the check can fail)', () => {
    const text = "writeFileSync(join(out, 'report.json'), text);\nreadFileSync(join(d, 'report.json'));";
    expect(reportWrites('x.ts', text)).toEqual(['x.ts:1']);
  });
});

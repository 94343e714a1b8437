import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { HarnessError } from '../harness/errors.ts';
import { readReport, renderAll } from '../reports/render.ts';
import type { Options } from './main.ts';

/** `report DIR`: re-renders HTML, JUnit and Markdown from DIR/report.json alone. */
export async function reportCommand(_o: Options, pos: string[]): Promise<number> {
  const dir = pos[0];
  if (!dir || pos.length > 1) throw new HarnessError('HPS_ERR_USAGE', 'report: give exactly one DIR holding report.json');
  if (!existsSync(join(dir, 'report.json'))) throw new HarnessError('HPS_ERR_REPORT', `report: ${join(dir, 'report.json')} does not exist`);
  let report;
  try {
    report = readReport(dir);
  } catch (e) {
    throw new HarnessError('HPS_ERR_REPORT', `report: ${join(dir, 'report.json')} is not valid JSON (${(e as Error).message})`);
  }
  renderAll(dir, report);
  console.log(`rendered ${join(dir, 'report.html')}, junit.xml, summary.md`);
  return report.verdict === 'conformant' ? 0 : 1;
}

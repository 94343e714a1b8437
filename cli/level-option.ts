/** `--level must|should|observe`: which levels of rules a run (or --dry-run) selects. */
import { HarnessError } from '../core/errors.ts';
import type { Options } from './options.ts';

export type Level = 'MUST' | 'SHOULD' | 'OBSERVE';
const LEVELS: Record<string, Level[]> = { must: ['MUST'], should: ['MUST', 'SHOULD'], observe: ['MUST', 'SHOULD', 'OBSERVE'] };

export function levelOption(o: Options): Level[] | undefined {
  const v = o.level;
  if (v === undefined) return undefined;
  const levels = typeof v === 'string' && Object.hasOwn(LEVELS, v) ? LEVELS[v] : undefined;
  if (!levels) throw new HarnessError('HPS_ERR_USAGE', `--level ${String(v)}: must be must, should or observe`);
  return [...levels];
}

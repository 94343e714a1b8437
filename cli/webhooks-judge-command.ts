/** `webhooks judge --log FILE --report DIR [--profile P] [--time-scale N]`: the verdict on a long sink run's log (service/judge/). */
import { join } from 'node:path';
import { HarnessError } from '../core/errors.ts';
import { loadProfile } from '../core/profile.ts';
import { judgeSinkLog } from '../service/judge/run-judge.ts';
import { numberOption, type Options } from './options.ts';
import { checkOutputDir } from '../core/output-path.ts';

export async function webhooksJudgeCommand(o: Options): Promise<number> {
  if (typeof o.log !== 'string') throw new HarnessError(
    'HPS_ERR_USAGE',
    'webhooks judge: --log FILE is required (the log of a `hps-conformance sink` run)',
  );
  const timeScale = numberOption(o, 'time-scale', 0.001, 1_000_000);
  if (timeScale !== undefined && timeScale <= 0) throw new HarnessError('HPS_ERR_USAGE', '--time-scale: must be above 0');
  const profilePath = o.profile as string | undefined;
  const profile = profilePath ? loadProfile(profilePath) : undefined;
  const reportDir = (o.report as string | undefined) ?? join('reports', 'runs', `judge-${Date.now().toString(36)}`);
  // Before the log is read: a report directory that cannot be written would lose the verdict.
  checkOutputDir(o.report !== undefined ? reportDir : join('reports', 'runs'));
  const r = await judgeSinkLog({ logFile: o.log, reportDir, profile, profilePath, timeScale });
  return r.exitCode;
}

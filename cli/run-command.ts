import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createProgress, type RunMonitor } from '../service/harness/main/progress.ts';
import { run } from '../service/harness/main/run.ts';
import { addReplayLines } from '../results/verdict/judge-run.ts';
import { certificationLine, notCertificationReason } from '../results/verdict/certificate.ts';
import { requireLines, type UnmetRequirement } from '../results/verdict/require.ts';
import type { Certificate, Report } from '../catalogue/report/model.ts';
import { colourEnabled, paintLine, palette } from './colour.ts';
import { githubAnnotations, requireAnnotations } from './github.ts';
import { levelOption } from './level-option.ts';
import { intOption, listOption, numberOption, variantOption, type Options } from './options.ts';
import { checkRunInputs } from './run-inputs.ts';

export async function runCommand(o: Options): Promise<number> {
  const { flagTarget, flagNetwork, signKey } = checkRunInputs(o);
  const colour = palette(colourEnabled(process.stdout));
  const errColour = palette(colourEnabled(process.stderr));
  const maxFailures = intOption(o, 'max-failures', 1, 100000);
  const live = process.stderr.isTTY === true && !process.env.CI;
  let monitor: RunMonitor | undefined;
  const result = await run({
    profilePath: o.profile as string | undefined,
    profile: flagTarget?.profile,
    targetArgs: [...(flagTarget?.replayArgs ?? []), ...flagNetwork.replayArgs],
    network: flagNetwork.network,
    areas: listOption(o, 'area'),
    rules: listOption(o, 'rule'),
    // Only with --case: the case tables load the generators and fast-check (~60 modules).
    caseFilter: o.case === undefined ? undefined : (await import('./cases.ts')).caseOption(o.case, listOption(o, 'rule')),
    levels: levelOption(o),
    seed: intOption(o, 'seed', -2147483648, 2147483647),
    runs: intOption(o, 'runs', 1, 100000),
    reportDir: o.report as string | undefined,
    timeScale: intOption(o, 'time-scale', 1, 1000000),
    faults: listOption(o, 'fault'),
    variant: variantOption(o),
    requestTimeoutMs: intOption(o, 'request-timeout', 100, 600000),
    maxRps: numberOption(o, 'max-rps', 0.1, 100000),
    concurrency: intOption(o, 'concurrency', 1, 64),
    require: listOption(o, 'require'),
    signKey,
    policy: { strict: o.strict === true, minMustCoverage: intOption(o, 'min-must-coverage', 0, 100) },
    log: (l) => console.log(paintLine(l, colour)),
    interruptible: true,
    // Interrupted past the grace time: the emergency writer's report reaches CI as the normal path's does.
    onEmergencyWritten: (r) => afterRun(r.report, r.reportDir, colour, r.certificate, r.unmet ?? []),
    monitor: (selected, ctx) => {
      if (o['no-progress'] && maxFailures === undefined) return { reporter: {}, stopReason: () => undefined, firstLineMs: () => undefined };
      monitor = createProgress({
        selected,
        live,
        maxFailures,
        replay: (rules) => addReplayLines(rules, ctx),
        paint: errColour,
        write: o['no-progress'] ? () => {} : undefined,
      });
      return monitor;
    },
  });
  afterRun(result.report, result.reportDir, colour, result.certificate, result.unmet ?? []);
  if (process.env.HPS_PROGRESS_TIMING && monitor) console.error(`first progress line after ${monitor.firstLineMs() ?? '-'} ms`);
  return result.exitCode;
}

/** What the runner's summary does not say: the policy's reasons, whether this is a certification, CI hooks. */
function afterRun(
  report: Report,
  dir: string,
  colour: ReturnType<typeof palette>,
  cert: Certificate | undefined,
  unmet: readonly UnmetRequirement[],
): void {
  for (const b of report.policy?.failed_because ?? []) console.log(colour.red(`verdict failed ${b}`));
  if (report.stopped) console.log(colour.yellow(`the run ${report.stopped}: the rules not reached are SKIP`));
  for (const line of requireLines(unmet)) console.log(colour.red(line));
  const why = notCertificationReason(report);
  console.log(paintLine(cert ? certificationLine(cert, dir) : `NOT A CERTIFICATION: ${why ?? 'no certificate.json'}`, colour));
  const summaryFile = process.env.GITHUB_STEP_SUMMARY;
  if (summaryFile && existsSync(join(dir, 'summary.md'))) appendFileSync(summaryFile, readFileSync(join(dir, 'summary.md'), 'utf8') + '\n');
  if (process.env.GITHUB_ACTIONS === 'true') for (const line of [
    ...githubAnnotations(report),
    ...requireAnnotations(unmet),
  ]) console.log(line);
}

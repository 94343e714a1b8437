/**
 * `webhooks judge`: reads a sink log (read-log.ts), judges it (judge.ts), writes report.json, its
 * renderings (results/render/render.ts) and, with a profile, certificate.json; prints what it found.
 */
import { join, resolve } from 'node:path';
import { inertLine } from '../../core/inert.ts';
import { checkOutputDir } from '../../core/output-path.ts';
import { profileSecrets, type Profile } from '../../core/profile.ts';
import { redactDeep } from '../../core/redact.ts';
import type { Report } from '../../catalogue/report/model.ts';
import { partlyChecked } from '../../catalogue/report/partly-checked.ts';
import { settleClasses } from '../../results/verdict/classes.ts';
import { exitCodeOf } from '../../results/verdict/exit-code.ts';
import { persistReport } from '../../results/verdict/persist-report.ts';
import { settleVerdict } from '../../results/verdict/incomplete.ts';
import { judgeLog } from './judge.ts';
import { readSinkLog, type LogCaps } from './read-log.ts';
import { buildJudgeReport } from './report.ts';
import { realDuration, type Timing } from './schedule.ts';
import { invokedAs } from '../../core/invocation.ts';

export interface JudgeOptions {
  logFile: string;
  /** Where the reports go (checked before the log is read). */
  reportDir: string;
  /** Endpoint secrets (every signature checked again), time_scale, late_tolerance_ms, base_url. */
  profile?: Profile;
  profilePath?: string;
  /** Overrides the profile's webhooks.time_scale; default 1. */
  timeScale?: number;
  caps?: LogCaps;
  log?: (line: string) => void;
}

export interface JudgeResult {
  report: Report;
  reportDir: string;
  exitCode: number;
}

export async function judgeSinkLog(o: JudgeOptions): Promise<JudgeResult> {
  const startedAt = new Date();
  const reportDir = checkOutputDir(o.reportDir);
  const w = o.profile?.webhooks;
  const timing: Timing = {
    timeScale: o.timeScale ?? w?.time_scale ?? 1,
    ...(w?.late_tolerance_ms !== undefined ? { lateToleranceMs: w.late_tolerance_ms } : {}),
  };
  const secrets = w ? new Map(w.endpoints.map((e) => [e.path, e.secret])) : null;
  const log = await readSinkLog(resolve(o.logFile), secrets, o.caps);
  const judgement = judgeLog(log, timing);
  const replay = [
    `${invokedAs()} webhooks judge`,
    `--log ${o.logFile}`,
    o.profilePath ? `--profile ${o.profilePath}` : '',
    `--time-scale ${timing.timeScale}`,
  ].filter(Boolean).join(' ');
  const built = buildJudgeReport({ logFile: o.logFile, log, judgement, timing, baseUrl: o.profile?.base_url ?? null, startedAt, replay });
  const report = redactDeep(built, o.profile ? profileSecrets(o.profile) : []);
  // Per class as every report says it: the schedule's rules judged, the other classes not tested here.
  settleVerdict(report);
  settleClasses(report);
  persistReport(reportDir, report, o.profile ? { certificate: { profile: o.profile } } : {});
  printJudgeSummary(report, reportDir, o.log ?? ((l) => console.log(l)));
  return { report, reportDir, exitCode: exitCodeOf(report) };
}

function printJudgeSummary(report: Report, dir: string, log: (l: string) => void): void {
  const src = report.source_log!;
  const watched = realDuration(Date.parse(src.watched_until) - Date.parse(src.watched_from));
  const notes = [
    src.restarts ? ` · ${src.restarts} restart(s)` : '',
    src.skipped_lines ? ` · ${src.skipped_lines} line(s) not read` : '',
    src.stopped_in_order ? '' : ' · no stop line (the sink crashed or still runs)',
  ].join('');
  const counts = `${src.deliveries} deliveries of ${src.events} events`;
  log(`webhooks judge: ${src.file} · ${counts} · time scale ${src.time_scale} · watched ${watched}${notes}`);
  for (const r of report.rules) log(`  ${r.status.toUpperCase().padEnd(5)} ${inertLine(`${r.id}${r.reason ? ` — ${r.reason}` : ''}`)}`.slice(0, 400));
  for (const p of partlyChecked(report)) log(`  PARTLY CHECKED ${inertLine(`${p.id} — ${p.text}`)}`.slice(0, 700));
  const s = report.summary;
  log(`verdict: ${report.verdict} · pass ${s.pass} · fail ${s.fail} · warn ${s.warn} · skip ${s.skip} · judged in ${report.duration_ms} ` +
    `ms`);
  log(`report: ${inertLine(join(dir, 'report.html'))}`);
}

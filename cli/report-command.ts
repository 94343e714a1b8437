import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { EXIT, HarnessError } from '../core/errors.ts';
import { EXIT_OF_SIGNAL } from '../core/interrupt.ts';
import { inertLine } from '../core/inert.ts';
import { checkOutputFile } from '../core/output-path.ts';
import { readCertificateFile, readReportFile } from '../core/report-file.ts';
import { writeFileAtomic } from '../core/safe-write.ts';
import { loadCompanion } from '../load/in-report.ts';
import { renderCompare, type CompareInput } from '../results/render/compare.ts';
import { renderAll } from '../results/render/render.ts';
import type { Options } from './options.ts';
import { reportFromResultsLog, RESULTS_LOG } from '../service/harness/main/results-log.ts';
import { certifiedClasses } from '../results/verdict/certificate.ts';
import { classVerdicts } from '../results/verdict/classes.ts';
import { persistReport } from '../results/verdict/persist-report.ts';

/** Where `report --compare` writes its page without --out (beside reports/runs/). */
const DEFAULT_COMPARE_OUT = join('reports', 'compare.html');

/** The most report dirs one comparison page takes (columns beyond this are unreadable anyway); `load compare` too. */
export const MAX_COMPARE = 24;

/** DIR's report.json and certificate.json (when there is one), each validated against its schema (exit 2 on the first problem). */
function loadDir(dir: string): CompareInput {
  return { dir, report: readReportFile(dir), certificate: readCertificateFile(dir) };
}

/**
 * `report DIR [--strict]`: re-renders HTML, JUnit and Markdown from DIR/report.json alone (and
 * DIR/certificate.json when present); `--strict` makes WARN, FLAKY and skipped testable MUST rules
 * JUnit failures (as they are already when the run itself was `run --strict`).
 * `report --compare DIR[=LABEL] DIR[=LABEL] ... [--out FILE]`: one page comparing the reports side
 * by side, each column headed by its LABEL or its directory's name (default FILE: reports/compare.html;
 * the absolute path is printed).
 */
export async function reportCommand(o: Options, pos: string[]): Promise<number> {
  if (o.compare) return compareCommand(o, pos);
  if (o.out !== undefined) throw new HarnessError('HPS_ERR_USAGE', 'report: --out goes with --compare');
  const dir = pos[0];
  if (!dir || pos.length > 1) throw new HarnessError(
    'HPS_ERR_USAGE',
    'report: give exactly one DIR holding report.json (or --compare DIR DIR ...)',
  );
  const fromLog = !existsSync(join(dir, 'report.json')) ? reportFromResultsLog(dir) : undefined;
  if (fromLog) {
    // The run was killed before it wrote report.json: what had finished, marked partial (never a certification).
    const render = { strict: o.strict === true ? true : undefined, companion: loadCompanion(dir, fromLog), certificate: null };
    persistReport(dir, fromLog, { render });
    console.log(inertLine(`rendered ${join(
      dir,
      'report.html',
    )}, junit.xml, summary.md and report.json from ${RESULTS_LOG}: PARTIAL (${fromLog.partial_reason})`));
    return 1;
  }
  const { report, certificate } = loadDir(dir);
  const companion = loadCompanion(dir, report);
  renderAll(dir, report, { strict: o.strict === true ? true : undefined, companion, certificate: certificate ?? null });
  console.log(inertLine(`rendered ${join(
    dir,
    'report.html',
  )}, junit.xml, summary.md${companion ? ', with the load run beside it (load.json)' : ''}`));
  // The run was interrupted: its exit status stays the run's (130 / 143), not the verdict of what it reached.
  if (report.interrupted) {
    const { signal, after_s } = report.interrupted;
    console.log(inertLine(`PARTIAL: the run was interrupted by ${signal} after ${after_s} s: the rules not reached are SKIP; not a ` +
      `verdict on the whole (exit ${EXIT_OF_SIGNAL[signal]}, as the run's)`));
    return EXIT_OF_SIGNAL[signal];
  }
  return report.verdict === 'conformant' ? EXIT.conformant : report.verdict === 'incomplete' ? EXIT.incomplete : EXIT.notConformant;
}

/** Reports of different sides (service, receiver, client) judge different things: one table would mix them. */
function oneSide(inputs: readonly CompareInput[]): void {
  const sides = [...new Set(inputs.map((x) => x.report.side ?? 'service'))];
  if (sides.length === 1) return;
  const which = inputs.map((x) => `${basename(resolve(x.dir))} (${x.report.side ?? 'service'})`).join(', ');
  throw new HarnessError(
    'HPS_ERR_USAGE',
    inertLine(`report --compare: the reports are of different sides (${which}): compare reports of one side at a time`).slice(0, 600),
  );
}

/** The classes and the certified set, derived from the report's rules (never taken from the files as written); nothing certified without a certificate that says it certifies. */
function withScope(x: CompareInput): CompareInput {
  const classes = classVerdicts(x.report);
  return { ...x, scope: { classes, certified: x.certificate?.certification === true ? certifiedClasses(x.report, classes) : [] } };
}

/** The longest column label taken. */
const MAX_LABEL = 60;

/**
 * `DIR` or `DIR=LABEL` (the column's heading). An existing directory is taken whole, so a
 * directory whose name holds `=` still works; otherwise the last `=` splits.
 */
export function compareArg(arg: string, what = 'report --compare'): { dir: string; label?: string } {
  const at = arg.lastIndexOf('=');
  if (existsSync(arg) || at <= 0) return { dir: arg };
  const label = arg.slice(at + 1).trim();
  // eslint-disable-next-line no-control-regex
  if (label === '' || label.length > MAX_LABEL || /[\u0000-\u001f\u007f-\u009f]/.test(label)) {
    throw new HarnessError('HPS_ERR_USAGE', `${what}: the label after = must be 1-${MAX_LABEL} printable characters`);
  }
  return { dir: arg.slice(0, at), label };
}

async function compareCommand(o: Options, pos: string[]): Promise<number> {
  if (pos.length < 2) throw new HarnessError('HPS_ERR_USAGE', 'report --compare: give at least two DIRs holding report.json');
  if (pos.length > MAX_COMPARE) throw new HarnessError(
    'HPS_ERR_USAGE',
    `report --compare: at most ${MAX_COMPARE} DIRs (got ${pos.length})`,
  );
  if (o.strict) throw new HarnessError('HPS_ERR_USAGE', 'report --compare: --strict applies to re-rendering one DIR');
  // Under the reports folder unless --out says where; written before anything is rendered: a bad path costs nothing.
  const out = checkOutputFile(typeof o.out === 'string' && o.out ? o.out : DEFAULT_COMPARE_OUT, '--out');
  const inputs: CompareInput[] = pos.map((a) => compareArg(a)).map(({ dir, label }) => withScope({
    ...loadDir(dir),
    ...(label ? { label } : {}),
  }));
  oneSide(inputs);
  for (const x of inputs) {
    // The matrix links to each DIR/report.html#RULE-ID: render it if the run left none.
    if (!existsSync(join(x.dir, 'report.html'))) renderAll(x.dir, x.report, { certificate: x.certificate ?? null });
  }
  try {
    writeFileAtomic(out, renderCompare(inputs, out));
  } catch (e) {
    throw new HarnessError(
      'HPS_ERR_REPORT',
      inertLine(`report --compare: cannot write ${out} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`),
    );
  }
  console.log(inertLine(`compared ${inputs.length} reports: ${out}`));
  return 0;
}

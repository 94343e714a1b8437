/**
 * load.json: the machine-readable result of a load run (load.md, load.html, load.junit.xml and
 * the stdout table are rendered from it alone, by results/render/load-*.ts; `load merge` reads it back). Written through redactText: no
 * secret reaches a file.
 */
import { join } from 'node:path';
import { redactText } from '../core/redact.ts';
import { makeDirectory, writeFileAtomic } from '../core/safe-write.ts';
import type { LoadReportModel } from '../catalogue/report/load-model.ts';
import { renderLoadHtml } from '../results/render/load-html.ts';
import { renderLoadJunit } from '../results/render/load-junit.ts';
import { renderLoadMarkdown } from '../results/render/load-markdown.ts';
import type { CleanupOutcome } from './after.ts';
import type { Check } from './checks.ts';
import type { Arrivals } from './arrivals.ts';
import type { Figures } from './figures.ts';
import type { Thresholds } from './options.ts';
import type { Op, ScenarioName } from './scenarios.ts';
import type { ThresholdResult } from './thresholds.ts';
import type { LoadVerdict } from '../results/verdict/load-verdict.ts';

/** What `load` writes: the renderers' model (catalogue/report/load-model.ts) with the load side's own types. */
export interface LoadReport extends LoadReportModel {
  tool: { name: string; version: string };
  finished_at: string;
  /** The model's options (catalogue/report/load-model.ts says what each is), with the load side's types. */
  options: LoadReportModel['options'] & {
    scenario: ScenarioName;
    mix: Record<Op, number>;
    arrivals: Arrivals | null;
    /** Closed model: 429s waited out (--honour-retry-after); absent when not asked. */
    honour_retry_after?: boolean;
    thresholds: Thresholds;
  };
  /** With --shard: the run (its --run-id) and which shard of it this is; what `load merge` checks. */
  shard_of?: { run_id: string; index: number; count: number };
  /** Set by `load merge`: the shard reports merged into this one. */
  merged_from?: { dir: string; run_id: string; shard: { index: number; count: number } | null; responses: number }[];
  figures: Figures | null;
  checks: Check[];
  thresholds: ThresholdResult[];
  cleanup: CleanupOutcome | null;
  /** The run was interrupted (SIGINT/SIGTERM): the figures so far, never the whole run; partial_reason says why. */
  partial?: true;
  /** Decided by results/verdict/load-verdict.ts; incomplete only for a `load merge --allow-missing` with a shard missing. */
  verdict: LoadVerdict['verdict'];
  exit_code: LoadVerdict['exit_code'];
}

/** Writes load.json, load.md, load.html and load.junit.xml, all redacted. */
export function writeReport(dir: string, report: LoadReport, secrets: readonly string[]): void {
  makeDirectory(dir);
  writeFileAtomic(join(dir, 'load.json'), redactText(JSON.stringify(report, null, 2), secrets) + '\n');
  writeFileAtomic(join(dir, 'load.md'), redactText(renderLoadMarkdown(report), secrets));
  writeFileAtomic(join(dir, 'load.html'), redactText(renderLoadHtml(report), secrets));
  writeFileAtomic(join(dir, 'load.junit.xml'), redactText(renderLoadJunit(report), secrets));
}

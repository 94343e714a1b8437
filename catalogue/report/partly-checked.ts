/**
 * A rule that ran but could not check all it states (the webhook retry schedule at time scale 1: the
 * first two gaps in a run, the rest only in a long sink run) says so under this key of its
 * `observed` values: what was left and what would complete it. The console, summary.md and
 * report.html list those rules; this reads them from any report.json (untrusted: strings only, cut).
 */
import type { Report } from './model.ts';

export const PARTLY_CHECKED = 'partly_checked';

const MAX_TEXT = 600;

export function partlyChecked(report: Pick<Report, 'rules'>): Array<{ id: string; status: string; text: string }> {
  const out: Array<{ id: string; status: string; text: string }> = [];
  for (const r of report.rules) {
    const v = r.observed?.[PARTLY_CHECKED];
    if (typeof v === 'string' && v.trim()) out.push({
      id: r.id,
      status: r.status,
      text: v.length > MAX_TEXT ? `${v.slice(0, MAX_TEXT)}…` : v,
    });
  }
  return out;
}

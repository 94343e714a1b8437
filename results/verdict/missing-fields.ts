/** The profile fields a skipped rule's reason names as missing, read from report.json alone. */
import { getRule, isRuleId } from '../../catalogue/index.ts';
import type { RuleReport } from '../../catalogue/report/model.ts';

/** The profile fields a skipped rule's reason names as missing (`profile lacks keys.live`, `… lacks a and b: …`). */
export function missingFields(id: string, r: RuleReport): string[] {
  if (!isRuleId(id) || r.status !== 'skip') return [];
  const needs = ((getRule(id).needs ?? []) as readonly string[]).filter((n) => (r.reason ?? '').includes(n));
  const named = /profile lacks ([^:;(]+)/.exec(r.reason ?? '')?.[1] ?? '';
  const fields = named.split(/,| and | or /).map((f) => f.trim()).filter((f) => /^[a-z_]+(\.[a-z_]+)*$/.test(f));
  return [...new Set([...needs, ...fields])];
}

/** load.junit.xml: one testcase per threshold and per correctness check, for CI dashboards. */
import type { LoadReport } from './report.ts';

const xml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function renderJunit(r: LoadReport): string {
  const cases: string[] = [];
  const add = (cls: string, name: string, status: string, detail: string): void => {
    const body = status === 'fail' ? `<failure message="${xml(detail)}"/>` : status === 'skip' || status === 'off' ? `<skipped message="${xml(detail)}"/>` : `<system-out>${xml(detail)}</system-out>`;
    cases.push(`    <testcase classname="${xml(cls)}" name="${xml(name)}">${body}</testcase>`);
  };
  for (const t of r.thresholds) add('load.thresholds', t.id, t.status, t.detail);
  for (const c of r.checks) add('load.checks', c.id, c.status, c.detail);
  const failures = [...r.thresholds, ...r.checks].filter((x) => x.status === 'fail').length;
  const skipped = r.thresholds.filter((t) => t.status === 'off').length + r.checks.filter((c) => c.status === 'skip').length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="hps-conformance load" tests="${cases.length}" failures="${failures}">`,
    `  <testsuite name="load ${xml(r.run_id)}" tests="${cases.length}" failures="${failures}" skipped="${skipped}" timestamp="${xml(r.started_at)}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

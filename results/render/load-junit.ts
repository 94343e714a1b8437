/** load.junit.xml: one testcase per threshold and per correctness check, for CI dashboards (every value escaped: results/render/xml.ts). */
import type { LoadReportModel } from '../../catalogue/report/load-model.ts';
import { xmlAttr as xml, xmlText } from './xml.ts';

/** One `<testsuite>` (indented two spaces): one testcase per threshold and per check, with its counts. */
export function loadTestsuite(r: LoadReportModel): { xml: string; tests: number; failures: number } {
  const cases: string[] = [];
  const add = (cls: string, name: string, status: string, detail: string): void => {
    const body = status === 'fail' ? `<failure message="${xml(detail)}"/>` : status === 'skip' || status === 'off' ? `<skipped ` +
      `message="${xml(detail)}"/>` : `<system-out>${xmlText(detail)}</system-out>`;
    cases.push(`    <testcase classname="${xml(cls)}" name="${xml(name)}">${body}</testcase>`);
  };
  for (const t of r.thresholds) add('load.thresholds', t.id, t.status, t.detail);
  for (const c of r.checks) add('load.checks', c.id, c.status, c.detail);
  const failures = [...r.thresholds, ...r.checks].filter((x) => x.status === 'fail').length;
  const skipped = r.thresholds.filter((t) => t.status === 'off').length + r.checks.filter((c) => c.status === 'skip').length;
  return {
    xml: [
      `  <testsuite name="load ${xml(r.run_id)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" ` +
        `timestamp="${xml(r.started_at)}">`,
      ...cases,
      '  </testsuite>',
    ].join('\n'),
    tests: cases.length,
    failures,
  };
}

export function renderLoadJunit(r: LoadReportModel): string {
  const suite = loadTestsuite(r);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="hps-conformance load" tests="${suite.tests}" failures="${suite.failures}" errors="0">`,
    suite.xml,
    '</testsuites>',
    '',
  ].join('\n');
}

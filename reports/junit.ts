/**
 * JUnit XML: one testsuite per area, one testcase per rule. A FAIL is a
 * <failure>, harness trouble (ERROR) an <error>, SKIP a <skipped>; WARN, INFO
 * and FLAKY pass with their reason in <system-out>, so only MUST failures turn CI red.
 */
import type { Report, RuleReport } from './report-types.ts';

export function xmlEscape(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

function details(r: RuleReport): string {
  return r.evidence
    .map((e) => {
      switch (e.kind) {
        case 'mismatch': return `${e.message}${e.expected !== undefined ? `\n  expected: ${JSON.stringify(e.expected)}` : ''}${e.actual !== undefined ? `\n  actual:   ${JSON.stringify(e.actual)}` : ''}`;
        case 'exchange': return `> ${e.exchange.request.method} ${e.exchange.request.path}\n< ${e.exchange.response ? `${e.exchange.response.status} ${e.exchange.response.body.slice(0, 400)}` : e.exchange.transportError}`;
        case 'property': return `counterexample (seed ${e.seed}${e.path ? `, path ${e.path}` : ''}): ${e.counterexample}`;
        case 'replay': return `replay: ${e.command}`;
        case 'note': return e.message;
      }
    })
    .join('\n');
}

export function renderJunit(report: Report): string {
  const areas = [...new Set(report.rules.map((r) => r.area))];
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const time = (ms: number) => (ms / 1000).toFixed(3);
  out.push(`<testsuites name="hps-conformance" tests="${report.rules.length}" failures="${report.summary.fail}" errors="${report.summary.error}" skipped="${report.summary.skip}" time="${time(report.duration_ms)}">`);
  for (const area of areas) {
    const rules = report.rules.filter((r) => r.area === area);
    const n = (s: string) => rules.filter((r) => r.status === s).length;
    out.push(`  <testsuite name="${xmlEscape(area)}" tests="${rules.length}" failures="${n('fail')}" errors="${n('error')}" skipped="${n('skip')}" time="${time(rules.reduce((t, r) => t + r.tests.reduce((a, x) => a + x.duration_ms, 0), 0))}">`);
    for (const r of rules) {
      const dur = r.tests.reduce((a, x) => a + x.duration_ms, 0);
      out.push(`    <testcase classname="${xmlEscape(`hps.${area}`)}" name="${xmlEscape(`${r.id} [${r.level}] ${r.title}`)}" time="${time(dur)}">`);
      if (r.status === 'fail') out.push(`      <failure message="${xmlEscape(r.reason ?? 'failed')}" type="${r.level}">${xmlEscape(details(r))}</failure>`);
      else if (r.status === 'error') out.push(`      <error message="${xmlEscape(r.reason ?? 'error')}" type="harness">${xmlEscape(details(r))}</error>`);
      else if (r.status === 'skip') out.push(`      <skipped message="${xmlEscape(r.reason ?? 'skipped')}"/>`);
      else if (r.status !== 'pass') out.push(`      <system-out>${xmlEscape(`${r.status.toUpperCase()}: ${r.reason ?? ''}\n${r.observed ? JSON.stringify(r.observed, null, 2) : ''}\n${details(r)}`)}</system-out>`);
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return out.join('\n') + '\n';
}

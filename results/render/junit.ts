/**
 * JUnit XML that CI dashboards read right, valid against the common Ant/Jenkins JUnit schema
 * (test/fixtures/junit-10.xsd). One testsuite per area, one testcase per rule named by its stable
 * id (the title, level and status are testsuite properties `ID.title` …: that schema has no
 * testcase properties). FAIL is a <failure>, ERROR an <error>, SKIP a <skipped>. WARN and FLAKY
 * pass with a `<system-err>` and an `ID.status` property; with `strict` they (and a skipped
 * testable MUST rule) are failures, as `run --strict` judges them.
 */
import { classProperties } from './classes.ts';
import type { Report, RuleReport } from '../../catalogue/report/model.ts';
import { skippedTestableMust } from '../../catalogue/report/must-counts.ts';
import { xmlAttr, xmlText } from './xml.ts';

export interface JunitOptions {
  strict?: boolean;
  /** One more testsuite another run in the directory adds (render.ts CompanionSections), counted in the totals. */
  companion?: { xml: string; tests: number; failures: number };
}

function details(r: RuleReport): string {
  return r.evidence
    .map((e) => {
      switch (e.kind) {
        case 'mismatch': return `${e.source ? `[ambient, from ${e.source.rule} ` +
          `/ ${e.source.test}] ` : ''}${e.message}${e.expected !== undefined ? `\n  ` +
            `expected: ${JSON.stringify(e.expected)}` : ''}${e.actual !== undefined ? `\n  actual:   ${JSON.stringify(e.actual)}` : ''}`;
        case 'exchange': return `> ${e.exchange.request.method} ${e.exchange.request.path}\n< ${e.exchange.response ? `${e.exchange.response.status} ${e.exchange.response.body.slice(0, 400)}` : e.exchange.transportError}`;
        case 'property': return `counterexample (seed ${e.seed}${e.path ? `, path ${e.path}` : ''}${e.shrinks !== undefined ? `, ` +
          `shrunk ${e.shrinks} time(s)` : ''}): ${e.counterexample}${e.shrink_note ? `\n  not shrunk: ${e.shrink_note}` : ''}`;
        case 'replay': return `replay: ${e.command}`;
        case 'note': return e.message;
        case 'timeline': return `event ${e.event_id}${e.label ? ` ${e.label}` : ''}: ${e.attempts.map((a) => `${a.status} ` +
          `after ${Math.round(a.gap_ms)} ms${a.expected_gap_ms !== undefined ? ` (schedule ${Math.round(a.expected_gap_ms)} ` +
            `ms)` : ''}`).join(', ')}`;
        default: return '';
      }
    })
    .filter(Boolean)
    .join('\n');
}

type Outcome = 'failure' | 'error' | 'skipped' | 'visible' | 'pass';

/** How a rule appears in JUnit: strict turns WARN, FLAKY and a skipped testable MUST into failures. */
export function junitOutcome(r: RuleReport, strict: boolean): Outcome {
  if (r.status === 'fail') return 'failure';
  if (r.status === 'error') return 'error';
  if (strict && (r.status === 'warn' || r.status === 'flaky')) return 'failure';
  if (r.status === 'skip') return strict && skippedTestableMust(r) ? 'failure' : 'skipped';
  if (r.status === 'warn' || r.status === 'flaky' || r.status === 'info') return 'visible';
  return 'pass';
}

/** Ant's form: local-looking ISO 8601 to the second, no zone (the run's UTC time). */
const antTimestamp = (iso: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.exec(iso)?.[0] ?? '1970-01-01T00:00:00';
const time = (ms: number) => (Math.max(0, ms) / 1000).toFixed(3);
const prop = (name: string, value: string) => `      <property name="${xmlAttr(name)}" value="${xmlAttr(value)}"/>`;

function testcase(r: RuleReport, area: string, strict: boolean): string[] {
  const out: string[] = [];
  const dur = r.tests.reduce((a, x) => a + x.duration_ms, 0);
  const o = junitOutcome(r, strict);
  const text = xmlText(`${r.status.toUpperCase()} [${r.level}] ${r.title}\n${r.reason ?? ''}\n${r.observed ? `${JSON.stringify(
    r.observed,
    null,
    2,
  )}\n` : ''}${details(r)}`);
  out.push(`    <testcase classname="${xmlAttr(`hps.${area}`)}" name="${xmlAttr(r.id)}" time="${time(dur)}">`);
  if (o === 'failure') out.push(`      <failure message="${xmlAttr(r.reason ?? r.status)}" ` +
    `type="${xmlAttr(`${r.status.toUpperCase()} ${r.level}`)}">${text}</failure>`);
  else if (o === 'error') out.push(`      <error message="${xmlAttr(r.reason ?? 'error')}" type="harness">${text}</error>`);
  else if (o === 'skipped') out.push(`      <skipped message="${xmlAttr(r.reason ?? 'skipped')}"/>`);
  if (r.status === 'warn' || r.status === 'flaky') out.push(`      <system-err>${text}</system-err>`);
  else if (r.status === 'info') out.push(`      <system-out>${text}</system-out>`);
  out.push('    </testcase>');
  return out;
}

export function renderJunit(report: Report, opts: JunitOptions = {}): string {
  const strict = opts.strict ?? false;
  const areas = [...new Set(report.rules.map((r) => r.area))];
  const count = (rules: RuleReport[], o: Outcome) => rules.filter((r) => junitOutcome(r, strict) === o).length;
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  // The schema's testsuites element has no `skipped` attribute; each testsuite carries it.
  const extra = opts.companion;
  out.push(`<testsuites name="hps-conformance" tests="${report.rules.length + (extra?.tests ?? 0)}" failures="${count(
    report.rules,
    'failure',
  ) + (extra?.failures ?? 0)}" errors="${count(report.rules, 'error')}" time="${time(report.duration_ms)}">`);
  for (const area of areas) {
    const rules = report.rules.filter((r) => r.area === area);
    const ms = rules.reduce((t, r) => t + r.tests.reduce((a, x) => a + x.duration_ms, 0), 0);
    out.push(`  <testsuite name="${xmlAttr(area)}" tests="${rules.length}" failures="${count(
      rules,
      'failure',
    )}" errors="${count(
      rules,
      'error',
    )}" skipped="${count(rules, 'skipped')}" time="${time(ms)}" timestamp="${xmlAttr(antTimestamp(report.started_at))}">`);
    out.push('    <properties>');
    if (strict) out.push(prop('strict', 'true'));
    // The run's verdict word (conformant, not_conformant, incomplete) and the classes, once, on the first suite.
    if (area === areas[0]) for (const [k, v] of [
      ['verdict', report.verdict],
      ...classProperties(report),
    ] as Array<[string, string]>) out.push(prop(k, v));
    for (const r of rules) {
      out.push(prop(`${r.id}.title`, r.title), prop(`${r.id}.level`, r.level));
      if (r.status !== 'pass') out.push(prop(`${r.id}.status`, r.status));
    }
    out.push('    </properties>');
    for (const r of rules) out.push(...testcase(r, area, strict));
    out.push('  </testsuite>');
  }
  if (extra) out.push(extra.xml);
  out.push('</testsuites>');
  return out.join('\n') + '\n';
}

/**
 * JUnit XML as CI dashboards read it: testcases named by the stable rule id, WARN and FLAKY
 * visible (and failures under strict), valid against the common junit-10 schema (xmllint), and
 * characters XML forbids replaced.
 */
import { describe, expect, it } from 'vitest';
import { junitOutcome, renderJunit } from '../../results/render/junit.ts';
import type { Report } from '../../catalogue/report/model.ts';
import { xmlAttr, xmlText } from '../../results/render/xml.ts';
import { enrichedFailingReport } from './failing-report.ts';
import { xmllint } from '../support/xmllint.ts';

/** Every code point XML 1.0 forbids, as a JS string (lone surrogates included). */
const FORBIDDEN = '\u0000\u0001\u0008\u000b\u000c\u000e\u001f\ufffe\uffff\udc00\ud800';

function nasty(): Report {
  const r = enrichedFailingReport();
  const rule = r.rules.find((x) => x.id === 'CREATE-FIELDS-ECHOED')!;
  rule.reason = `bad ${FORBIDDEN} byte & <tag> "q"\ttab\nline 😀`;
  rule.title = `title with ${FORBIDDEN} and ]]> and 😀`;
  rule.evidence.push({ kind: 'note', message: `note ${FORBIDDEN}` });
  return r;
}

describe('JUnit renderer', () => {
  it('names each testcase by its rule id, with title and level as properties', () => {
    const xml = renderJunit(enrichedFailingReport());
    const names = [...xml.matchAll(/<testcase classname="[^"]*" name="([^"]*)"/g)].map((m) => m[1]);
    expect(names).toContain('CREATE-FIELDS-ECHOED');
    for (const name of names) expect(name).toMatch(/^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+$/);
    expect(xml).toContain('<property name="CREATE-FIELDS-ECHOED.title" value="Every accepted field comes back');
    expect(xml).toContain('<property name="CREATE-FIELDS-ECHOED.level" value="MUST"/>');
    expect(xml).toMatch(/<testsuite name="create" tests="35" failures="2" errors="0" skipped="0" time="\d+\.\d{3}" timestamp="2026-11-22T21:01:22">/);
  });

  it('makes WARN and FLAKY visible: a <system-err> and a status property, passing unless strict', () => {
    const r = enrichedFailingReport();
    const xml = renderJunit(r);
    const warn = /<testcase [^>]*name="RESP-CACHE-NO-STORE"[^>]*>([\s\S]*?)<\/testcase>/.exec(xml)![1]!;
    expect(warn).toContain('<system-err>WARN [SHOULD]');
    expect(warn).not.toContain('<failure');
    expect(xml).toContain('<property name="RESP-CACHE-NO-STORE.status" value="warn"/>');
    const flaky = /<testcase [^>]*name="LIST-LIMIT-RANGE"[^>]*>([\s\S]*?)<\/testcase>/.exec(xml)![1]!;
    expect(flaky).toContain('<system-err>FLAKY [MUST]');
    expect(xml).toContain('<property name="LIST-LIMIT-RANGE.status" value="flaky"/>');

    const strict = renderJunit(r, { strict: true });
    expect(/<testcase [^>]*name="RESP-CACHE-NO-STORE"[^>]*>([\s\S]*?)<\/testcase>/.exec(strict)![1]).toContain('<failure message="GET /v1/payments/pay_1 answered without Cache-Control: no-store; 1 ambient violation(s)" type="WARN SHOULD">');
    expect(/<testcase [^>]*name="LIST-LIMIT-RANGE"[^>]*>([\s\S]*?)<\/testcase>/.exec(strict)![1]).toContain('type="FLAKY MUST"');
    const failures = (x: string) => Number(/<testsuites [^>]*failures="(\d+)"/.exec(x)![1]);
    expect(failures(strict)).toBe(failures(xml) + 2);
  });

  it('under strict, a skipped testable MUST rule fails; an untestable one or a SHOULD stays skipped', () => {
    const base = enrichedFailingReport().rules[0]!;
    expect(junitOutcome({ ...base, level: 'MUST', status: 'skip' }, true)).toBe('failure');
    expect(junitOutcome({ ...base, level: 'MUST', status: 'skip' }, false)).toBe('skipped');
    expect(junitOutcome({ ...base, level: 'MUST', status: 'skip', untestable: true }, true)).toBe('skipped');
    expect(junitOutcome({ ...base, level: 'SHOULD', status: 'skip' }, true)).toBe('skipped');
    expect(junitOutcome({ ...base, level: 'OBSERVE', status: 'info' }, true)).toBe('visible');
  });

  it('validates against the common JUnit schema (xmllint), plain and strict', () => {
    for (const xml of [
      renderJunit(enrichedFailingReport()),
      renderJunit(enrichedFailingReport(), { strict: true }),
      renderJunit(nasty()),
    ]) {
      const v = xmllint(xml);
      expect(v.out).not.toMatch(/error/i);
      expect(v.ok).toBe(true);
    }
  });

  it('the schema check can fail: a skipped attribute on <testsuites> (the old output) is refused', () => {
    const bad = renderJunit(enrichedFailingReport()).replace(
      '<testsuites name="hps-conformance"',
      '<testsuites name="hps-conformance" skipped="1"',
    );
    const v = xmllint(bad);
    expect(v.ok).toBe(false);
    expect(v.out).toMatch(/attribute 'skipped' is not allowed/);
  });

  it('replaces every character XML forbids, lone surrogates and U+FFFE/U+FFFF included', () => {
    expect(xmlText(`a${FORBIDDEN}b`)).toBe(`a${'\ufffd'.repeat(11)}b`);
    expect(xmlText('tab\tnl\ncr\r 😀 \ud7ff \ue000 \ufffd')).toBe('tab\tnl\ncr\r 😀 \ud7ff \ue000 \ufffd');
    expect(xmlAttr('a"b\tc\nd')).toBe('a&quot;b&#9;c&#10;d');
    const xml = renderJunit(nasty());
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/);
    expect(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(xml)).toBe(false);
    expect(xml).toContain('😀');
  });
});

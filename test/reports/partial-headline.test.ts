/**
 * A partial report (an interrupted run) never looks conformant (issue 21): its rules not reached are
 * SKIP, so report.verdict may read `conformant`; the headline of summary.md and report.html says
 * PARTIAL with the reason, and whether a MUST rule failed before the stop.
 */
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../results/render/html.ts';
import { renderMarkdown } from '../../results/render/markdown.ts';
import { verdictHeadline } from '../../catalogue/report/headline.ts';
import type { Report } from '../../catalogue/report/model.ts';
import { enrichedFailingReport } from './failing-report.ts';

/** An interrupted run with no rule reached: every rule SKIP, the verdict field `conformant`. */
function allSkippedPartial(): Report {
  const r = enrichedFailingReport();
  for (const rule of r.rules) Object.assign(rule, { status: 'skip', reason: 'not reached: the run was interrupted' });
  r.summary = { pass: 0, fail: 0, warn: 0, info: 0, skip: r.rules.length, error: 0, flaky: 0 };
  return Object.assign(r, { verdict: 'conformant' as const, partial: true, partial_reason: 'interrupted by SIGINT 2.0 s into the run' });
}

describe('a partial report says PARTIAL, never conformant', () => {
  it('every rule SKIP, verdict field conformant: summary.md and report.html headline PARTIAL with the reason', () => {
    const r = allSkippedPartial();
    expect(verdictHeadline(r)).toEqual({
      word: 'PARTIAL',
      detail: 'interrupted by SIGINT 2.0 s into the run; not judged: the rules not reached are SKIP',
    });
    const md = renderMarkdown(r);
    expect(md.split('\n')[0]).toBe('# hps-conformance: ⚠️ PARTIAL');
    expect(md).toContain('**Partial run:** interrupted by SIGINT 2.0 s into the run');
    expect(md).not.toMatch(/✅|: conformant/);
    const html = renderHtml(r);
    expect(html).toContain('id="verdict">PARTIAL</span>');
    expect(html).toContain('<title>hps-conformance: partial');
    expect(html).not.toContain('>CONFORMANT<');
  });

  it('a FAIL before the stop: PARTIAL, saying a MUST rule failed; an unmarked report keeps its verdict', () => {
    const failing = Object.assign(enrichedFailingReport(), { partial: true, partial_reason: 'interrupted by SIGTERM 9.0 s into the run' });
    expect(verdictHeadline(failing).detail).toMatch(/not conformant: a MUST rule failed before the stop/);
    expect(renderMarkdown(failing).split('\n')[0]).toBe('# hps-conformance: ⚠️ PARTIAL');
    expect(verdictHeadline(enrichedFailingReport())).toEqual({ word: 'NOT CONFORMANT' });
    expect(verdictHeadline({ verdict: 'conformant' })).toEqual({ word: 'CONFORMANT' });
  });
});

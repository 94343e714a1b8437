/** The Markdown summary for $GITHUB_STEP_SUMMARY: failures first, a tally per area, a size cap. */
import { describe, expect, it } from 'vitest';
import { MARKDOWN_MAX_BYTES, renderMarkdown } from '../../results/render/markdown.ts';
import type { RuleReport } from '../../catalogue/report/model.ts';
import { enrichedFailingReport } from './failing-report.ts';

describe('Markdown summary', () => {
  it('puts failures first (FAIL, then ERROR, FLAKY, WARN) and tallies each area', () => {
    const md = renderMarkdown(enrichedFailingReport());
    const rows = md.split('\n').filter((l) => /^\| (FAIL|ERROR|FLAKY|WARN) \|/.test(l)).map((l) => l.split(' | ')[0]!.slice(2));
    expect(rows).toEqual(['FAIL', 'FAIL', 'FAIL', 'FLAKY', 'WARN']);
    expect(md.indexOf('## Failures first')).toBeLessThan(md.indexOf('Per area'));
    expect(md).toContain('| create | 24 | **2** | 0 | 9 | 0 | 0 | 0 |');
    expect(md).toContain('| webhooks | 0 | **1** |');
    expect(md).toContain('**Not a certification:** filtered to area(s) create');
  });

  it('stays under its cap however many rules fail, and says how many it left out', () => {
    const r = enrichedFailingReport();
    const many: RuleReport[] = Array.from({ length: 3000 }, (_, i) => ({
      id: `GEN-RULE-${i}`, area: `area${i % 40}`, level: 'MUST', status: 'fail', title: 't', spec: 's',
      reason: `reason ${'x'.repeat(200)} ${i}`, evidence: [{
        kind: 'replay',
        command: `hps-conformance run --rule GEN-RULE-${i} --seed 1`,
      }], tests: [],
    }));
    r.rules.push(...many);
    const md = renderMarkdown(r);
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(MARKDOWN_MAX_BYTES);
    expect(md).toMatch(/… and \d+ more rule\(s\) that did not pass: this summary is capped at 64 KiB; see report\.html\./);
    expect(md.split('\n')[0]).toBe('# hps-conformance: ❌ not conformant');
    const small = renderMarkdown(r, { maxBytes: 8 * 1024 });
    expect(Buffer.byteLength(small)).toBeLessThanOrEqual(8 * 1024);
    expect(small).toContain('| FAIL | `CREATE-FIELDS-ECHOED` |');
  });

  it("takes a companion's lines (the load run beside the report) whole when they fit, else its one-line fallback, under the cap", () => {
    const companion = {
      lines: ['## Load run ld1: PASS', '', ...Array.from({ length: 40 }, (_, i) => `| row ${i} | ${'y'.repeat(80)} |`), ''],
      fallback: 'Load run ld1: PASS (see load.md).',
    };
    const fits = renderMarkdown(enrichedFailingReport(), { companion });
    expect(fits).toContain(companion.lines.join('\n'));
    expect(fits).not.toContain(companion.fallback);
    const capped = renderMarkdown(enrichedFailingReport(), { companion, maxBytes: Buffer.byteLength(fits) - 1000 });
    expect(capped).not.toContain('## Load run ld1');
    expect(capped).toContain(companion.fallback);
    expect(Buffer.byteLength(capped)).toBeLessThanOrEqual(Buffer.byteLength(fits) - 1000);
  });
});

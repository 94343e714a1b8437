/**
 * The HTML report shows a rule's failing fixed cases (number, title, reason), escaped, and only a
 * count of the rows that passed.
 */
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../results/render/html.ts';
import { enrichedFailingReport } from './failing-report.ts';

describe('fixed cases in the HTML report', () => {
  it('lists the failing rows of a rule, escaped, and counts the passing ones', () => {
    const report = structuredClone(enrichedFailingReport());
    const rule = report.rules.find((r) => r.status === 'fail')!;
    rule.cases = [
      { n: 1, title: 'amount "0" is rejected', status: 'pass' },
      { n: 2, title: 'amount "<script>x</script>" is rejected', status: 'fail', reason: 'answered 201 <b>' },
      { n: 3, title: 'amount "9" is rejected', status: 'error', reason: 'HPS_ERR_TARGET_UNREACHABLE' },
    ];
    const page = renderHtml(report);
    expect(page).toContain('Fixed cases: 1 of 3 passed; 2 did not');
    expect(page).toContain('<td>2</td><td>amount &quot;&lt;script&gt;x&lt;/script&gt;&quot; is rejected<div class="err">answered 201 &lt;b&gt;</div></td><td class="s-fail">fail</td>');
    expect(page).toContain('<td>3</td>');
    expect(page).not.toContain('amount &quot;0&quot; is rejected'); // a passing row is counted, not listed
    expect(page).not.toContain('<script>x');
  });
});

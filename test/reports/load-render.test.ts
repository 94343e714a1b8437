/**
 * load.json re-rendered (results/render/load-*.ts): a load.json from a directory is untrusted, so every
 * value of it is escaped for its context. No raw tag reaches load.html or load.md, no value opens a
 * new Markdown line or table row, and load.junit.xml stays valid.
 */
import { describe, expect, it } from 'vitest';
import type { LoadReportModel } from '../../catalogue/report/load-model.ts';
import { renderLoadHtml } from '../../results/render/load-html.ts';
import { renderLoadJunit } from '../../results/render/load-junit.ts';
import { renderLoadMarkdown } from '../../results/render/load-markdown.ts';
import { xmllint } from '../support/xmllint.ts';

const EVIL = '<script>alert(1)</script> | x\n# heading';
const p = { count: 1, min: 1, mean: 1, p50: 1, p90: 1, p97_5: 1, p99: 1, p99_9: 1, p99_99: 1, max: 1 };

function hostile(): LoadReportModel {
  return {
    kind: 'load',
    run_id: EVIL,
    target: { base_url: `http://h/${EVIL}`, embedded: false },
    started_at: EVIL,
    options: {
      scenario: EVIL,
      mix: { create: 1, read: 0, list: 0 },
      model: 'closed',
      arrivals: null,
      rate: null,
      warmup_s: 0,
      duration_s: 1,
      connections: 1,
      workers: 1,
      shard: null,
      max_requests: 10,
      timeout_s: 1,
    },
    figures: {
      model: 'closed', offered_rps: null, achieved_rps: 1, window_s: 1, due: 1, sent: 1, not_sent: 0, shortfall: 0, responses: 1,
      latency_ms: { overall: p, by_operation: { create: { ...p, rps: 1, statuses: { [EVIL]: 1 } } } },
      series: [{ second: 0, p50: 1, p99: 1 }],
      status_codes: { [EVIL]: 1 },
      errors: {
        by_kind: { timeout: 0, connection: 0, other: 0 },
        by_status: { [EVIL]: 1 },
        rate_limited_429: 0,
        by_code: { [EVIL]: 1 },
        rate: 0,
      },
    },
    checks: [{ id: EVIL, status: EVIL, detail: EVIL, examples: [EVIL] }],
    thresholds: [{ id: EVIL, status: 'fail', detail: EVIL }],
    notes: [EVIL],
    verdict: 'fail',
    exit_code: 1,
  };
}

describe('load.json rendered again (results/render/load-*.ts)', () => {
  it('load.html: no value opens a tag', () => {
    const page = renderLoadHtml(hostile());
    expect(page).not.toContain('<script>');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('load.md: no raw tag, and a value never starts a line of its own (no heading, no new table row)', () => {
    const text = renderLoadMarkdown(hostile());
    expect(text).not.toMatch(/<script|<\/script/);
    expect(text.split('\n').filter((l) => l.startsWith('# heading'))).toEqual([]);
    for (const line of text.split('\n').filter((l) => l.startsWith('|'))) expect(line.endsWith('|'), line).toBe(true);
  });

  it('load.junit.xml: well-formed and valid (xmllint, junit-10 schema)', () => {
    const check = xmllint(renderLoadJunit(hostile()));
    expect(check.ok, check.out).toBe(true);
  });
});

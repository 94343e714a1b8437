/**
 * `hps-conformance load compare DIR[=LABEL]... [--out FILE]`: two or more runs' latency
 * distributions in one page, each run labelled; and every bad input (too few or too many DIRs, a
 * DIR without load.json, a load.json that is not JSON, not a load report, without figures, or
 * with histograms that are not this tool's) one line and exit 2, nothing written.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain, TMP } from './helpers.ts';
import { syntheticReport, writeLoadDir } from './plot-fixture.ts';

const at = (...p: string[]) => join(TMP, 'compare', ...p);
const fast = writeLoadDir(at('fast'), syntheticReport('run-fast', { seconds: 3, rps: 200 }));
const slow = writeLoadDir(at('slow'), syntheticReport('run-slow', { seconds: 3, rps: 200, slow: 3, seed: 2 }));

describe('load compare', () => {
  it('overlays the runs in one page, each line labelled, and prints its absolute path', async () => {
    const out = at('out', 'cmp.html');
    const r = await runMain(['load', 'compare', `${fast}=before <b>`, `${slow}=after`, '--out', out]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out.trim()).toBe(`compared 2 load runs: ${out}`);
    const page = readFileSync(out, 'utf8');
    // All operations, then create, read, list: one chart each, one line per run.
    expect(page.match(/<svg[^>]*class="plot"/g)).toHaveLength(4);
    expect(page.match(/<polyline[^>]*><title>before &lt;b&gt;<\/title>/g)).toHaveLength(4);
    expect(page.match(/<polyline[^>]*stroke-dasharray|<polyline[^>]*><title>after<\/title>/g)).toHaveLength(4);
    expect(page).not.toContain('<b>');
    expect(page).toContain('run-fast');
    expect(page).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)|<script|NaN/);
  });

  it('labels a run by its directory name when no LABEL is given; the same name twice is told apart', async () => {
    const again = writeLoadDir(at('again', 'fast'), syntheticReport('run-again', { seconds: 2, rps: 50 }));
    const out = at('out', 'names.html');
    expect((await runMain(['load', 'compare', fast, again, '--out', out])).code).toBe(0);
    const page = readFileSync(out, 'utf8');
    expect(page).toContain('<title>fast</title>');
    expect(page).toContain('<title>fast (2)</title>');
  });

  const bad: Array<[string, () => string[], RegExp]> = [
    ['one DIR', () => [fast], /give at least two DIRs/],
    ['25 DIRs', () => Array(25).fill(fast), /at most 24 DIRs/],
    ['a DIR without load.json', () => [fast, at('nothing-here')], /nothing-here\/load\.json does not exist/],
    ['a load.json that is not JSON', () => [fast, writeLoadDir(at('not-json'), '{"kind": "lo')], /is not JSON/],
    ['a report.json renamed', () => [fast, writeLoadDir(at('conformance'), { kind: 'report', rules: [] })], /is not a load report/],
    ['no figures', () => [fast, writeLoadDir(at('no-figures'), { ...syntheticReport('x', { seconds: 1, rps: 1 }), figures: null })],
      /has no latency histograms/],
    ['a histogram that is not one', () => [fast, writeLoadDir(at('garbage'), withHistogram('create', 'SGVsbG8gd29ybGQ='))],
      /figures\.raw\.histograms\.create: not a compressed V2 HdrHistogram/],
    ['a histogram that is a number', () => [fast, writeLoadDir(at('number'), withHistogram('read', 7))],
      /figures\.raw\.histograms\.read: not an encoded histogram/],
    ['a label with a control character', () => [fast, `${at('missing')}=a\u0007b`], /the label after = must be 1-60 printable/],
  ];
  for (const [name, args, reason] of bad) {
    it(`${name}: one line, exit 2, no page`, async () => {
      const out = at('out', `${name.replace(/\W+/g, '-')}.html`);
      const r = await runMain(['load', 'compare', ...args(), '--out', out]);
      expect(r.code).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).toMatch(/^hps-conformance: load compare: /);
      expect(r.err).toMatch(reason);
      expect(r.err).not.toMatch(/internal error|\n\s+at /);
      expect(existsSync(out)).toBe(false);
    });
  }

  it('--help exits 0', async () => {
    const r = await runMain(['load', 'compare', '--help']);
    expect(r.code).toBe(0);
  });
});

function withHistogram(op: string, value: unknown): unknown {
  const r = syntheticReport('hostile', { seconds: 1, rps: 10 }) as unknown as { figures: { raw: { histograms: Record<string, unknown> } } };
  r.figures.raw.histograms[op] = value;
  return r;
}

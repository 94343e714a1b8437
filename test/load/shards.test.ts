/**
 * Three shards (`--shard i/3`, three processes) against one target, then `load merge`:
 * the merged count is the sum, the merged percentiles are those of one histogram of every
 * sample, and the thresholds judge the merge (not a shard). Only the shards of one run, each
 * once, are merged: a shard twice, one missing, shards of other runs, scenarios or configurations
 * are refused with one line and exit 2 (a missing one merged with --allow-missing is incomplete).
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode, newHistogram, percentilesOf } from '../../load/histogram.ts';
import { startReferenceProcess } from '../../core/targets/reference-process.ts';
import type { Profile } from '../../core/profile.ts';
import { cli, readLoadJson, reportDir, runMain, TMP, withEnv } from './helpers.ts';

let reference: { profile: Profile; close(): Promise<void> };
let profileFile: string;
/** The three shards' directories, written by the first test. */
let shardDirs: string[] = [];

beforeAll(async () => {
  reference = await startReferenceProcess();
  profileFile = join(TMP, 'shards-profile.json');
  writeFileSync(profileFile, JSON.stringify(reference.profile));
}, 30_000);
afterAll(async () => reference?.close());

/** One histogram re-recorded value by value from every shard's buckets: "all samples at once". */
function allSamples(encoded: string[]) {
  const one = newHistogram();
  for (const e of encoded) {
    const h = decode(e);
    // The JS histogram's bucket table (hdr-histogram-js JsHistogram): every bucket's value and count.
    const js = h as unknown as { countsArrayLength: number; getCountAtIndex(i: number): number; valueFromIndex(i: number): number };
    for (let i = 0; i < js.countsArrayLength; i += 1) {
      const n = js.getCountAtIndex(i);
      if (n > 0) one.recordValueWithCount(js.valueFromIndex(i), n);
    }
  }
  return one;
}

describe('load --shard i/N and load merge', () => {
  it('3 shards against one target merge into one result judged as a whole', async () => {
    const dirs = [1, 2, 3].map((i) => reportDir(`shard${i}`));
    const runs = await Promise.all(
      dirs.map((dir, i) => cli(['load', '--profile', profileFile, '--shard', `${i + 1}/3`, '--run-id', 'shardtest', '--scenario', 'mixed', '--rate', '90', '--connections', '3', '--workers', '1', '--warmup', '0', '--duration', '2', '--max-p99-ms', '60000', '--allow-short', '--report', dir])),
    );
    // (--allow-short: three generators and the target share this machine's 2 cores; reaching the
    // rate is the accuracy tests' business, merging is this one's.)
    for (const r of runs) expect(r.code, r.err + r.out).toBe(0);
    shardDirs = dirs;
    const shards = dirs.map(readLoadJson);
    expect(shards.map((s) => s.run_id)).toEqual(['shardtest-s1', 'shardtest-s2', 'shardtest-s3']);
    expect(shards.map((s) => s.shard_of)).toEqual([1, 2, 3].map((index) => ({ run_id: 'shardtest', index, count: 3 })));
    expect(shards.map((s) => s.options.rate)).toEqual([30, 30, 30]);

    const merged = reportDir('merged');
    // Merged into the directory of a conformance run, the merge joins its report too.
    mkdirSync(merged, { recursive: true });
    // A conformance run of the same target (a load section joins only a report naming its target).
    const conformance = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'report-create-clean.json'), 'utf8'));
    conformance.target = { base_url: reference.profile.base_url, embedded_reference: false };
    writeFileSync(join(merged, 'report.json'), JSON.stringify(conformance));
    // The shards were judged at 60 s; so is the merge here (its latency on a shared machine is not the point).
    const m = await runMain(['load', 'merge', '--allow-short', '--max-p99-ms', '60000', '--report', merged, ...dirs]);
    expect(m.code, m.err + m.out).toBe(0);
    expect(m.out).toContain(`the conformance report beside it has the load section: ${join(merged, 'report.html')}`);
    expect(readFileSync(join(merged, 'report.html'), 'utf8')).toContain('(merge of 3 shards)');
    const r = readLoadJson(merged);
    expect(r.figures.responses).toBe(shards.reduce((a, s) => a + s.figures.responses, 0));
    expect(r.figures.due).toBe(shards.reduce((a, s) => a + s.figures.due, 0));
    expect(r.options.rate).toBe(90);
    const every = shards.flatMap((s) => Object.values(s.figures.raw.histograms) as string[]);
    expect(r.figures.latency_ms.overall).toEqual(percentilesOf(allSamples(every)));
    expect(r.merged_from).toHaveLength(3);
    const o = r.figures.latency_ms.overall;
    console.log(`3 shards: responses ${shards.map((x) => x.figures.responses).join(' + ')} = merged ${r.figures.responses}; due ${r.figures.due}; merged p50 ${o.p50} p99 ${o.p99} max ${o.max} ms, equal to one histogram of every shard's samples`);
    expect(r.checks.every((c: { status: string }) => c.status !== 'fail')).toBe(true);
    expect(r.checks.find((c: { id: string }) => c.id === 'shards-complete')).toMatchObject({
      status: 'pass',
      detail: '3 of 3 shards of run shardtest, each once',
    });
    expect(r.run_id).toBe('merge-shardtest');

    // Thresholds judge the merge: each shard passed 60 s; the merge at 0 ms fails, on the merged p99.
    // On GitHub Actions the merge's failed threshold is an annotation (a shard's never is: below).
    const strict = await withEnv({ GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: undefined }, () =>
      runMain(['load', 'merge', '--allow-short', '--max-p99-ms', '0', '--report', reportDir('merged-strict'), ...dirs]),
    );
    expect(strict.code).toBe(1);
    expect(strict.out.match(/^::error title=load max-p99-ms::/gm)).toHaveLength(1);
    expect(strict.out).toMatch(new RegExp(`FAIL\\s+max-p99-ms\\s+p99 latency \\(from the due time\\) ${r.figures.latency_ms.overall.p99} ms`));
  }, 90_000);

  it("a shard's failed threshold is no GitHub annotation: the merge is the verdict", async () => {
    const dir = reportDir('shard-gh');
    const r = await withEnv({ GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: undefined }, () =>
      runMain([
        'load',
        '--profile',
        profileFile,
        '--shard',
        '1/3',
        '--run-id',
        'gh',
        '--scenario',
        'list',
        '--connections',
        '1',
        '--workers',
        '1',
        '--warmup',
        '0',
        '--duration',
        '1',
        '--max-p99-ms',
        '0',
        '--report',
        dir,
      ]),
    );
    expect(r.code, r.err + r.out).toBe(1);
    expect(readLoadJson(dir).thresholds.find((t: { id: string }) => t.id === 'max-p99-ms').status).toBe('fail');
    expect(r.out).not.toMatch(/^::error/m);
  }, 60_000);

  /** A copy of shard `i`'s directory with its load.json changed by `edit`. */
  function alteredShard(i: number, name: string, edit: (r: any) => void): string {
    const dir = reportDir(name);
    cpSync(shardDirs[i]!, dir, { recursive: true });
    const r = readLoadJson(dir);
    edit(r);
    writeFileSync(join(dir, 'load.json'), JSON.stringify(r));
    return dir;
  }

  async function refused(dirs: string[], reason: RegExp): Promise<void> {
    const out = reportDir('refused');
    const r = await runMain(['load', 'merge', '--allow-short', '--max-p99-ms', '60000', '--report', out, ...dirs]);
    expect(r.code, r.out + r.err).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(reason);
    expect(r.out).toBe('');
  }

  it('merge refuses what does not belong to one run: a shard twice, one missing, another run, scenario or configuration, a report that is no shard', async () => {
    expect(shardDirs, 'the first test wrote the shards').toHaveLength(3);
    const [s1, s2] = shardDirs as [string, string, string];
    await refused([s1, s1, s2], /both shard 1\/3 of run shardtest: a shard is merged once/);
    await refused([s1, s2], /shard 3\/3 of run shardtest not given .*--allow-missing/);
    await refused(
      [s1, s2, alteredShard(2, 'other-run', (r) => (r.shard_of.run_id = 'nightly2'))],
      /a shard of run nightly2, .* of run shardtest: the shards of different runs are not merged/,
    );
    await refused(
      [s1, s2, alteredShard(2, 'other-scenario', (r) => (r.options.scenario = 'list'))],
      /ran scenario list .*: the shards of one run share a scenario/,
    );
    await refused(
      [s1, s2, alteredShard(2, 'other-config', (r) => (r.options.connections = 7))],
      /ran with connections 7, .* with 3: the shards of one run share a configuration/,
    );
    await refused([s1, s2, alteredShard(2, 'other-n', (r) => (r.shard_of.count = 4))], /shard 3\/4, .*: one run has one N/);
    await refused([s1, s2, alteredShard(2, 'no-shard', (r) => delete r.shard_of)], /is not the shard of a run/);
    await refused([s1, s2, alteredShard(2, 'hostile-id', (r) => (r.shard_of.run_id = 'x\u001b[2Jy'))], /is not the shard of a run/);
  });

  it('merge --allow-missing: the shards given are merged, and the verdict is incomplete (exit 6), never pass', async () => {
    const out = reportDir('merged-missing');
    const r = await runMain([
      'load',
      'merge',
      '--allow-missing',
      '--allow-short',
      '--max-p99-ms',
      '60000',
      '--report',
      out,
      shardDirs[0]!,
      shardDirs[2]!,
    ]);
    expect(r.code, r.out + r.err).toBe(6);
    const m = readLoadJson(out);
    expect(m.verdict).toBe('incomplete');
    expect(m.checks.find((c: { id: string }) => c.id === 'shards-complete')).toMatchObject({
      status: 'skip',
      detail: expect.stringContaining('shard 2/3 of run shardtest missing (--allow-missing)'),
    });
    expect(r.out).toMatch(/verdict INCOMPLETE · exit 6/);
    expect(readFileSync(join(out, 'load.html'), 'utf8')).toMatch(/<span class="warn">INCOMPLETE<\/span>/);
  });

  it('--shard without --run-id is a usage error: the shards of one run must be told apart from others', async () => {
    const r = await runMain(['load', '--shard', '1/2', '--duration', '1']);
    expect(r.code).toBe(2);
    expect(r.err.trim()).toBe('hps-conformance: --shard: needs --run-id ID, the same on every shard of the run (load merge merges the shards of one run)');
  });

  it('merge: a directory without load.json is a usage error (exit 2, one line)', async () => {
    const r = await runMain(['load', 'merge', join(TMP, 'nowhere')]);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });
});

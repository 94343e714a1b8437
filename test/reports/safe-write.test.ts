/**
 * Reports are written safely (issue 21): through a temporary file and a rename, never through a
 * symlink (summary.md planted as a link to a file outside: the outside file is untouched, the link
 * replaced by the file); a directory reused is cleared of this tool's files only; a report
 * directory that fails late sends the results to a fallback directory named on stderr (exit 5);
 * a load.json naming another target is left out of the conformance report with a note.
 */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../core/errors.ts';
import { clearOwnFiles, writeFileAtomic } from '../../core/safe-write.ts';
import { loadCompanion } from '../../load/in-report.ts';
import type { Report } from '../../catalogue/report/model.ts';
import { renderAll } from '../../results/render/render.ts';
import { writeRunFiles } from '../../service/harness/main/persist.ts';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'report-create-clean.json');
const work = mkdtempSync(join(tmpdir(), 'hps-safe-write-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const report = (): Report => JSON.parse(readFileSync(FIXTURE, 'utf8')) as Report;
const profile = { base_url: 'http://127.0.0.1:1', keys: { test: 'pt_test_sk_aaaaaaaaaaaaaaaaaaaaaaaa' } } as never;

describe('report files are written safely', () => {
  it('summary.md as a symlink to a file outside: the link is replaced, the outside file untouched', () => {
    const dir = join(work, 'link');
    mkdirSync(dir);
    const outside = join(work, 'outside.txt');
    writeFileSync(outside, 'precious\n');
    symlinkSync(outside, join(dir, 'summary.md'));
    renderAll(dir, report(), { certificate: null });
    expect(readFileSync(outside, 'utf8')).toBe('precious\n');
    expect(lstatSync(join(dir, 'summary.md')).isSymbolicLink()).toBe(false);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toMatch(/^#/);
    // No temporary file is left beside the reports.
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('writeFileAtomic replaces a file whole (a reader never sees half of it)', () => {
    const f = join(work, 'whole.json');
    writeFileAtomic(f, 'old');
    writeFileAtomic(f, 'new');
    expect(readFileSync(f, 'utf8')).toBe('new');
  });

  it('a reused directory is cleared of this tool\'s files only', () => {
    const dir = join(work, 'reuse');
    mkdirSync(dir);
    for (const f of ['report.json', 'summary.md', 'notes.txt', 'load.json']) writeFileSync(join(dir, f), 'x');
    expect(clearOwnFiles(dir, ['report.json', 'summary.md', 'junit.xml']).sort()).toEqual(['report.json', 'summary.md']);
    expect(readdirSync(dir).sort()).toEqual(['load.json', 'notes.txt']);
  });

  it('a report directory that fails late: the results go to a fallback directory named on stderr', () => {
    // Root ignores permissions: the directory is replaced by a file, which no write can go through.
    const dir = join(work, 'gone');
    writeFileSync(dir, 'not a directory');
    const said: string[] = [];
    const w = writeRunFiles(dir, report(), profile, undefined, (l) => said.push(l));
    expect(w.fallbackBecause).toMatch(/EEXIST|ENOTDIR/);
    expect(w.dir).not.toBe(dir);
    expect(existsSync(join(w.dir, 'report.json')) && existsSync(join(w.dir, 'report.html'))).toBe(true);
    expect(said.join('\n')).toContain(`the results are in ${w.dir} instead`);
    expect(EXIT.reportFallback).toBe(5);
    rmSync(w.dir, { recursive: true, force: true });
  });

  it('a load.json naming another target is left out, with a note; the same target is merged and says when it ran', () => {
    const dir = join(work, 'foreign');
    mkdirSync(dir);
    const r = report();
    const load = {
      kind: 'load',
      run_id: 'lr1',
      checks: [],
      thresholds: [],
      verdict: 'pass',
      started_at: '2025-01-01T00:00:00.000Z',
      finished_at: '2025-01-01T00:01:00.000Z',
      target: { base_url: 'https://elsewhere.example/v1', embedded: false },
    };
    writeFileSync(join(dir, 'load.json'), JSON.stringify(load));
    const notes: string[] = [];
    expect(loadCompanion(
      dir,
      { ...r, target: { base_url: 'https://api.example/v1', embedded_reference: false } },
      (l) => notes.push(l),
    )).toBeUndefined();
    expect(notes.join()).toContain('names another target (https://elsewhere.example/v1)');
    writeFileSync(
      join(dir, 'load.json'),
      JSON.stringify({ ...load, target: { base_url: 'https://user:pw@API.example/v1/', embedded: false }, figures: null, options: {} }),
    );
    let same: ReturnType<typeof loadCompanion>;
    try {
      same = loadCompanion(dir, { ...r, target: { base_url: 'https://api.example/v1', embedded_reference: false } }, (l) => notes.push(l));
    } catch {
      same = undefined;
    }
    expect(notes.length).toBe(1);
    if (same) expect(same.markdown.lines.join('\n')).toContain('from 2025-01-01T00:00:00.000Z to 2025-01-01T00:01:00.000Z');
  });
});

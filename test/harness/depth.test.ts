/**
 * Depth grows with --runs (issue 25): every property's cases are a share of --runs
 * (service/harness/worker/depth.ts), never a fixed cap; the only caps are the named cost bounds.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COST_BOUNDS, share } from '../../service/harness/worker/depth.ts';

const SUITES = resolve(import.meta.dirname, '..', '..', 'suites');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : n.endsWith('.ts') ? [p] : [];
  });
}

describe('share', () => {
  it('is the stated fraction of --runs, at least 1, growing with it', () => {
    expect([100, 300, 1000].map((r) => share(r, 0.4))).toEqual([40, 120, 400]);
    expect(share(100, 0.03)).toBe(3);
    expect(share(1, 0.03)).toBe(1);
    // Below the default: never fewer than the tuned count at --runs 100 (or --runs itself): the old min(runs, N).
    expect(share(10, 0.25)).toBe(10);
    expect(share(25, 0.4)).toBe(25);
    expect(share(25, 0.1)).toBe(10);
  });

  it('stops only at a named cost bound, which says why', () => {
    expect(share(1000, 0.05, COST_BOUNDS.liveWrites)).toBe(COST_BOUNDS.liveWrites.max);
    expect(share(100, 0.05, COST_BOUNDS.deliveryWaits)).toBe(5);
    for (const b of Object.values(COST_BOUNDS)) expect(b.why.length).toBeGreaterThan(30);
  });

  it('refuses a fraction that is not positive', () => {
    expect(() => share(100, 0)).toThrow(/fraction/);
  });
});

describe('suites', () => {
  it('cap no property at a fixed count below --runs (Math.min(t.runs, N))', () => {
    const capped = files(SUITES).filter((f) => /Math\.min\(\s*t\.runs/.test(readFileSync(f, 'utf8'))).map((f) => relative(SUITES, f));
    expect(capped).toEqual([]);
  });
});

import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FILE_SECONDS, longestFirst, suiteFileOf } from '../../service/harness/main/schedule.ts';

const SUITES = join(import.meta.dirname, '..', '..', 'suites');
const testsOf = (area: string) =>
  readdirSync(join(SUITES, area)).filter((f) => f.endsWith('.rules.ts')).map((f) => ({ moduleId: join(SUITES, area, f) }));
const files = readdirSync(SUITES).flatMap((area) => (area.startsWith('_') ? [] : testsOf(area)));
const order = longestFirst(files, (f) => statSync(f.moduleId).size).map((f) => suiteFileOf(f.moduleId));

describe('the order suite files are handed to the workers (service/harness/main/schedule.ts)', () => {
  it('names only suite files that exist', () => {
    const known = new Set(files.map((f) => suiteFileOf(f.moduleId)));
    expect(Object.keys(FILE_SECONDS).filter((f) => !known.has(f))).toEqual([]);
  });

  it('starts the webhook retry file first: its waits (the 10 s time-out, the ladder) overlap every other file', () => {
    expect(order[0]).toBe('webhooks/retries.rules.ts');
  });

  it('hands out the held webhook files after every file that must end before the exclusive turn, the exclusive area (limits) last', () => {
    const area = (f: string | undefined) => f?.split('/')[0];
    const firstHeld = order.findIndex((f, i) => i > 0 && area(f) === 'webhooks');
    expect(order.at(-1)).toBe('limits/rate-limit.rules.ts');
    expect(order.slice(1, firstHeld).every((f) => area(f) !== 'webhooks' && area(f) !== 'limits')).toBe(true);
    expect(order.slice(firstHeld, -1).length).toBeGreaterThan(0);
    expect(order.slice(firstHeld, -1).every((f) => area(f) === 'webhooks')).toBe(true);
    expect(new Set(order).size).toBe(files.length);
  });

  it('with more than two workers (a far target), keeps the held webhook files in their place by their seconds, limits still last', () => {
    const far = longestFirst(files, (f) => statSync(f.moduleId).size, 8).map((f) => suiteFileOf(f.moduleId));
    expect(far[0]).toBe('webhooks/retries.rules.ts');
    expect(far.at(-1)).toBe('limits/rate-limit.rules.ts');
    expect(far.indexOf('webhooks/routing.rules.ts')).toBeLessThan(far.indexOf('transitions/illegal.rules.ts'));
    expect(order.indexOf('webhooks/routing.rules.ts')).toBeGreaterThan(order.indexOf('transitions/illegal.rules.ts'));
    expect(new Set(far)).toEqual(new Set(order));
  });

  it('is the same whatever order the files come in', () => {
    const reversed = longestFirst([...files].reverse(), (f) => statSync(f.moduleId).size).map((f) => suiteFileOf(f.moduleId));
    expect(reversed).toEqual(order);
  });
});

/**
 * Every planted fault is a named override beside the step it breaks (references/service/steps.ts), not an
 * inline `faults.has('…')` branch woven into the code.
 *
 * Scanned: the code of every reference that plants faults (the reference server, the reference
 * receiver, the example client), outside the seam mechanisms themselves (references/service/steps.ts and its
 * two twins in the folders that may not import it) and the fault registries. No scanned file has a
 * `faults.has(` at all; every file that plants a fault is listed in SEAMED with the number of
 * overrides its `faulty` tables hold (at least), so a file that starts planting faults is listed
 * and an override removed by mistake is noticed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLANTING_FILES } from '../../references/service/fault-registry.ts';
import { switchedOn } from './switched-on.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** The folders of code that plants faults. */
const PLANTING = [join('references', 'service'), join('references', 'receiver'), join('references', 'client')];

/** The seam mechanisms and the fault registries: they name `faults.has` without being a fault branch. */
const MECHANISM: ReadonlySet<string> = new Set([
  'references/service/steps.ts',
  'references/service/faults.ts',
  'references/receiver/steps.ts',
  'references/receiver/faults.ts',
  'references/client/steps.ts',
  'references/client/faults.ts',
]);

/** The files that plant faults: no inline branch, and at least this many overrides in `faulty` tables. */
const SEAMED: Readonly<Record<string, number>> = {
  'references/service/webhooks/delivery-steps.ts': 19,
  'references/service/payment-actions.ts': 17,
  'references/service/app.ts': 16,
  'references/service/listing.ts': 19,
  'references/service/front-end.ts': 2,
  'references/service/validate-create.ts': 30,
  'references/service/auth.ts': 8,
  'references/service/control.ts': 1,
  'references/service/create-payment.ts': 24,
  'references/service/live-readiness.ts': 5,
  'references/service/order-checks.ts': 7,
  'references/service/rate-limit.ts': 4,
  'references/service/webhooks/emit.ts': 2,
  'references/service/error-answers.ts': 24,
  'references/service/payment-fields.ts': 34,
  'references/service/operation-contract.ts': 16,
  'references/service/webhooks/event-contract.ts': 12,
  'references/service/webhooks/events.ts': 7,
  'references/receiver/records.ts': 2,
  'references/receiver/handling-steps.ts': 6,
  'references/receiver/verify.ts': 6,
  'references/client/client.ts': 10,
};

/** How many `faults.has(` calls a source text makes (any argument, comments included). */
export function inlineBranches(text: string): number {
  return [...text.matchAll(/\bfaults\s*\.\s*has\s*\(/g)].length;
}

/** Files with inline fault branches, and files planting faults (overrides) that SEAMED does not list. */
export function unseamed(
  counts: Readonly<Record<string, number>>,
  overrides: Readonly<Record<string, number>>,
  seamed: Readonly<Record<string, number>>,
): { inline: string[]; unlisted: string[] } {
  const inline = Object.entries(counts).flatMap(([file, n]) => (n > 0 ? [`${file}: ${n} inline faults.has( branches (write an override beside a step: references/service/steps.ts)`] : []));
  const unlisted = Object.entries(overrides).flatMap(([file, n]) => (n > 0 && !(file in seamed) ? [`${file}: ${n} overrides, not listed in SEAMED`] : []));
  return { inline, unlisted };
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? sources(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

const files = PLANTING.flatMap((f) => sources(join(ROOT, f)))
  .map((p) => relative(ROOT, p).split(sep).join('/'))
  .filter((file) => !MECHANISM.has(file));
const text = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const counts = Object.fromEntries(files.map((file) => [file, inlineBranches(text(file))]));

const overrides = Object.fromEntries(files.map((file) => [file, switchedOn(text(file)).length]));

describe('planted faults are overrides beside their steps, not inline branches', () => {
  it('scans something: every planting folder has code', () => {
    for (const f of PLANTING) expect(files.some((file) => file.startsWith(f.split(sep).join('/') + '/')), f).toBe(true);
  });

  it('no file has an inline faults.has( branch', () => {
    expect(unseamed(counts, overrides, SEAMED).inline).toEqual([]);
  });

  it('every file that plants a fault is listed in SEAMED', () => {
    expect(unseamed(counts, overrides, SEAMED).unlisted).toEqual([]);
    const total = Object.values(overrides).reduce((a, b) => a + b, 0);
    console.log(`fault seams: 0 inline branches; ${total} overrides in ${Object.values(overrides).filter((n) => n > 0).length} files`);
  });

  it('the listed files plant their faults as overrides in `faulty` tables', () => {
    const short = Object.entries(SEAMED).flatMap(([file, min]) => {
      const n = overrides[file] ?? 0;
      return counts[file] !== 0 || n < min ? [`${file}: ${counts[file]} inline, ${n} overrides (want 0 and ≥ ${min})`] : [];
    });
    expect(short).toEqual([]);
  });
});

/** Files whose `faulty` tables the registry does not read: listed nowhere, or with steps missing from FAULTY_STEPS. */
export function unregisteredTables(tables: Readonly<Record<string, number>>, registered: Readonly<Record<string, number>>): string[] {
  return Object.entries(tables).flatMap(([file, n]) => {
    if (n === 0 || n === registered[file]) return [];
    return [`${file}: ${n} faulty tables, ${registered[file] ?? 'none'} in its FAULTY_STEPS${file in registered ? '' : ' (not in references/service/fault-registry.ts)'}`];
  });
}

const tableCount = (file: string) => [...text(file).matchAll(/\bfaulty\s*:\s*\{/g)].length;

describe('the fault registry reads every override table of the reference server', () => {
  it('each file with `faulty` tables is in PLANTING_FILES, its FAULTY_STEPS listing every one', () => {
    const tables = Object.fromEntries(files.filter((f) => f.startsWith('references/service/')).map((f) => [f, tableCount(f)]));
    const registered = Object.fromEntries(Object.entries(PLANTING_FILES).map(([f, steps]) => [f, steps.length]));
    expect(unregisteredTables(tables, registered)).toEqual([]);
  });

  it('can fail: a file the registry does not list, a step left out of FAULTY_STEPS', () => {
    expect(unregisteredTables(
      { 'references/service/a.ts': 2, 'references/service/b.ts': 3, 'references/service/c.ts': 0 },
      { 'references/service/b.ts': 2 },
    ).map((l) => l.split(':')[0])).toEqual(['references/service/a.ts', 'references/service/b.ts']);
  });
});

describe('the seam check can fail', () => {
  it('counts inline branches however they are spelt', () => {
    expect(inlineBranches("if (ctx.faults.has('a')) x();\nif (this.#opts.faults .has( \"b\")) y();\nconst s = { faulty: { 'c': () => 1 } };")).toBe(2);
  });

  it('reports a file with an inline branch and a file planting overrides that SEAMED does not list', () => {
    const planted = unseamed(
      { 'references/service/new.ts': 1, 'references/service/auth.ts': 0, 'references/client/other.ts': 0 },
      { 'references/service/auth.ts': 8, 'references/client/other.ts': 2 },
      { 'references/service/auth.ts': 8 },
    );
    expect(planted.inline.map((l) => l.split(':')[0])).toEqual(['references/service/new.ts']);
    expect(planted.unlisted.map((l) => l.split(':')[0])).toEqual(['references/client/other.ts']);
  });
});

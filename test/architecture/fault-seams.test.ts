/**
 * Every planted fault is a named override beside the step it breaks (reference/steps.ts), not an
 * inline `faults.has('…')` branch woven into the code.
 *
 * Scanned: the code of every reference that plants faults (the reference server, the reference
 * receiver, the example client), outside the seam mechanism itself (reference/steps.ts) and the
 * fault registries. A file converted to steps has no `faults.has(` at all. Files not yet converted
 * are a ratchet: INLINE_BRANCHES lists each with the number of inline branches it had; the count
 * may go down (then lower the entry; at 0 remove it), never up, and a file not listed must have
 * none, so no new inline branch can be added anywhere.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { switchedOn } from './switched-on.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** The folders of code that plants faults. */
const PLANTING = ['reference', 'reference-receiver', join('examples', 'client')];

/** The seam mechanism and the fault registries: they name `faults.has` without being a fault branch. */
const MECHANISM: ReadonlySet<string> = new Set([
  'reference/steps.ts',
  'reference/faults.ts',
  'reference-receiver/steps.ts',
  'reference-receiver/faults.ts',
  'examples/client/faults.ts',
]);
const REGISTRY_FOLDER = 'reference/faults/';

/**
 * The ratchet: files still carrying inline fault branches, with their count. Only ever lower.
 * (Converted so far: webhooks/dispatcher.ts and delivery-steps.ts, payment-actions.ts, app.ts,
 * listing.ts, index.ts, validate-create.ts.)
 */
const INLINE_BRANCHES: Readonly<Record<string, number>> = {
  'examples/client/client.ts': 10,
};

/** The converted files: no inline branch, and at least this many overrides in `faulty` tables. */
const SEAMED: Readonly<Record<string, number>> = {
  'reference/webhooks/delivery-steps.ts': 17,
  'reference/payment-actions.ts': 16,
  'reference/app.ts': 14,
  'reference/listing.ts': 19,
  'reference/index.ts': 2,
  'reference/validate-create.ts': 30,
  'reference/auth.ts': 8,
  'reference/control.ts': 1,
  'reference/create-payment.ts': 22,
  'reference/live-readiness.ts': 5,
  'reference/order-checks.ts': 7,
  'reference/rate-limit.ts': 4,
  'reference/webhooks/emit.ts': 2,
  'reference/webhooks/events.ts': 7,
  'reference-receiver/records.ts': 2,
  'reference-receiver/server.ts': 6,
  'reference-receiver/verify.ts': 6,
};

/** How many `faults.has(` calls a source text makes (any argument, comments included). */
export function inlineBranches(text: string): number {
  return [...text.matchAll(/\bfaults\s*\.\s*has\s*\(/g)].length;
}

/** Files over their allowance (unlisted: 0), and entries whose count went down (lower them). */
export function ratchet(counts: Readonly<Record<string, number>>, allowed: Readonly<Record<string, number>>): { over: string[]; lower: string[] } {
  const over: string[] = [];
  const lower: string[] = [];
  for (const [file, n] of Object.entries(counts)) {
    const max = allowed[file] ?? 0;
    if (n > max) over.push(`${file}: ${n} inline faults.has( branches, ${max} allowed (write an override beside a step: reference/steps.ts)`);
  }
  for (const [file, max] of Object.entries(allowed)) {
    const n = counts[file] ?? 0;
    if (n < max) lower.push(`${file}: ${n} inline branches now, the ratchet says ${max} (lower it${n === 0 ? ', or remove the entry' : ''})`);
  }
  return { over, lower };
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? sources(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

const files = PLANTING.flatMap((f) => sources(join(ROOT, f)))
  .map((p) => relative(ROOT, p).split(sep).join('/'))
  .filter((file) => !MECHANISM.has(file) && !file.startsWith(REGISTRY_FOLDER));
const text = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const counts = Object.fromEntries(files.map((file) => [file, inlineBranches(text(file))]));

describe('planted faults are overrides beside their steps, not inline branches', () => {
  it('scans something: every planting folder has code', () => {
    for (const f of PLANTING) expect(files.some((file) => file.startsWith(f.split(sep).join('/') + '/')), f).toBe(true);
  });

  it('no file has more inline faults.has( branches than the ratchet allows (unlisted files: none)', () => {
    expect(ratchet(counts, INLINE_BRANCHES).over).toEqual([]);
  });

  it('the ratchet is tight: an entry whose count went down is lowered (so it only ever goes down)', () => {
    expect(ratchet(counts, INLINE_BRANCHES).lower).toEqual([]);
    const total = Object.values(INLINE_BRANCHES).reduce((a, b) => a + b, 0);
    console.log(`fault seams: ${total} inline branches left in ${Object.keys(INLINE_BRANCHES).length} files`);
  });

  it('the converted files plant their faults as overrides in `faulty` tables', () => {
    const short = Object.entries(SEAMED).flatMap(([file, min]) => {
      const overrides = switchedOn(text(file)).length;
      return counts[file] !== 0 || overrides < min ? [`${file}: ${counts[file]} inline, ${overrides} overrides (want 0 and ≥ ${min})`] : [];
    });
    expect(short).toEqual([]);
  });
});

describe('the seam check can fail', () => {
  it('counts inline branches however they are spelt', () => {
    expect(inlineBranches("if (ctx.faults.has('a')) x();\nif (this.#opts.faults .has( \"b\")) y();\nconst s = { faulty: { 'c': () => 1 } };")).toBe(2);
  });

  it('reports a new inline branch in an unlisted file, one over the allowance, and a count that went down', () => {
    const planted = ratchet({ 'reference/new.ts': 1, 'reference/auth.ts': 9, 'reference/rate-limit.ts': 3, 'reference/app.ts': 0 }, { 'reference/auth.ts': 8, 'reference/rate-limit.ts': 5 });
    expect(planted.over.map((l) => l.split(':')[0])).toEqual(['reference/new.ts', 'reference/auth.ts']);
    expect(planted.lower.map((l) => l.split(':')[0])).toEqual(['reference/rate-limit.ts']);
  });
});

/**
 * Every random draw of a suite derives from the per-rule seed, so `--rule X --seed N` replays X
 * exactly. Properties get theirs from `t.property` (service/harness/worker/rule-test.ts); a draw outside a property
 * goes through suites/_shared/seeded-draw.ts (`sampleFor`, `drawSeed`). A cheap static guard: no
 * other file of suites/ calls fc.sample / fc.generate or a raw generator, writes a `seed:` option,
 * reads the raw run seed (`t.seed`) or draws from Math.random / crypto (a value that must be unique
 * across runs comes from the run marker, `t.externalId`).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');
const SUITES = join(ROOT, 'suites');
const SEEDED_DRAW = join(SUITES, '_shared', 'seeded-draw.ts');

const PATTERNS: ReadonlyArray<[RegExp, string]> = [
  [/\bfc\s*\.\s*(sample|generate|statistics)\s*\(/, 'fc.sample/generate/statistics outside seeded-draw.ts (use sampleFor)'],
  [/\b(xorshift128plus|xoroshiro128plus|mersenne|congruential32)\s*\(|new\s+(fc\.)?Random\s*\(/, 'a raw random generator (use sampleFor)'],
  [/\bseed\s*:/, 'a seed option not derived by drawSeed (a literal or the raw run seed)'],
  [/\.\s*seed\b/, 'the raw run seed (t.seed) fed to a draw (use drawSeed / sampleFor)'],
  [/\bMath\s*\.\s*random\b|\brandom(UUID|Bytes|Int)\s*\(/, 'an unseeded random source (a unique marker comes from t.externalId)'],
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : name.endsWith('.ts') ? [p] : [];
  });
}

/** The text with comments blanked (line numbers kept), so prose about seeds is not flagged. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** Draws in `text` that do not derive from the per-rule seed, as `file:line: what`. */
export function unseededDraws(name: string, text: string): string[] {
  return code(text)
    .split('\n')
    .flatMap((line, i) => PATTERNS.filter(([re]) => re.test(line)).map(([, what]) => `${name}:${i + 1}: ${what}: ${line.trim()}`));
}

describe('seeded draws', () => {
  it('no file of suites/ draws from a seed other than the per-rule one', () => {
    const found = sources(SUITES)
      .filter((f) => f !== SEEDED_DRAW)
      .flatMap((f) => unseededDraws(relative(ROOT, f), readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });

  it('seeded-draw.ts derives its seed from deriveSeed and the rule id', () => {
    const text = readFileSync(SEEDED_DRAW, 'utf8');
    expect(text).toMatch(/deriveSeed\(t\.seed, `\$\{t\.rule\.id\}:\$\{label\}`\)/);
    expect(text).toMatch(/fc\.sample\(arb, \{ seed: drawSeed\(t, label\)/);
  });

  it('catches planted unseeded draws, and lets derived ones and prose through (the check can fail)', () => {
    const planted = [
      `const [v] = fc.sample(arb, { numRuns: 1, seed: 42 });`,
      `const v = fc.sample(longString(), { numRuns: 1, seed: t.seed + n })[0];`,
      `for (const c of fc.sample(arb, { seed, numRuns: samples })) {}`,
      `export function oneOfEachFamily(arb, seed = 42) { return run(arb, { seed: seed }); }`,
      `const rng = xorshift128plus(t.seed);`,
      `const xs = fc . generate(arb, new fc.Random(prand.mersenne(7)));`,
      `const c = alnum[Math.floor(Math.random() * alnum.length)];`,
      `const id = crypto.randomUUID();`,
    ];
    for (const p of planted) expect(unseededDraws('x.ts', p), p).not.toEqual([]);
    const fine = [
      `const [v] = sampleFor(t, 'null case', borderlineContextItems());`,
      `// one case per family for a fixed seed: 42 (prose)`,
      `/** fc.sample(arb, { seed: 42 }) in a comment */`,
      `await t.property(arb, async (v) => check(v));`,
    ];
    for (const f of fine) expect(unseededDraws('x.ts', f), f).toEqual([]);
  });
});

/**
 * Every planted fault is reachable and every fault branch is registered: the static half.
 *
 * For each reference (the reference server, the reference receiver, the example client), the
 * names a fault registry declares and the names its code switches on must be the same set. A
 * name is switched on where it appears as a string literal in a `faults.has('…')` call or as a
 * key of a `faulty: { … }` override table (references/service/steps.ts), in the reference's code outside
 * its registry files. `tsc` already refuses an unregistered name (FaultSet is a set of FaultName);
 * the scan also finds a registered fault nobody switches on, which the types cannot.
 *
 * The suite side: every fault of the server declares the rules that must catch it, each a
 * testable service-side rule (a negative control declares none and names the rules it observes).
 *
 * The dynamic half, that a fault switched on changes some answer, is proven by the mutation run
 * (test/mutation.test.ts and `npm run mutation`): every fault must be caught by a rule it
 * declares, on every seed, which cannot happen unless switching it on changes what the target
 * answers. It is not repeated here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES, isRuleId } from '../../catalogue/index.ts';
import { CLIENT_FAULTS as CLIENT_DECLARED } from '../../references/client/faults.ts';
import { FAULTS } from '../../service/mutation/faults.ts';
import { FAULT_NAMES, REFERENCE_FAULTS } from '../../references/service/fault-registry.ts';
import { RECEIVER_FAULTS as RECEIVER_DECLARED } from '../../references/receiver/faults.ts';
import { switchedOn } from './switched-on.ts';

export { switchedOn };

const ROOT = resolve(import.meta.dirname, '..', '..');

function sources(dir: string, skip: (path: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (skip(p)) return [];
    return e.isDirectory() ? sources(p, skip) : e.name.endsWith('.ts') ? [p] : [];
  });
}

/** Registered names never switched on, and names switched on but never registered (with the file). */
export function reachability(
  registered: readonly string[],
  files: ReadonlyArray<{ file: string; text: string }>,
): { unreachable: string[]; unregistered: string[] } {
  const used = new Set<string>();
  const unregistered: string[] = [];
  for (const { file, text } of files) {
    for (const name of switchedOn(text)) {
      used.add(name);
      if (!registered.includes(name)) unregistered.push(`${file}: ${name}`);
    }
  }
  return { unreachable: registered.filter((n) => !used.has(n)), unregistered };
}

const read = (paths: string[]) => paths.map((p) => ({ file: relative(ROOT, p), text: readFileSync(p, 'utf8') }));

const SIDES = [
  {
    side: 'reference server',
    registered: [...FAULT_NAMES],
    files: read(sources(join(ROOT, 'references', 'service'), (p) => p === join(ROOT, 'references', 'service', 'faults.ts'))),
  },
  {
    side: 'reference receiver',
    registered: Object.keys(RECEIVER_DECLARED),
    files: read(sources(join(ROOT, 'references', 'receiver'), (p) => p === join(ROOT, 'references', 'receiver', 'faults.ts'))),
  },
  {
    side: 'example client',
    registered: Object.keys(CLIENT_DECLARED),
    files: read(sources(join(ROOT, 'references', 'client'), (p) => p === join(ROOT, 'references', 'client', 'faults.ts'))),
  },
];

describe('planted faults are reachable and registered', () => {
  for (const { side, registered, files } of SIDES) {
    it(`${side}: every registered fault is switched on somewhere, and every name switched on is registered`, () => {
      expect(registered.length).toBeGreaterThan(0);
      expect(files.length).toBeGreaterThan(0);
      expect(reachability(registered, files)).toEqual({ unreachable: [], unregistered: [] });
    });
  }

  it('the server faults of references/service/validate-create.ts are overrides beside their steps, not inline branches', () => {
    const text = readFileSync(join(ROOT, 'references', 'service', 'validate-create.ts'), 'utf8');
    expect(text).not.toMatch(/faults\.has\(\s*['"]/);
    expect(switchedOn(text).length).toBeGreaterThanOrEqual(30);
  });

  it('the check can fail: a planted unregistered name and an unreachable fault are both reported', () => {
    const planted = [
      { file: 'references/service/x.ts', text: "if (ctx.faults.has('typo-fault')) return;\nif (faults.has(\"known-a\")) x();" },
      {
        file: 'references/service/y.ts',
        text: "const S = { name: 's', check: () => ({ a: 1 }), faulty: {\n  /* the amount's wrong { */\n  'not-registered': ({ body }) => ({ n: { deep: 'no-key-here' } }),\n  'known-b': (i, next) => next(i),\n} };\nconst other = { 'known-c': 1 };",
      },
    ];
    expect(reachability(['known-a', 'known-b', 'known-c'], planted)).toEqual({
      unreachable: ['known-c'],
      unregistered: ['references/service/x.ts: typo-fault', 'references/service/y.ts: not-registered'],
    });
  });
});

describe('what must catch each server fault (declared beside its override, checked by service/mutation/faults.ts)', () => {
  const testable = new Set<string>(RULES.filter((r) => r.level !== 'OBSERVE' && !('untestable' in r) && !('side' in r)).map((r) => r.id));

  it('every fault declares rules that must break, unless it is a negative control (which declares none and observes some)', () => {
    const wrong = Object.entries(FAULTS).flatMap(([name, def]) =>
      def.control
        ? def.breaks.length > 0 || def.control.observes.length === 0 ? [`${name}: a control declares no breaks and observes some rule`] : []
        : def.breaks.length === 0 ? [`${name}: declares no rule that must catch it`] : [],
    );
    expect(wrong).toEqual([]);
  });

  it('every declared rule is a testable service-side rule (MUST or SHOULD, not untestable, not merchant-side)', () => {
    const wrong = Object.entries(FAULTS).flatMap(([name, def]) => [
      ...def.breaks.filter((id) => !testable.has(id)).map((id) => `${name} breaks ${id}`),
      ...(def.control?.observes ?? []).filter((id) => !isRuleId(id)).map((id) => `${name} observes unknown ${id}`),
    ]);
    expect(wrong).toEqual([]);
  });

  it('describes each fault in the reference\'s own words', () => {
    for (const [name, def] of Object.entries(FAULTS)) expect(def.description, name).toBe(REFERENCE_FAULTS[name]?.does);
    expect(Object.keys(FAULTS)).toEqual(Object.keys(REFERENCE_FAULTS));
    expect(Object.keys(FAULTS).length).toBeGreaterThan(100);
  });
});

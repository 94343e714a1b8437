/**
 * Progress while a run is in progress, driven through the reporter hooks with
 * recorded test cases: a live line on a terminal, one line per finished area
 * elsewhere, each FAIL as it happens with its replay line, fail-fast.
 */
import type { TestCase, TestModule, TestSpecification, Vitest } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import { getRule, type RuleId } from '../catalogue/index.ts';
import { createProgress } from '../service/harness/main/progress.ts';

const mod = (area: string, file = 'x') => ({ moduleId: `/pkg/suites/${area}/${file}.rules.ts` });

function tc(
  title: string,
  area: string,
  state: 'passed' | 'failed' | 'skipped',
  requests = 2,
  message = 'answered 201, expected 401',
): TestCase {
  return {
    name: title,
    module: mod(area),
    result: () => (state === 'failed' ? { state, errors: [{ message }] } : { state, errors: [] }),
    diagnostic: () => ({ duration: 5 }),
    meta: () => ({ hps: { requests } }),
  } as unknown as TestCase;
}
const moduleOf = (
  area: string,
  titles: string[],
) => ({ ...mod(area), children: { allTests: () => titles.map((t) => ({ name: t })) } }) as unknown as TestModule;
const spec = (area: string) => mod(area) as unknown as TestSpecification;

function harness(live: boolean, maxFailures?: number, ids: RuleId[] = ['AUTH-MISSING-KEY', 'AUTH-MALFORMED-KEY', 'ROUTE-UNKNOWN-404']) {
  const out: string[] = [];
  let clock = 1000;
  const cancelled: string[] = [];
  const m = createProgress({
    selected: ids.map((id) => getRule(id)),
    live,
    maxFailures,
    write: (s) => void out.push(s),
    now: () => clock,
    replay: (rules) => rules.forEach((r) => r.evidence.push({ kind: 'replay', command: `hps-conformance run --rule ${r.id} --seed 1` })),
  });
  m.reporter.onInit!({ cancelCurrentRun: async (why: string) => void cancelled.push(why) } as unknown as Vitest);
  return { m, out, tick: (ms: number) => (clock += ms), cancelled };
}

describe('progress', () => {
  it('in CI: a start line, each FAIL with its replay line at once, one line per finished area', async () => {
    const { m, out, tick } = harness(false);
    const r = m.reporter;
    await r.onTestRunStart!([spec('auth'), spec('routing')]);
    expect(out.join('')).toBe('running 3 rules in 2 area(s), 2 suite file(s)…\n');
    expect(m.firstLineMs()).toBe(0);
    await r.onTestModuleCollected!(moduleOf('auth', ['AUTH-MISSING-KEY: a', 'AUTH-MALFORMED-KEY: b']));
    tick(1500);
    await r.onTestCaseResult!(tc('AUTH-MISSING-KEY: a', 'auth', 'failed', 3));
    expect(out.at(-1)).toBe('FAIL  AUTH-MISSING-KEY — answered 201, expected 401\n      replay: hps-conformance run --rule AUTH-MISSING-KEY --seed 1\n');
    await r.onTestCaseResult!(tc('AUTH-MALFORMED-KEY: b', 'auth', 'passed', 4));
    expect(out).toHaveLength(2); // no line for a pass in CI
    tick(500);
    await r.onTestModuleEnd!(moduleOf('auth', []));
    expect(out.at(-1)).toBe('auth: 2 rules done · 1 FAIL · 7 requests · rules 2/3 · 2.0 s\n');
    await r.onTestModuleEnd!(moduleOf('routing', []));
    expect(out.at(-1)).toMatch(/^routing: 1 rules done · 0 FAIL · 0 requests · rules 3\/3/);
    await r.onTestRunEnd!([], [], 'failed');
    expect(m.stopReason()).toBeUndefined();
  });

  it('on a terminal: one line repainted in place with area, rules done/total, requests, failures, elapsed', async () => {
    const { m, out, tick } = harness(true);
    const r = m.reporter;
    await r.onTestRunStart!([spec('auth')]);
    expect(out[0]).toBe('\r\x1b[K… · rules 1/3 · 0 requests · 0 FAIL · 0.0 s'); // routing has no file here: done
    await r.onTestModuleCollected!(moduleOf('auth', ['AUTH-MALFORMED-KEY: b']));
    tick(2345);
    await r.onTestCaseResult!(tc('AUTH-MALFORMED-KEY: b', 'auth', 'passed', 4));
    expect(out.at(-1)).toBe('\r\x1b[Kauth · rules 2/3 · 4 requests · 0 FAIL · 2.3 s');
    tick(200);
    await r.onTestCaseResult!(tc('AUTH-MISSING-KEY: a', 'auth', 'failed', 1));
    const failAt = out.findIndex((l) => l.includes('FAIL  AUTH-MISSING-KEY'));
    expect(out[failAt]).toMatch(/^\r\x1b\[KFAIL  AUTH-MISSING-KEY — .*\n {6}replay: .*\n$/);
    expect(out.at(-1)).toMatch(/auth · rules 3\/3 · 5 requests · 1 FAIL · 2\.5 s$/);
    await r.onTestRunEnd!([], [], 'failed');
    expect(out.at(-1)).toBe('\r\x1b[K');
    const n = out.length;
    tick(5000);
    await r.onTestCaseResult!(tc('ROUTE-UNKNOWN-404: c', 'routing', 'passed'));
    expect(out.slice(n).join('')).toBe(''); // nothing painted after the end
  });

  it('a SHOULD failure is a WARN (printed, not counted as a FAIL); a skipped test is nothing', async () => {
    const { m, out } = harness(false, undefined, ['ROUTE-ALLOW-HEADER', 'AUTH-MISSING-KEY']);
    await m.reporter.onTestRunStart!([spec('routing')]);
    await m.reporter.onTestCaseResult!(tc('ROUTE-ALLOW-HEADER: x', 'routing', 'failed', 1, 'no Allow header'));
    await m.reporter.onTestCaseResult!(tc('AUTH-MISSING-KEY: a', 'auth', 'skipped'));
    expect(out.slice(1).join('')).toMatch(/^WARN  ROUTE-ALLOW-HEADER — no Allow header\n/);
    expect(out.join('')).not.toMatch(/FAIL  /);
  });

  it('an area with no suite file counts as done from the start', async () => {
    const { m, out } = harness(true);
    await m.reporter.onTestRunStart!([spec('auth')]);
    expect(out[0]).toContain('rules 1/3'); // ROUTE-UNKNOWN-404's area has no file in this run
  });

  it('a failure of a rule outside the selection (ambient traffic) is not printed: the report would not list it', async () => {
    const { m, out } = harness(false, undefined, ['AUTH-MISSING-KEY']);
    await m.reporter.onTestRunStart!([spec('auth')]);
    await m.reporter.onTestCaseResult!(tc('ROUTE-UNKNOWN-404: x', 'routing', 'failed'));
    expect(out).toHaveLength(1);
  });

  it('--max-failures: cancels the run at the Nth FAIL rule, once, and says why', async () => {
    const { m, out, cancelled } = harness(false, 2);
    await m.reporter.onTestRunStart!([spec('auth')]);
    await m.reporter.onTestCaseResult!(tc('AUTH-MISSING-KEY: a', 'auth', 'failed'));
    await m.reporter.onTestCaseResult!(tc('AUTH-MISSING-KEY: a2', 'auth', 'failed'));
    expect(cancelled).toEqual([]); // the same rule twice is one FAIL rule
    await m.reporter.onTestCaseResult!(tc('AUTH-MALFORMED-KEY: b', 'auth', 'failed'));
    expect(cancelled).toEqual(['test-failure']);
    expect(m.stopReason()).toBe('stopped after 2 FAIL rule(s) (--max-failures 2)');
    expect(out.at(-1)).toBe('stopped after 2 FAIL rule(s) (--max-failures 2)\n');
    await m.reporter.onTestCaseResult!(tc('ROUTE-UNKNOWN-404: c', 'routing', 'failed'));
    expect(cancelled).toHaveLength(1);
  });
});

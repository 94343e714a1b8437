import { describe, expect, it } from 'vitest';
import { parseAnswerPlan, plannedAnswer, type AnswerPlan, type PlannedAnswer } from '../../service/sink/index.ts';

describe('parseAnswerPlan: the metadata.sink marker grammar', () => {
  it.each<[unknown, AnswerPlan]>([
    [undefined, { kind: 'ack', status: 200 }],
    [null, { kind: 'ack', status: 200 }],
    ['fail:500x2', { kind: 'fail', status: 500, count: 2 }],
    ['fail:302x1', { kind: 'fail', status: 302, count: 1 }],
    ['fail:404x999', { kind: 'fail', status: 404, count: 999 }],
    ['redirect:1', { kind: 'redirect', count: 1 }],
    ['timeout:3', { kind: 'timeout', count: 3 }],
    ['reset:10', { kind: 'reset', count: 10 }],
    ['ack:202', { kind: 'ack', status: 202 }],
    ['ack:204', { kind: 'ack', status: 204 }],
  ])('%j is understood', (marker, plan) => {
    expect(parseAnswerPlan(marker)).toEqual({ plan });
  });

  it.each([
    ['fail:200x1', /not a 3xx/],
    ['fail:600x1', /not a 3xx/],
    ['fail:500x0', /unknown marker/],
    ['fail:500x1000', /unknown marker/],
    ['fail:500x', /unknown marker/],
    ['fail:500', /unknown marker/],
    ['fail:5000x1', /unknown marker/],
    ['FAIL:500x1', /unknown marker/],
    [' fail:500x1', /unknown marker/],
    ['fail:500x1 ', /unknown marker/],
    ['redirect:0', /unknown marker/],
    ['redirect:01', /unknown marker/],
    ['timeout:-1', /unknown marker/],
    ['reset:', /unknown marker/],
    ['ack:500', /not a 2xx/],
    ['ack:2xx', /unknown marker/],
    ['', /unknown marker/],
    ['fail:500x2,timeout:1', /unknown marker/],
    [`fail:500x1${'0'.repeat(80)}`, /longer than/],
    [500, /not a string/],
    [{ kind: 'fail' }, /not a string/],
    [true, /not a string/],
  ])('%j falls back to a plain 200 with a plan problem', (marker, problem) => {
    const parsed = parseAnswerPlan(marker);
    expect(parsed.plan).toEqual({ kind: 'ack', status: 200 });
    expect(parsed.problem).toMatch(problem);
  });
});

describe('plannedAnswer: the first N attempts as planned, then 200', () => {
  const sequence = (plan: AnswerPlan, attempts: number): PlannedAnswer[] =>
    Array.from({ length: attempts }, (_, i) => plannedAnswer(plan, i + 1));
  const ok: PlannedAnswer = { kind: 'status', status: 200 };

  it('fail:503x2 answers 503, 503, then 200', () => {
    expect(sequence({ kind: 'fail', status: 503, count: 2 }, 4)).toEqual([
      { kind: 'status', status: 503 },
      { kind: 'status', status: 503 },
      ok,
      ok,
    ]);
  });

  it.each(['redirect', 'timeout', 'reset'] as const)('%s:1 answers %s once, then 200', (kind) => {
    expect(sequence({ kind, count: 1 }, 3)).toEqual([{ kind }, ok, ok]);
  });

  it('ack:202 answers 202 to every attempt', () => {
    expect(sequence({ kind: 'ack', status: 202 }, 3)).toEqual(Array(3).fill({ kind: 'status', status: 202 }));
  });
});

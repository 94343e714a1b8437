import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validate } from '../../catalogue/schemas/index.ts';
import { KEY_KINDS, TOO_MANY_METADATA_KEYS, UNKNOWN_ROUTES, trafficStep, type Step } from './traffic-step.ts';

const isValidCreate = (body: Record<string, unknown>) => validate('CreatePaymentRequest', body).valid;

describe('trafficStep', () => {
  it('yields well-formed steps: a known key kind and what the operation needs', () => {
    fc.assert(
      fc.property(trafficStep(), (s: Step) => {
        expect(KEY_KINDS).toContain(s.key);
        switch (s.op) {
          case 'create':
            expect(['none', 'fresh', 'replay', 'conflict']).toContain(s.idem);
            if (s.body.kind === 'valid' || s.body.kind === 'reuse-external-id') expect(
              isValidCreate(s.body.body),
              JSON.stringify(s.body),
            ).toBe(true);
            if (s.body.kind === 'invalid') expect(s.body.why.length).toBeGreaterThan(0);
            if (s.body.kind === 'raw') expect(s.body.contentType.length).toBeGreaterThan(0);
            break;
          case 'list':
            for (const v of Object.values(s.query)) expect(typeof v).toBe('string');
            break;
          case 'unknown-route':
            expect(UNKNOWN_ROUTES).toContain(s.path);
            break;
          case 'wrong-method':
            expect(s.path.startsWith('/v1/')).toBe(true);
            break;
          default:
            expect(['get', 'cancel', 'succeed', 'helper-cancel']).toContain(s.op);
            if (s.id.kind === 'unknown') expect(s.id.value.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('an invalid body is one the schema rejects (so its 400 is owed)', () => {
    fc.assert(
      fc.property(trafficStep(), (s) => s.op !== 'create' || s.body.kind !== 'invalid' || !isValidCreate(s.body.body)),
      { numRuns: 2000 },
    );
    expect(Object.keys(TOO_MANY_METADATA_KEYS)).toHaveLength(21);
  });

  it('reaches every operation, every key kind and every body kind', () => {
    const steps = fc.sample(trafficStep(), { seed: 12, numRuns: 2000 });
    expect(new Set(steps.map((s) => s.op))).toEqual(new Set(['create', 'list', 'get', 'cancel', 'succeed', 'helper-cancel', 'unknown-route', 'wrong-method']));
    expect(new Set(steps.map((s) => s.key))).toEqual(new Set(KEY_KINDS));
    expect(new Set(steps.flatMap((s) => (s.op === 'create' ? [s.body.kind] : [])))).toEqual(new Set([
      'valid',
      'invalid',
      'raw',
      'reuse-external-id',
    ]));
  });

  it('yields the same values for the same seed', () => {
    expect(fc.sample(trafficStep(), { seed: 42, numRuns: 20 })).toEqual(fc.sample(trafficStep(), { seed: 42, numRuns: 20 }));
  });
});

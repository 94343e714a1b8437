/**
 * The circuit breaker half-opens: after CIRCUIT_THRESHOLD requests in a row without an answer,
 * requests wait; after a pause one goes through, and when the target answers it the circuit
 * closes and everyone goes on. A target away past the outage budget is refused at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CIRCUIT_THRESHOLD, circuitOpen, passCircuit, recordAnswer, recordNoAnswer, resetCircuits } from '../../core/circuit.ts';

const ORIGIN = 'http://127.0.0.1:1';
afterEach(() => resetCircuits());

describe('the circuit breaker', () => {
  it('lets requests through while closed', async () => {
    for (let i = 0; i < CIRCUIT_THRESHOLD - 1; i++) recordNoAnswer(ORIGIN);
    expect((await passCircuit(ORIGIN)).refused).toBeUndefined();
    expect((await passCircuit(ORIGIN)).waitedMs).toBeLessThan(50);
  });

  it('opens after the threshold, lets one probe through after a pause, and closes when it is answered', async () => {
    for (let i = 0; i < CIRCUIT_THRESHOLD; i++) recordNoAnswer(ORIGIN);
    const probe = await passCircuit(ORIGIN, 10_000);
    expect(probe.refused).toBeUndefined();
    expect(probe.waitedMs).toBeGreaterThanOrEqual(200); // the pause before the half-open probe
    let othersPassed = false;
    const other = passCircuit(ORIGIN, 10_000).then((r) => ((othersPassed = true), r));
    await new Promise((r) => setTimeout(r, 400));
    expect(othersPassed).toBe(false); // waits while the probe is in flight
    recordAnswer(ORIGIN);
    expect((await other).refused).toBeUndefined();
  });

  it('refuses at once when the target stays away past the outage budget', async () => {
    for (let i = 0; i < CIRCUIT_THRESHOLD; i++) recordNoAnswer(ORIGIN);
    const started = performance.now();
    for (;;) {
      const r = await passCircuit(ORIGIN, 1_000);
      if (r.refused) break;
      recordNoAnswer(ORIGIN); // every probe goes unanswered
    }
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(circuitOpen(ORIGIN, 1_000)).toMatch(/did not answer again within 1 s/);
    const t = performance.now();
    expect((await passCircuit(ORIGIN, 1_000)).refused).toBeDefined();
    expect(performance.now() - t).toBeLessThan(50);
  });
});

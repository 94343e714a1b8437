import { describe, expect, it } from 'vitest';
import { cpuShares, median, workersCeiling } from './bench-cpu.ts';

describe('bench:load arithmetic', () => {
  it('takes the true median (the middle two averaged for an even count)', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([0.4, 0.53])).toBeCloseTo(0.465, 9);
    expect(median([5])).toBe(5);
  });

  it('splits busy cores into client, server, interrupts and other jobs', () => {
    const a = { at: 0, client: 10, server: 20, busy: 100, irq: 5 };
    const b = { at: 2000, client: 12, server: 21, busy: 104, irq: 5.4 };
    const s = cpuShares(a, b);
    expect(s.client).toBeCloseTo(1, 9);
    expect(s.server).toBeCloseTo(0.5, 9);
    expect(s.irq).toBeCloseTo(0.2, 9);
    expect(s.others).toBeCloseTo(0.3, 9);
  });

  it('bounds --workers 2 / --workers 1 by the CPU a request costs and the cores left free', () => {
    // One worker: 50k req/s on 1 core (20 µs), nginx 0.4 core (8 µs), interrupts 0.1 (2 µs); 0.2 core taken by others at two workers.
    const w1 = { rps: 50_000, cpu: { client: 1, server: 0.4, irq: 0.1, others: 0 } };
    const w2 = { rps: 60_000, cpu: { client: 1.3, server: 0.5, irq: 0, others: 0.2 } };
    const c = workersCeiling(w1, w2, 2)!;
    expect(c.g * 1e6).toBeCloseTo(20, 9);
    expect(c.n * 1e6).toBeCloseTo(8, 9);
    expect(c.free).toBeCloseTo(1.8, 9);
    expect(c.ceiling).toBeCloseTo(1.8 / 30e-6 / 50_000, 9); // 1.2×
    expect(c.wholeCoreCeiling).toBeCloseTo((2 * 20) / 30, 9); // 1.33×: nginx + interrupts take a third of each request's CPU
    expect(c.coresFor17).toBeCloseTo((1.7 * 30) / 20, 9); // 2.55 cores
    expect(c.targetFor17 * 1e6).toBeCloseTo(20 * (2 / 1.7 - 1), 6); // 3.5 µs for nginx + interrupts
    expect(workersCeiling({ ...w1, cpu: { ...w1.cpu, server: null } }, w2, 2)).toBeNull();
  });
});

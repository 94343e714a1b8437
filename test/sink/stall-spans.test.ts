/**
 * service/sink/stall-spans.ts: when the sink's loop stood still, kept as spans so a late retry is
 * excused only by the stalls between when it was due and when it arrived, never by one before.
 */
import { describe, expect, it } from 'vitest';
import { coarsenSpans, coveredMs, relativeSpans, stalledBeforeArrivalMs, type Span } from '../../service/sink/stall-spans.ts';

const total = (spans: readonly Span[]) => spans.reduce((n, [s, e]) => n + e - s, 0);

describe('stall spans', () => {
  it('joins overlapping spans and keeps disjoint ones apart', () => {
    expect(coarsenSpans([[50, 60], [0, 10], [5, 20]], 8)).toEqual([[0, 20], [50, 60]]);
  });

  it('caps the count by joining the closest neighbours, never covering less than was measured', () => {
    const spans: Span[] = Array.from({ length: 750 }, (_, i) => [i * 20 + (i % 7), i * 20 + (i % 7) + 3 + (i % 5)]);
    const out = coarsenSpans(spans, 32);
    expect(out.length).toBeLessThanOrEqual(32);
    for (const [s, e] of spans) expect(out.some(([a, b]) => a <= s && e <= b)).toBe(true);
    expect(total(out)).toBeGreaterThanOrEqual(total(coarsenSpans(spans, 10_000)));
  });

  it('counts only what falls inside the interval', () => {
    expect(coveredMs([[0, 100], [200, 300]], 50, 250)).toBe(100);
    expect(coveredMs([[0, 100]], 100, 200)).toBe(0);
  });

  it('rounds relative spans outward', () => {
    expect(relativeSpans([[1000.4, 1200.6]], 1500.5)).toEqual([[-501, -299]]);
  });

  it('excuses a retry by the stalls after it was due, not by one before', () => {
    const arrival = { receivedAt: 10_000, stalls: [[-9_000, -6_000], [-2_000, -500]] as Span[], stallMs: 3_000 };
    expect(stalledBeforeArrivalMs(arrival, 5_000)).toBe(1_500);
    expect(stalledBeforeArrivalMs(arrival, 0)).toBe(4_500);
  });

  it('reads a log written before spans were recorded as before: the longest stall, whole', () => {
    expect(stalledBeforeArrivalMs({ receivedAt: 10_000, stallMs: 2_500 }, 9_000)).toBe(2_500);
    expect(stalledBeforeArrivalMs({ receivedAt: 10_000 }, 9_000)).toBe(0);
  });
});

/**
 * service/sink/stall-spans.ts: a late retry from a sender in the sink's process is excused by the
 * few longest stalls between when it was due and when it arrived, never by one before, and never by
 * the sum of a starved machine's many short ones.
 */
import { describe, expect, it } from 'vitest';
import { longestSpans, relativeSpans, stallDelayMs, TURNS, type Span } from '../../service/sink/stall-spans.ts';

describe('stall spans', () => {
  it('keeps the longest, by start, and a floor no span left out exceeds', () => {
    expect(longestSpans([[50, 60], [0, 30], [100, 105]], 8)).toEqual({ spans: [[0, 30], [50, 60], [100, 105]], floorMs: 0 });
    expect(longestSpans([[50, 60], [0, 30], [100, 105]], 2)).toEqual({ spans: [[0, 30], [50, 60]], floorMs: 5 });
  });

  it('rounds relative spans outward', () => {
    expect(relativeSpans([[1000.4, 1200.6]], 1500.5)).toEqual([[-501, -299]]);
  });

  it('excuses a retry by a block after it was due, not by one before', () => {
    const arrival = { receivedAt: 10_000, stalls: [[-9_000, -6_000], [-2_000, -500]] as Span[] };
    expect(stallDelayMs(arrival, 5_000)).toBe(1_500);
    expect(stallDelayMs(arrival, 0)).toBe(4_500);
    expect(stallDelayMs(arrival, 10_000)).toBe(0);
  });

  it(`counts only the ${TURNS} longest stalls of a starved loop, not their sum`, () => {
    // 80 ms stalls every 100 ms over 5 s: the loop still 80 % of the time, each wait short.
    const stalls: Span[] = Array.from({ length: 50 }, (_, i) => [-5_000 + i * 100, -5_000 + i * 100 + 80]);
    expect(stallDelayMs({ receivedAt: 0, stalls }, -5_000)).toBe(TURNS * 80);
  });

  it('counts a stall the record left out at its floor', () => {
    expect(stallDelayMs({ receivedAt: 0, stalls: [[-100, -50]], stallFloorMs: 30 }, -1_000)).toBe(50 + 3 * 30);
    expect(stallDelayMs({ receivedAt: 0, stalls: [], stallFloorMs: 500 }, -200)).toBe(200);
  });

  it('reads a log written before spans were recorded as before: the longest stall, whole', () => {
    expect(stallDelayMs({ receivedAt: 10_000, stallMs: 2_500 }, 9_000)).toBe(2_500);
    expect(stallDelayMs({ receivedAt: 10_000 }, 9_000)).toBe(0);
  });
});

describe('stall spans from a damaged log', () => {
  it('count a span that is not two numbers as the whole stretch, never as none', () => {
    const damaged = { receivedAt: 0, stalls: [['x', 3], 7] as unknown as Span[] };
    expect(stallDelayMs(damaged, -1_000)).toBe(1_000);
  });
});

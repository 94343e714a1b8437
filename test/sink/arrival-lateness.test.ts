/**
 * How much of a retry gap measured short an earlier attempt's own latency explains
 * (service/sink/arrival-lateness.ts): a sender that counts gaps from the start of its attempts, one
 * attempt of which took 1.3 s to arrive, against the same sender reading its schedule a step behind.
 */
import { describe, expect, it } from 'vitest';
import { arrivalLatenessMs, fastestLeadMs, slowWayMs } from '../../service/sink/index.ts';

const SCALE = 4000;
const GAPS = [0, 30_000, 120_000, 600_000, 1_800_000, 7_200_000, 21_600_000].map((g) => g / SCALE);

/** Arrivals of a sender that starts attempt n+1 `gaps[n]` after attempt n started, each arriving `latency[n]` after its start. */
function arrivals(gaps: readonly number[], latency: readonly number[]): number[] {
  let start = 1_000;
  return latency.map((l, n) => {
    if (n > 0) start += gaps[n - 1]!;
    return start + l;
  });
}

/** Gaps measured short by more than 250 ms plus the earlier attempt's lateness: what the rules fail. */
function early(at: readonly number[]): string[] {
  return at.slice(1).flatMap((b, i) => {
    const short = GAPS[i]! - (b - at[i]!);
    return short > 250 + arrivalLatenessMs(at, GAPS, i) ? [`attempt ${i + 2}: ${Math.round(short)} ms short`] : [];
  });
}

describe('arrivalLatenessMs', () => {
  it('is 0 for the first attempt and for a sender exactly on time', () => {
    const at = arrivals(GAPS, new Array(8).fill(5));
    expect(at.map((_, i) => arrivalLatenessMs(at, GAPS, i))).toEqual(new Array(8).fill(0));
  });

  it('explains the CI false alarm: attempt 7 arrived 1 343 ms late, so the 6 h gap measured 4 057 ms of 5 400', () => {
    const at = arrivals(GAPS, [5, 5, 5, 5, 5, 5, 1348, 5]);
    expect(Math.round(at[7]! - at[6]!)).toBe(4057);
    expect(arrivalLatenessMs(at, GAPS, 6)).toBe(1343);
    expect(early(at)).toEqual([]);
  });

  it('measures lateness against any earlier arrival, so two late attempts in a row are both covered', () => {
    const at = arrivals(GAPS, [5, 5, 5, 5, 5, 900, 1400, 5]);
    expect(arrivalLatenessMs(at, GAPS, 6)).toBe(1395);
    expect(early(at)).toEqual([]);
  });

  it('still catches a schedule read one step behind at the 2 h and 6 h gaps, with or without noise in the arrivals', () => {
    const shifted = [0, ...GAPS.slice(0, -1)];
    for (const latency of [new Array(8).fill(5), [5, 300, 5, 200, 5, 150, 5, 5], [200, 5, 5, 5, 5, 5, 5, 5]]) {
      const got = early(arrivals(shifted, latency));
      // Short by 7.5, 22.5, 120, 300, 1 350 and 3 600 ms: from the 2 h gap on, beyond any noise the sender shows.
      expect(got.map((l) => l.split(':')[0])).toEqual(expect.arrayContaining(['attempt 7', 'attempt 8']));
    }
  });
});

describe('slowWayMs: how long a delivery spent on the way after it was signed, beyond the run\'s fastest', () => {
  /** A delivery signed at `sentMs` (its `t` floored to the second), arriving `wayMs` later. */
  const signed = (sentMs: number, wayMs: number, valid = true) => ({
    receivedAt: sentMs + wayMs,
    signature: { valid, t: Math.floor(sentMs / 1000) },
  });

  it('explains the CI warning: a retry 3 652 ms after the attempt before it, sent on time, 3.2 s on the way', () => {
    // Attempt 2 at 1 000.4 s (answered in 1 ms); attempt 3 due 7.5 ms after; its sender started it 455 ms late;
    // it arrived 3 652 ms after attempt 2.
    const two = signed(1_000_400, 3);
    const sent = two.receivedAt + 1 + 7.5 + 455;
    const three = signed(sent, two.receivedAt + 3652 - sent);
    expect(Math.round(three.receivedAt - two.receivedAt)).toBe(3652);
    const fastest = fastestLeadMs([signed(999_100, 2), two, three]);
    const way = slowWayMs(three, fastest);
    // At least 2.2 s shown (of 3.2 s, less a second of flooring): the 643 ms beyond the 3 s tolerance is covered.
    expect(way).toBeGreaterThanOrEqual(2_190);
    expect(3652 - 1 - 7.5 - 3000).toBeLessThanOrEqual(way);
  });

  it('shows nothing for a sender that is itself late: it signs late', () => {
    const fastest = fastestLeadMs([signed(1_000_000, 2), signed(1_030_000, 3)]);
    expect(slowWayMs(signed(1_045_000, 4), fastest)).toBe(0);
    // Flooring alone (up to 1 s of lead) is never taken for time on the way.
    expect(slowWayMs(signed(1_046_999, 3), fastestLeadMs([signed(1_000_000, 2)]))).toBe(0);
  });

  it('trusts only a verified signature, and shows nothing without a fastest lead to measure against', () => {
    const fastest = fastestLeadMs([signed(1_000_000, 2), signed(999_000, 5_000, false)]);
    expect(fastest).toBe(2);
    expect(slowWayMs(signed(1_000_000, 9_000, false), fastest)).toBe(0);
    expect(slowWayMs(signed(1_000_000, 9_000), undefined)).toBe(0);
    expect(slowWayMs({ receivedAt: 5, signature: null }, fastest)).toBe(0);
  });
});

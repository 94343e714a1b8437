/**
 * Every attempt signed for itself (service/sink/attempt-signing.ts): the t of two attempts of one
 * event at one endpoint moves with the time between their arrivals.
 */
import { describe, expect, it } from 'vitest';
import { judgeAttemptSigning, MIN_APART_MS } from '../../service/sink/index.ts';

const T0 = 1_800_000_000;
const at = (seq: number, offsetMs: number, t: number | undefined, stampNoiseMs = 0) => ({
  seq, receivedAt: T0 * 1000 + offsetMs + 400, t, stampNoiseMs,
});

describe('judgeAttemptSigning', () => {
  it('passes attempts whose t moves with them, whatever constant skew the target clock has', () => {
    const skewed = (s: number) => T0 + s - 42; // the target's clock 42 s behind the sink's
    const attempts = [at(1, 0, skewed(0)), at(2, 10, skewed(0)), at(3, 10_200, skewed(10)), at(4, 7_850_000, skewed(7850))];
    const f = judgeAttemptSigning('e', attempts);
    expect(f.problems).toEqual([]);
    expect(f.compared).toBe(5); // pairs 3 s or more apart: 1-3, 2-3, 1-4, 2-4, 3-4
  });

  it('fails a retry that re-sends the first attempt\'s header (the same t 7.9 s later), naming both attempts', () => {
    const f = judgeAttemptSigning('payment.paid at /hooks/a', [at(1, 0, T0), at(2, 30, T0), at(3, 2_400, T0), at(4, 7_900, T0)]);
    expect(f.problems).toHaveLength(1);
    expect(f.problems[0]).toMatch(/#4 arrived 7\.9 s after #1 but carries the same t \(1800000000\) as #1/);
    expect(f.problems[0]).toMatch(/the earlier attempt's signature re-sent/);
  });

  it('fails a t that lags its attempt by more than the tolerance, and says "before" rather than a negative duration', () => {
    const lag = judgeAttemptSigning('e', [at(1, 0, T0), at(2, 10_000, T0 + 6)]);
    expect(lag.problems[0]).toMatch(/a t 6 s after #1's/);
    const back = judgeAttemptSigning('e', [at(1, 0, T0 + 5), at(2, 4_000, T0)]);
    expect(back.problems[0]).toMatch(/a t 5 s before #1's/);
    expect(back.problems.join(' ')).not.toMatch(/-\d/);
  });

  it('does not fail a t that moves more than the arrivals (an earlier attempt delivered late after it was signed)', () => {
    // Seen behind a starved rate-limiting front end: #348 arrived 10.9 s after #71 with a t 14 s after #71's.
    expect(judgeAttemptSigning('e', [at(71, 0, T0), at(348, 10_900, T0 + 14)]).problems).toEqual([]);
    expect(judgeAttemptSigning('e', [at(71, 0, T0), at(348, 10_900, T0 + 14)]).compared).toBe(1);
  });

  it('does not judge attempts closer than MIN_APART_MS (whole-second t), nor attempts without a t', () => {
    expect(judgeAttemptSigning('e', [at(1, 0, T0), at(2, MIN_APART_MS - 1, T0)]).compared).toBe(0);
    expect(judgeAttemptSigning('e', [at(1, 0, undefined), at(2, 60_000, T0)]).compared).toBe(0);
  });

  it('widens the tolerance by the sink\'s recorded clock lag at either arrival', () => {
    const late = [at(1, 0, T0), at(2, 13_000, T0 + 10, 1_500)]; // stamped 3 s apart from its t: 2 s + 1.5 s of lag allows it
    expect(judgeAttemptSigning('e', late).problems).toEqual([]);
    expect(judgeAttemptSigning('e', [at(1, 0, T0), at(2, 13_000, T0 + 10)]).problems).toHaveLength(1);
  });

  it('allows a retry arriving as late against the schedule as its t is behind: the CI case (12.6 s on, a t 9 s on)', () => {
    // Attempt 1 held by the sink until the sender closed it at 10 s; attempt 2 (gap: immediately) arrived 2.6 s after that.
    const held = { ...at(26, 0, T0), offsetMs: 0 };
    const retry = { ...at(121, 12_600, T0 + 9), offsetMs: 0, notBeforeMs: T0 * 1000 + 400 + 10_000 };
    expect(judgeAttemptSigning('e', [held, retry]).problems).toEqual([]);
    // Without the schedule it is judged as before.
    expect(judgeAttemptSigning('e', [at(26, 0, T0), at(121, 12_600, T0 + 9)]).problems).toHaveLength(1);
  });

  it('still fails a re-sent header with the schedule given: behind by the whole scheduled distance', () => {
    // The ladder at time_scale 4000, on time, every retry with attempt 1's t: attempt 8 is 7.8 s on.
    const offsets = [0, 0, 7.5, 37.5, 187.5, 637.5, 2437.5, 7837.5];
    const ladder = offsets.map((o, i) => ({ ...at(i + 1, o + 5 * i, T0), offsetMs: o }));
    expect(judgeAttemptSigning('e', ladder).problems).toHaveLength(1);
    // A held attempt's retry re-sending its header, 0.1 s after the sender closed the held one.
    const held = [{ ...at(1, 0, T0), offsetMs: 0 }, { ...at(2, 10_100, T0), offsetMs: 0, notBeforeMs: T0 * 1000 + 400 + 10_000 }];
    expect(judgeAttemptSigning('e', held).problems).toHaveLength(1);
  });
});

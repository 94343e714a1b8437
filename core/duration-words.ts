/**
 * Durations in evidence words. A duration is a span between two instants, never negative: a
 * negative one is a sentence built on the wrong pair of instants (a re-send measured from an answer
 * it did not wait for reads "came -1568 ms later"), so the builder refuses it and the caller says
 * what happened instead (merchant/client/judge.ts: "was sent while #N was still unanswered").
 */

/** `ms` as "N ms" (rounded); throws RangeError on a negative or non-finite span (a programming error). */
export function durationWords(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`a duration is a finite number of ms, 0 or more, not ${ms}`);
  return `${Math.round(ms)} ms`;
}

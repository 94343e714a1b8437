/**
 * Timeline evidence from what a webhook suite measured: each attempt's arrival and answer, and the
 * schedule's gaps (already divided by the run's time scale). For suites to leave in their evidence.
 */
import type { TimelineEvidence } from './model.ts';

export interface Arrival {
  /** Arrival time at the receiver, epoch milliseconds. */
  receivedAt: number;
  /** The receiver's answer: an HTTP status, or `timeout` / `reset`. */
  status: number | string;
}

/** `scheduleGapsMs[n]` is the gap the schedule puts between attempt n+1 and n+2 (so [0] is "immediately"). */
export function timelineEvidence(
  eventId: string,
  label: string | undefined,
  arrivals: readonly Arrival[],
  scheduleGapsMs: readonly number[],
): TimelineEvidence {
  const sorted = [...arrivals].sort((a, b) => a.receivedAt - b.receivedAt);
  const t0 = sorted[0]?.receivedAt ?? 0;
  return {
    kind: 'timeline',
    event_id: eventId,
    ...(label ? { label } : {}),
    attempts: sorted.map((a, i) => ({
      at_ms: Math.round(a.receivedAt - t0),
      status: a.status,
      gap_ms: i === 0 ? 0 : Math.round(a.receivedAt - sorted[i - 1]!.receivedAt),
      ...(i > 0 && scheduleGapsMs[i - 1] !== undefined ? { expected_gap_ms: Math.round(scheduleGapsMs[i - 1]!) } : {}),
    })),
  };
}

/** Which planned failures the command's traffic met, and why the others were not (report and console). */
import type { RecordedRequest } from './recorder.ts';
import type { FailureSchedule } from './schedule.ts';

export interface FailureMet {
  kind: string;
  failure: string;
  /** The request that met it ("#3 POST /v1/payments"), or null. */
  met_by: string | null;
  why_not?: string;
}

export function failuresMet(schedule: FailureSchedule, log: readonly RecordedRequest[]): FailureMet[] {
  const fresh = (kind: string) => new Set(log.filter((r) => r.kind === kind).map((r) => r.identity)).size;
  const position = new Map<string, number>();
  return schedule.planned.map((p) => {
    const n = (position.get(p.kind) ?? 0) + 1;
    position.set(p.kind, n);
    const failure = p.injection === '429' ? `429 (Retry-After: ${p.retryAfterS})` : p.injection;
    const met = log.filter((r) => r.kind === p.kind && r.injected)[n - 1];
    if (met) return { kind: p.kind, failure, met_by: `#${met.seq} ${met.method} ${met.path.split('?')[0]}` };
    return {
      kind: p.kind,
      failure,
      met_by: null,
      why_not: `the command made ${fresh(p.kind)} ${p.kind} operation(s); this failure was planned for the ${ordinal(n)}`,
    };
  });
}

function ordinal(n: number): string {
  return `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;
}

/** One console line: "failures met: 19 of 21 (not met: create 400 — the command made 9 create operation(s) …)". */
export function failuresMetLine(list: readonly FailureMet[]): string {
  const missed = list.filter((f) => !f.met_by);
  if (missed.length === list.length) return `injected failures met: 0 of ${list.length} (the command made no create, read or cancel)`;
  const head = `injected failures met: ${list.length - missed.length} of ${list.length}`;
  return missed.length ? `${head} (not met: ${missed.map((f) => `${f.kind} ${f.failure}: ${f.why_not}`).join('; ')})` : head;
}

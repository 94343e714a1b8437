/**
 * Judges a sink log (read-log.ts) on the rules a long run completes: the whole retry schedule, its
 * punctuality, the attempt limit, the same event id and bytes on every attempt, and a valid
 * signature on every attempt, each signed for itself (its t moves with the attempt). Attempts are
 * grouped per (endpoint, event type, Payment) — each event type happens at most once per Payment
 * (spec, Event types) — so a retry sent under a new event id is still a retry of its event; an
 * event without a Payment (endpoint.test) is grouped by its id.
 *
 * A gap is measured between arrivals at the sink and compared with the schedule divided by the
 * time scale: earlier than its gap by more than CLOCK_SLACK_MS, plus as much as the earlier attempt
 * arrived late against the schedule (its own latency: sink/arrival-lateness.ts), fails HOOK-RETRY-SCHEDULE, later than
 * the tolerance warns (HOOK-RETRY-PUNCTUAL), a retry owed and not come while the log still watched
 * (its gap plus the tolerance) fails HOOK-RETRY-SCHEDULE. What happened while the sink was down (a
 * restart) is not judged: an attempt may have been refused unseen, so the group's count stops there.
 */
import { acknowledged, type LoggedAttempt, type ReadLog } from './read-log.ts';
import { arrivalLatenessMs, judgeAttemptSigning, MIN_APART_MS } from '../sink/index.ts';
import {
  CLOCK_SLACK_MS,
  MAX_ATTEMPTS,
  RETRY_GAPS_MS,
  gapName,
  lateToleranceMs,
  quietAfterLastMs,
  realDuration,
  scaledGapMs,
  type Timing,
} from './schedule.ts';

export const JUDGED_RULES = [
  'HOOK-RETRY-SCHEDULE',
  'HOOK-RETRY-PUNCTUAL',
  'HOOK-MAX-ATTEMPTS',
  'HOOK-RETRY-SAME-BODY',
  'HOOK-SIGNATURE-VALID',
  'HOOK-SIGNED-PER-ATTEMPT',
] as const;
export type JudgedRule = (typeof JUDGED_RULES)[number];

/** What the log showed for one rule. */
export interface RuleFinding {
  /** Checks made (gaps compared, retries compared, signatures checked …); 0 never passes. */
  checks: number;
  /** Each a violation, in one line. */
  failures: string[];
  notes: string[];
  /** What the log could not show for this rule, and what would (the rule is then only partly checked). */
  partly: string | null;
  /** Why nothing was checked. */
  skipReason: string;
  observed: Record<string, unknown>;
  /** The groups a failure names (their timelines go into the report). */
  failing: Group[];
}

export interface Group {
  label: string;
  attempts: LoggedAttempt[];
}

export interface Judgement {
  findings: Record<JudgedRule, RuleFinding>;
  groups: Group[];
  /** The end of what the log watched: its stop line, else the last thing it recorded. */
  watchedUntil: number;
}

const finding = (skipReason: string): RuleFinding => ({
  checks: 0,
  failures: [],
  notes: [],
  partly: null,
  skipReason,
  observed: {},
  failing: [],
});

export function groupAttempts(attempts: readonly LoggedAttempt[]): Group[] {
  const groups = new Map<string, Group>();
  for (const a of attempts) {
    const key = `${a.path}\u0000${a.type ?? ''}\u0000${a.paymentId ?? `event:${a.eventId}`}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { label: `${a.type ?? '(no type)'} of ${a.paymentId ?? a.eventId} at ${a.path}`, attempts: [] }));
    g.attempts.push(a);
  }
  return [...groups.values()];
}

export function judgeLog(log: ReadLog, timing: Timing): Judgement {
  const groups = groupAttempts(log.attempts);
  const watchedUntil = log.stoppedAt ?? log.lastAt;
  const findings = {
    'HOOK-RETRY-SCHEDULE': finding('no event failed in this log: no retry was owed'),
    'HOOK-RETRY-PUNCTUAL': finding('no retry in this log'),
    'HOOK-MAX-ATTEMPTS': finding(`no event failed ${MAX_ATTEMPTS} times with the log watching ${realDuration(quietAfterLastMs(timing))} ` +
      `after the ${MAX_ATTEMPTS}th attempt`),
    'HOOK-RETRY-SAME-BODY': finding('no event was attempted twice in this log'),
    'HOOK-SIGNATURE-VALID': finding('no event delivery in this log'),
    'HOOK-SIGNED-PER-ATTEMPT': finding(`no two attempts of one event arrived ${MIN_APART_MS / 1000} s or more apart in this log`),
  } satisfies Record<JudgedRule, RuleFinding>;
  const down = (from: number, to: number) => log.downtimes.some(([a, b]) => a < to && b > from);
  const gapsSeen = new Array<number>(RETRY_GAPS_MS.length).fill(0);
  const unfinished: string[] = [];
  for (const g of groups) {
    judgeSchedule(g, timing, watchedUntil, down, findings, gapsSeen, unfinished);
    judgeSameEvent(g, findings['HOOK-RETRY-SAME-BODY']);
    judgeSignatures(g, findings['HOOK-SIGNATURE-VALID']);
    judgeSignedPerAttempt(g, findings['HOOK-SIGNED-PER-ATTEMPT'], timing);
  }
  summarise(findings, timing, gapsSeen, unfinished, groups);
  return { findings, groups, watchedUntil };
}

type Down = (from: number, to: number) => boolean;

function fail(f: RuleFinding, g: Group, message: string): void {
  f.failures.push(message);
  if (!f.failing.includes(g)) f.failing.push(g);
}

/** The schedule, punctuality and the limit over one group's attempts, in arrival order. */
function judgeSchedule(
  g: Group,
  t: Timing,
  until: number,
  down: Down,
  f: Record<JudgedRule, RuleFinding>,
  gapsSeen: number[],
  unfinished: string[],
): void {
  const at = g.attempts;
  const arrivals = at.map((a) => a.at);
  const gaps = RETRY_GAPS_MS.map((_, i) => scaledGapMs(t, i + 1));
  for (let n = 1; n <= at.length; n++) {
    const a = at[n - 1]!;
    if (acknowledged(a)) return; // acknowledged: nothing more owed (a later attempt is a duplicate, HOOK-NO-RETRY-AFTER-ACK's)
    const b = at[n];
    if (n >= MAX_ATTEMPTS) return judgeLimit(g, n, a, b, t, until, down, f['HOOK-MAX-ATTEMPTS']);
    const want = scaledGapMs(t, n);
    const tol = lateToleranceMs(t, want);
    const step = `attempt ${n + 1} (the ${gapName(RETRY_GAPS_MS[n - 1]!)} gap)`;
    if (down(a.at, b?.at ?? Math.min(until, a.at + want + tol))) {
      f['HOOK-RETRY-SCHEDULE'].notes.push(`${g.label}: not judged from ${step} on: the sink was down meanwhile (an attempt may have ` +
        `been refused unseen)`);
      return;
    }
    if (!b) {
      if (until >= a.at + want + tol) {
        f['HOOK-RETRY-SCHEDULE'].checks++;
        fail(
          f['HOOK-RETRY-SCHEDULE'],
          g,
          `${g.label}: attempt ${n} failed (answered ${a.answer}) and ${step} never came: the log watched ${realDuration(until - a.at)} ` +
            `after it, the gap is ${realDuration(want)} at time scale ${t.timeScale} (tolerance ${realDuration(tol)})`,
        );
      } else unfinished.push(`${g.label}: ${step} was due ${realDuration(a.at + want - until)} after the log ended`);
      return;
    }
    const actual = b.at - a.at;
    gapsSeen[n - 1]!++;
    f['HOOK-RETRY-SCHEDULE'].checks++;
    f['HOOK-RETRY-PUNCTUAL'].checks++;
    // Attempt n's own latency may shorten the gap as measured by as much as it arrived late (arrival-lateness.ts).
    const late = arrivalLatenessMs(arrivals, gaps, n - 1);
    if (actual < want - CLOCK_SLACK_MS - late) fail(
      f['HOOK-RETRY-SCHEDULE'],
      g,
      `${g.label}: attempt ${n + 1} came ${realDuration(actual)} after attempt ${n}, before its ${gapName(RETRY_GAPS_MS[n - 1]!)} gap ` +
        `(${realDuration(want)} at time scale ${t.timeScale})`,
    );
    else if (actual > want + tol) fail(
      f['HOOK-RETRY-PUNCTUAL'],
      g,
      `${g.label}: attempt ${n + 1} came ${realDuration(actual)} after attempt ${n}, ${realDuration(actual - want)} later than ` +
        `its ${gapName(RETRY_GAPS_MS[n - 1]!)} gap (${realDuration(want)} at time scale ${t.timeScale}; tolerance ${realDuration(tol)})`,
    );
  }
}

/** After the 8th failed attempt: a 9th is one too many; none within the quiet period passes. */
function judgeLimit(
  g: Group,
  n: number,
  last: LoggedAttempt,
  next: LoggedAttempt | undefined,
  t: Timing,
  until: number,
  down: Down,
  f: RuleFinding,
): void {
  if (next) {
    f.checks++;
    const extra = g.attempts.length - MAX_ATTEMPTS;
    fail(
      f,
      g,
      `${g.label}: failed ${n} times and was attempted ${g.attempts.length} times (at most ${MAX_ATTEMPTS}); attempt ${n + 1} ` +
        `came ${realDuration(next.at - last.at)} after attempt ${n}${extra > 1 ? `, ${extra} attempts too many` : ''}`,
    );
    return;
  }
  const quiet = quietAfterLastMs(t);
  if (until - last.at >= quiet && !down(last.at, until)) {
    f.checks++;
    f.notes.push(`${g.label}: ${MAX_ATTEMPTS} failed attempts, none after them in the ${realDuration(until - last.at)} the log still ` +
      `watched`);
  } else f.partly = `the log ended ${realDuration(Math.max(
    0,
    until - last.at,
  ))} after the ${MAX_ATTEMPTS}th attempt of ${g.label} (${realDuration(quiet)} of quiet needed)`;
}

function judgeSameEvent(g: Group, f: RuleFinding): void {
  const [first, ...rest] = g.attempts;
  if (!first) return;
  for (const [i, d] of rest.entries()) {
    f.checks++;
    const n = i + 2;
    if (d.eventId !== first.eventId) fail(
      f,
      g,
      `${g.label}: attempt ${n} carries event id ${d.eventId}, attempt 1 carried ${first.eventId}`,
    );
    else if (d.headerEventId !== first.eventId) fail(
      f,
      g,
      `${g.label}: attempt ${n} has Service-Event-ID ${d.headerEventId ?? '(absent)'}, the event is ${first.eventId}`,
    );
    else if (d.bodySha256 !== first.bodySha256) fail(
      f,
      g,
      `${g.label}: the body of attempt ${n} (${d.bodySize} bytes, sha256 ${d.bodySha256.slice(
        0,
        16,
      )}…) differs from attempt 1's (${first.bodySize} bytes, ${first.bodySha256.slice(0, 16)}…)`,
    );
  }
}

/** Each attempt's t moves with it (service/sink/attempt-signing.ts): judged at real time, whatever the scale. */
function judgeSignedPerAttempt(g: Group, f: RuleFinding, timing: Timing): void {
  // Each attempt's place in the schedule: a retry that arrived late against it may carry a t as far behind (attempt-signing.ts).
  let offsetMs = 0;
  const attempts = g.attempts.map((a, i) => {
    if (i > 0) offsetMs += scaledGapMs(timing, i);
    return { seq: a.seq, receivedAt: a.at, t: a.signature.t, offsetMs };
  });
  const found = judgeAttemptSigning(g.label, attempts);
  f.checks += found.compared;
  for (const line of found.problems) fail(f, g, line);
}

function judgeSignatures(g: Group, f: RuleFinding): void {
  for (const [i, d] of g.attempts.entries()) {
    f.checks++;
    if (!d.signature.valid) fail(
      f,
      g,
      `${g.label}: attempt ${i + 1} (log seq ${d.seq}): the signature does not verify (${d.signature.problem})`,
    );
  }
}

function summarise(f: Record<JudgedRule, RuleFinding>, t: Timing, gapsSeen: number[], unfinished: string[], groups: Group[]): void {
  const perGap = Object.fromEntries(RETRY_GAPS_MS.map((g, i) => [gapName(g), gapsSeen[i]!]));
  f['HOOK-RETRY-SCHEDULE'].observed = { gaps_compared: perGap, time_scale: t.timeScale };
  f['HOOK-RETRY-PUNCTUAL'].observed = {
    gaps_compared: perGap,
    late_tolerance: t.lateToleranceMs !== undefined ? `${t.lateToleranceMs} ms (profile)` : 'max(3 s, 50 % of the gap)',
  };
  f['HOOK-MAX-ATTEMPTS'].observed = { attempts_per_event: groups.slice(0, 50).map((g) => g.attempts.length) };
  const missingGaps = RETRY_GAPS_MS.map((g, i) => (gapsSeen[i] ? null : gapName(g))).filter((x) => x !== null);
  if (missingGaps.length && f['HOOK-RETRY-SCHEDULE'].checks > 0) {
    const text = `no retry after the ${missingGaps.join(', ')} gap${missingGaps.length > 1 ? 's' : ''} in this ` +
      `log${unfinished.length ? ` (${unfinished[0]}${unfinished.length > 1 ? `; ${unfinished.length - 1} more` : ''})` : ''}`;
    f['HOOK-RETRY-SCHEDULE'].partly = text;
    f['HOOK-RETRY-PUNCTUAL'].partly = text;
  }
  if (
    f['HOOK-RETRY-SCHEDULE'].checks === 0 &&
    unfinished.length
  ) f['HOOK-RETRY-SCHEDULE'].skipReason = `the log ended before any retry was due: ${unfinished[0]}`;
}

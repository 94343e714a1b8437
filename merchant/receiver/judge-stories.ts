/**
 * RECV-EVENT-STORIES, judged on the final state the inspection shows for each story's Payment:
 * every event acknowledged, the Payment held in its current status (never moved back), fulfilled
 * once when paid and never when cancelled, no event id counted twice. An event acknowledged but not
 * listed (a late payment.created the receiver had no use for) is no failure. A story whose Payment
 * the inspection holds nothing for is not tried (state skip), never a PASS.
 */
import type { Evidence } from '../../catalogue/report/model.ts';
import type { CheckOutcome, RuleJudgement } from '../../results/verdict/side-report.ts';
import type { Inspection } from './inspect.ts';
import type { Sent } from './judge.ts';
import type { Story } from './stories.ts';

const twoxx = (s: Sent) => s.result.status !== undefined && s.result.status >= 200 && s.result.status < 300;

function answered(s: Sent): string {
  if (s.result.timedOut) return 'no answer within 10 s';
  return s.result.transportError ? `transport failure: ${s.result.transportError}` : `answered ${s.result.status}`;
}

/** What the inspection shows of one story: its Payment's status and fulfilments, each distinct event's count. */
function shown(story: Story, insp: Inspection): { status?: string; fulfilled: number; events: Record<string, number | undefined> } {
  const ids = [...new Set(story.steps.map((st) => st.event.id))];
  return {
    ...(insp.payments[story.paymentId] !== undefined ? { status: insp.payments[story.paymentId] } : {}),
    fulfilled: insp.fulfilled[story.paymentId] ?? 0,
    events: Object.fromEntries(ids.map((id) => [id, insp.events[id]])),
  };
}

/** Each way the shown state differs from the story's end, in words. */
function problems(story: Story, seen: ReturnType<typeof shown>): string[] {
  const out: string[] = [];
  if (seen.status !== story.final) {
    out.push(`the receiver holds ${seen.status ?? 'no status'} for ${story.paymentId}, not its current status ${story.final}`);
  }
  if (seen.fulfilled !== story.fulfilments) {
    out.push(`${story.paymentId} was fulfilled ${seen.fulfilled} time${seen.fulfilled === 1 ? '' : 's'}, ` +
      `expected ${story.fulfilments === 1 ? 'once (paid)' : 'never (cancelled)'}`);
  }
  for (const [id, n] of Object.entries(seen.events)) if ((n ?? 0) > 1) out.push(`event ${id} was processed ${n} times`);
  return out;
}

function judgeStory(story: Story, sent: readonly Sent[], insp: Inspection): CheckOutcome {
  const name = `${story.title} (${story.steps.map((st) => st.name).join(' → ')})`;
  const exchanges: Evidence[] = sent.map((s) => ({ kind: 'exchange', exchange: s.result.exchange }));
  const seen = shown(story, insp);
  const note: Evidence = {
    kind: 'note',
    message: `inspection: payments[${story.paymentId}]=${seen.status ?? 'absent'}, fulfilled[${story.paymentId}]=${seen.fulfilled}, ` +
      Object.entries(seen.events).map(([id, n]) => `events[${id}]=${n ?? 'absent'}`).join(', '),
  };
  const fail = (message: string, expected: unknown, actual: unknown): CheckOutcome => ({
    name, state: 'fail', message, requests: sent.length,
    evidence: [{ kind: 'mismatch', message: `${story.title}: ${message}`, expected, actual }, note, ...exchanges],
  });
  const notAcked = sent.find((s) => !twoxx(s));
  if (notAcked) {
    const actual = notAcked.result.status ?? notAcked.result.transportError;
    return fail(`${notAcked.name} ${answered(notAcked)}, expected a 2xx`, '2xx', actual);
  }
  const listed = Object.values(seen.events).some((n) => n !== undefined);
  if (seen.status === undefined && seen.fulfilled === 0 && !listed) {
    const message = `not tried: the inspection holds nothing for ${story.paymentId} nor its events`;
    return { name, state: 'skip', requests: sent.length, message };
  }
  const wrong = problems(story, seen);
  if (wrong.length) {
    return fail(
      `every event acknowledged: ${wrong.join('; ')}`,
      { status: story.final, fulfilled: story.fulfilments, each_event_at_most: 1 },
      { status: seen.status ?? null, fulfilled: seen.fulfilled, events: seen.events },
    );
  }
  return { name, state: 'pass', requests: sent.length, evidence: [{ ...note, message: `${story.title}: ${note.message}` }] };
}

export function judgeStories(stories: readonly Story[], sent: readonly (readonly Sent[])[], insp: Inspection): RuleJudgement {
  const checks = stories.map((story, i) => judgeStory(story, sent[i] ?? [], insp));
  const untried = checks.filter((c) => c.state === 'skip');
  const partly = untried.length && checks.some((c) => c.state === 'pass')
    ? { partly_checked: `${untried.length} of ${stories.length} stories not tried (the inspection holds nothing for their Payment): ` +
      untried.map((c) => c.name.replace(/ \(.*$/, '')).join(', ') }
    : {};
  return {
    checks,
    skipReason: stories.length
      ? `not tried: the inspection holds nothing for the Payment of any of the ${stories.length} stories, nor their events`
      : 'no story was told',
    observed: { stories: stories.map((s) => s.title), ...partly },
  };
}

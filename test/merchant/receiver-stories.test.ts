/**
 * RECV-EVENT-STORIES: the events of one Payment in every order the spec allows, each story on its
 * own Payment, judged on the final state the inspection shows. A receiver that guards per Payment
 * (the planted fault guard-per-payment: once any event of a Payment is handled, every later one is
 * skipped) passed every probe before, since each probe had a Payment of its own and the arrival-order
 * pair was paid then created, the one order where the guard does no harm; the stories catch it on
 * every seed. The clean reference receiver passes them all, in line and in fetch mode.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventIds } from '../../merchant/receiver/events.ts';
import { MUTATION_DEDUP, runAgainstReference } from '../../merchant/receiver/mutation.ts';
import { signedDelivery, truthAt } from '../../merchant/receiver/scenarios.ts';
import { buildStories } from '../../merchant/receiver/stories.ts';
import { judgeStories } from '../../merchant/receiver/judge-stories.ts';
import { verifySignature } from '../../service/sink/verify-signature.ts';

const SECRET = 'whsec_test_stories_0123456789abcdef';
const NEGATIVE_DURATION = /-\s*\d+(\.\d+)?\s*(ms|s)\b/;

describe('the stories', () => {
  const stories = buildStories(eventIds());

  it('are told on a Payment each, with distinct event ids except a redelivery (same id, same bytes), each properly signed', () => {
    expect(stories.map((s) => s.title)).toEqual([
      'created then paid', 'paid then created', 'created then cancelled', 'cancelled then created',
      'paid redelivered after the later created', 'created redelivered after paid was processed',
    ]);
    expect(new Set(stories.map((s) => s.paymentId)).size).toBe(stories.length);
    const kit = { secret: SECRET, ids: eventIds(), now: () => 1_900_000_000, pick: () => 0 };
    for (const story of stories) {
      const firsts = new Map<string, Buffer>();
      for (const st of story.steps) {
        expect((st.event.value.data as { object: { id: string } }).object.id).toBe(story.paymentId);
        const again = / again \(same id and body\)$/.test(st.name);
        expect(firsts.has(st.event.id), st.name).toBe(again);
        if (again) expect(st.body.equals(firsts.get(st.event.id)!)).toBe(true);
        firsts.set(st.event.id, st.body);
        const d = signedDelivery(kit, st);
        expect(verifySignature({ header: d.signature, rawBody: d.body, secrets: [SECRET], nowSeconds: 1_900_000_000 }).valid).toBe(true);
      }
    }
  });

  it('serve a fetching receiver the story so far, never moved back', () => {
    const statuses = (title: string) => {
      const s = stories.find((x) => x.title === title)!;
      return s.steps.map((_, i) => truthAt(s.steps, i)!.status);
    };
    expect(statuses('created then paid')).toEqual(['PENDING', 'PAID']);
    expect(statuses('paid then created')).toEqual(['PAID', 'PAID']);
    expect(statuses('cancelled then created')).toEqual(['CANCELLED', 'CANCELLED']);
    expect(statuses('created redelivered after paid was processed')).toEqual(['PENDING', 'PAID', 'PAID']);
  });

  it('judge the final state: a Payment the inspection holds nothing for is not tried, never passed', () => {
    const none = judgeStories(stories, stories.map(() => []), { events: {}, fulfilled: {}, payments: {} });
    expect(none.checks.map((c) => c.state)).toEqual(stories.map(() => 'skip'));
    expect(none.skipReason).toMatch(/^not tried: the inspection holds nothing/);
    // An acknowledged late payment.created not listed is no failure; a count of 2 is.
    const story = stories.find((x) => x.title === 'paid then created')!;
    const [paid, created] = story.steps.map((st) => st.event.id);
    const insp = (events: Record<string, number>) => ({
      events, fulfilled: { [story.paymentId]: 1 }, payments: { [story.paymentId]: 'PAID' },
    });
    expect(judgeStories([story], [[]], insp({ [paid!]: 1 })).checks[0]!.state).toBe('pass');
    expect(judgeStories([story], [[]], insp({ [paid!]: 1, [created!]: 2 })).checks[0]!.message).toMatch(/was processed 2 times/);
  });
});

const storiesRule = (r: Awaited<ReturnType<typeof runAgainstReference>>) => r.rules.find((x) => x.id === 'RECV-EVENT-STORIES')!;

describe('RECV-EVENT-STORIES against the reference receiver', () => {
  it('the clean receiver passes every story', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hps-recv-st-'));
    const report = await runAgainstReference([], 3, dir, undefined, undefined, { dedup: MUTATION_DEDUP });
    const rule = storiesRule(report);
    expect(rule.status, rule.reason).toBe('pass');
    expect(rule.tests.map((t) => t.state)).toEqual(Array(6).fill('pass'));
  }, 60_000);

  it('guard-per-payment is caught on every seed, by the stories alone, naming what the inspection shows', async () => {
    for (const seed of [1, 2, 3]) {
      const dir = mkdtempSync(join(tmpdir(), 'hps-recv-st-'));
      const report = await runAgainstReference(['guard-per-payment'], seed, dir, undefined, undefined, { dedup: MUTATION_DEDUP });
      expect(report.rules.filter((r) => r.status === 'fail').map((r) => r.id), `seed ${seed}`).toEqual(['RECV-EVENT-STORIES']);
      const rule = storiesRule(report);
      expect(rule.tests.filter((t) => t.state === 'fail').map((t) => t.title.replace(/^RECV-EVENT-STORIES: /, '').replace(/ \(.*$/, '')))
        .toEqual(['created then paid', 'created then cancelled', 'created redelivered after paid was processed']);
      expect(rule.reason).toMatch(new RegExp('^created then paid \\(.*\\): every event acknowledged: the receiver holds PENDING for ' +
        'pay_rc\\w+, not its current status PAID; pay_rc\\w+ was fulfilled 0 times, expected once \\(paid\\); 3 checks failed$'));
      const md = readFileSync(join(dir, 'summary.md'), 'utf8');
      expect(md).toContain('RECV-EVENT-STORIES');
      const texts = report.rules.flatMap((r) => [r.reason ?? '', ...r.evidence.map((e) => ('message' in e ? String(e.message) : ''))]);
      expect(texts.filter((t) => NEGATIVE_DURATION.test(t))).toEqual([]);
    }
  }, 120_000);
});

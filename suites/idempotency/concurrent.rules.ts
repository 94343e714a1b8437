/**
 * esid: Endpoints › Rules, Rules 1, 3 and 4 — "... creates no duplicate", "while a request with that
 * key is still processing answers 409 idempotency_in_progress", "an external_id already used ...
 * answers 409 external_id_conflict"; States and transitions — "A cancel or simulate operation on a
 * Payment that is not PENDING answers 409 invalid_transition."
 *
 * Where obligations meet concurrency (DESIGN, oracle principle 14): a group of 2 to 4 commands is
 * sent at once (every request started before any is awaited), then read back; the answers and the
 * read must be those of SOME order of the same commands run one by one against the model of
 * ./linearizable.ts. A target that checks an external_id (or a Payment's state) and writes after an
 * await lets every branch pass the check: no order explains two 201s for one external_id.
 */
import fc from 'fast-check';
import type { ApiResponse } from '../../core/client.ts';
import { ruleTest, type RuleContext } from '../../service/harness/worker/rule-test.ts';
import { countCheck, Mismatch } from '../../service/harness/worker/expect.ts';
import { CONCURRENT_CASES, type ConcurrentCase } from '../../service/generators/cases/concurrent.ts';
import { share } from '../../service/harness/worker/depth.ts';
import { listByExternalId } from '../_shared/by-external-id.ts';
import { idempotencyKey } from './bodies.ts';
import {
  answerOf, describeAnswer, describeCommand, linearize, type Branch, type Command, type ModelState,
} from '../_shared/linearizable.ts';

interface Planned {
  readonly label: string;
  readonly cmd: Command;
  readonly send: () => Promise<ApiResponse>;
}

/** What the read after the group shows, and how an order's end state is judged against it. */
interface ReadBack {
  readonly shows: string;
  /** The same, without ids (the failure's first line, which the summary shows). */
  readonly brief: string;
  readonly judge: (end: ModelState) => string | null;
}

interface Group {
  readonly what: string;
  readonly planned: readonly Planned[];
  readonly initial: ModelState;
  readonly read: () => Promise<ReadBack>;
}

/** A create branch: its Idempotency-Key slot (null: none) and its body slot (one body per slot). */
interface CreateSpec {
  readonly key: string | null;
  readonly body: number;
}

const EMPTY: ModelState = { payments: new Map(), keys: new Map() };

/** The create branches of a fixed case. */
function createSpecs(c: ConcurrentCase): CreateSpec[] {
  const n = Array.from({ length: c.branches }, (_, i) => i);
  switch (c.kind) {
    case 'keys': return n.map((i) => ({ key: `k${i}`, body: i }));
    case 'no-keys': return n.map((i) => ({ key: null, body: i }));
    case 'replays': return n.map(() => ({ key: 'k0', body: 0 }));
    default: return c.branches === 2
      ? [{ key: 'k0', body: 0 }, { key: null, body: 1 }]
      : [{ key: 'k0', body: 0 }, { key: 'k0', body: 0 }, { key: 'k1', body: 1 }, { key: null, body: 2 }];
  }
}

/** Creates sharing one new external_id, as `specs` say; read back by list external_id=. */
function createGroup(t: RuleContext, what: string, specs: readonly CreateSpec[]): Group {
  const ext = t.externalId('conc');
  const keys = new Map<string, string>();
  const keyOf = (slot: string) => keys.get(slot) ?? keys.set(slot, idempotencyKey(t, `conc-${slot}`)).get(slot)!;
  const planned = specs.map((s, i): Planned => {
    const body = { amount: `${10 + s.body}.00`, external_id: ext, metadata: t.metadata({ conformance_case: `concurrent-${s.body}` }) };
    const idem = s.key === null ? null : keyOf(s.key);
    return {
      label: `b${i + 1}`,
      cmd: { op: 'create', idem, ext, body: JSON.stringify(body) },
      send: () => t.client.createPayment(t.keys.test, body, idem === null ? {} : { idempotencyKey: idem }),
    };
  });
  const read = async (): Promise<ReadBack> => {
    const listed = (await listByExternalId(t, t.keys.test, ext)).map((p) => String(p.id)).sort();
    return {
      shows: `list external_id=${ext} → [${listed.join(', ')}]`,
      brief: `list external_id= → ${listed.length} Payment(s)`,
      judge: (end) => {
        const model = [...end.payments].filter(([, p]) => p.ext === ext).map(([id]) => id).sort();
        return model.join() === listed.join() ? null : `lists [${listed.join(', ')}], this order ends with [${model.join(', ')}]`;
      },
    };
  };
  return { what, planned, initial: EMPTY, read };
}

/** Cancels and succeed helpers (in turn) racing on one new PENDING Payment; read back by GET. */
async function transitionGroup(t: RuleContext, what: string, n: number): Promise<Group> {
  const p = await t.createPayment();
  const id = String(p.id);
  const planned = Array.from({ length: n }, (_, i): Planned => {
    const op = i % 2 === 0 ? 'cancel' : 'succeed';
    const send = op === 'cancel' ? () => t.client.cancelPayment(t.keys.test, id) : () => t.client.simulateSucceeded(t.keys.test, id);
    return { label: `b${i + 1}`, cmd: { op, payment: id }, send };
  });
  const initial: ModelState = { payments: new Map([[id, { ext: p.external_id ?? null, status: 'PENDING' }]]), keys: new Map() };
  const read = async (): Promise<ReadBack> => {
    const g = await t.client.getPayment(t.keys.test, id);
    const got = g.status === 200 ? String(g.json?.status) : `${g.status} ${g.json?.error?.code ?? ''}`;
    return {
      shows: `get ${id} → ${got}`,
      brief: `get → ${got}`,
      judge: (end) => (end.payments.get(id)?.status === got ? null : `reads ${got}, this order ends ${end.payments.get(id)?.status}`),
    };
  };
  return { what, planned, initial, read };
}

/** A branch in a few words: the command without ids, the answer's status and code or state. */
function brief(b: Branch): string {
  const what = b.cmd.op === 'create' ? `create(${b.cmd.idem === null ? 'no key' : `key …${b.cmd.idem.slice(-2)}`})` : b.cmd.op;
  return `${b.label} ${what} → ${b.answer.status} ${b.answer.code ?? b.answer.state ?? ''}`.trimEnd();
}

interface Tally {
  groups: number;
  branches: number;
  throttled: number;
  /** The judged answers by status and code. */
  answers: Record<string, number>;
}

/** Sends the group at once, reads back, and fails unless some one-by-one order explains it all. */
async function judgeGroup(t: RuleContext, g: Group, tally: Tally): Promise<void> {
  const pending = g.planned.map((p) => p.send()); // every request started before any is awaited
  const answers = await Promise.all(pending);
  const throttled = g.planned.filter((_, i) => answers[i]!.status === 429).map((p) => p.label);
  const branches: Branch[] = g.planned.flatMap((p, i) =>
    (answers[i]!.status === 429 ? [] : [{ label: p.label, cmd: p.cmd, answer: answerOf(answers[i]!) }]));
  tally.throttled += throttled.length;
  if (throttled.length > 0) t.note(`${g.what}: ${throttled.join(', ')} answered 429 (back-pressure, not judged: left out)`);
  if (branches.length === 0) return;
  const read = await g.read();
  const verdict = linearize(g.initial, branches, read.judge);
  countCheck();
  const lines = branches.map((b) => `${b.label} ${describeCommand(b.cmd)} → ${describeAnswer(b.answer)}`);
  if (verdict.order === null) {
    const tried = verdict.tried.map((o) => `    ${o.order.join(' ')}: ${o.broke}`);
    throw new Mismatch(
      `sent at once: ${branches.map(brief).join(', ')}; then ${read.brief}: no order of them run one by one gives these ` +
        `(${verdict.tried.length} orders tried)\n` +
        `${lines.map((l) => `  ${l}`).join('\n')}\n  then ${read.shows}\n  orders tried (${verdict.tried.length}):\n${tried.join('\n')}`,
      { linearizable: 'some order of the branches, run one by one against the model, gives every answer and the read' },
      { branches: lines, read: read.shows, tried: verdict.tried },
    );
  }
  tally.groups += 1;
  tally.branches += branches.length;
  for (const b of branches) {
    const kind = `${b.answer.status}${b.answer.code === null ? '' : ` ${b.answer.code}`}`;
    tally.answers[kind] = (tally.answers[kind] ?? 0) + 1;
  }
}

async function fixedGroup(t: RuleContext, c: ConcurrentCase): Promise<Group> {
  const what = CONCURRENT_CASES.title(c, 0).split(', at once')[0]!;
  return c.kind === 'cancel-succeed' ? transitionGroup(t, what, c.branches) : createGroup(t, what, createSpecs(c));
}

/** A random group of creates: 2 to 4 branches, each under one of two keys or none, with one of two bodies. */
const randomCreates = fc.array(
  fc.record({ key: fc.constantFrom('k0', 'k1', null), body: fc.constantFrom(0, 1) }),
  { minLength: 2, maxLength: 4 },
);

ruleTest('IDEM-CONCURRENT-UNIQUE', async (t) => {
  const tally: Tally = { groups: 0, branches: 0, throttled: 0, answers: {} };
  await t.cases(CONCURRENT_CASES, async (c) => judgeGroup(t, await fixedGroup(t, c), tally), { concurrency: 4 });
  // Randomness adds mixes the table does not name (a key shared by branches with two bodies among them).
  await t.property(randomCreates, async (specs) => {
    const shown = specs.map((s) => `${s.key ?? 'no key'}/body ${s.body}`).join(', ');
    const what = `${specs.length} creates sharing one new external_id [${shown}]`;
    await judgeGroup(t, createGroup(t, what, specs), tally);
  }, { runs: share(t.runs, 0.04) });
  t.note(`${tally.groups} groups sent at once (${tally.branches} branches judged, ${tally.throttled} answered 429 and left out); ` +
    'each explained by an order run one by one');
  t.observe('concurrent_answers', tally.answers);
});

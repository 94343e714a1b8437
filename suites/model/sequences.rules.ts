/**
 * esid: States and transitions; Endpoints › Rules 1, 2, 4, 5, 6, 7.
 *
 * Model-based test (the model: ./model.ts; its commands: ./commands.ts, ./refusals.ts, ./pages.ts,
 * ./parallel.ts): random sequences of create, replay (same Idempotency-Key, same body),
 * conflicting replay (same key, other body), cancel, the two test helpers, get and list by
 * external_id, across the Test key of business A, a second (write-only) Test key of A, the Test
 * key of another business B and the Live keys (Live writes only when probes.live_writes; creates
 * only under A's Live key, the one the profile promises is ready), each step checked against an
 * in-memory model of the spec:
 *
 *  - create → 201 PENDING with livemode of the key; same API key + same Idempotency-Key +
 *    same body → 201 with the same id (Rule 1), whatever happened to the Payment since;
 *    other body → 409 idempotency_conflict (Rule 2); the same Idempotency-Key under another
 *    API key is a new request (keys are scoped to the API key); an external_id already used
 *    in the key's business and environment → 409 external_id_conflict (Rule 4).
 *  - cancel / succeed / helper cancel on a PENDING Payment → 200 and the new state; on any
 *    other state → 409 invalid_transition; a Payment of another business or environment →
 *    404 payment_not_found (Rules 5, 7); a Live key on /test_helpers → 404 not_found (Rule 6).
 *  - get → the model's state; list?external_id= (and status=, every status, REVERSED included)
 *    → exactly the model's Payment in the key's business and environment (the external ids carry
 *    this sequence's marker, so nothing else on the shared target can match).
 *  - reverse (the control hook, when the profile has one) of a PAID Payment → REVERSED: a state
 *    the public API cannot reach, then read, listed by status and acted on like any other.
 *  - refuse / retryRefused (./refusals.ts): a create refused at every stage the profile can
 *    provoke, then what would show its trace (a list at once; a later create with its external_id;
 *    its Idempotency-Key with a valid body): a refusal leaves no Payment, no external_id, no key.
 *  - pages / cursorAfterMove (./pages.ts): a walk by starting_after over the sequence's window
 *    (created_from), under any status filter, interleaved with the moves; and a cursor whose
 *    Payment was cancelled just before it is sent under status=PENDING.
 *  - parallel (./parallel.ts): the sequence may end in 2 to 4 commands sent at once, judged for
 *    linearizability against the model.
 *
 * Edges are fixed, randomness adds cases: after the random sequences, one fixed sequence per
 * refusal stage (refuse, list, the retry under its key, a create with its external_id, list), one
 * per kind of parallel step, one reversal read, listed, paged and refused a cancel, and one throttled
 * create retried after Retry-After (./throttle.ts), on every seed.
 *
 * Sequences run a few side by side (service/harness/worker/batch.ts `batched`), each one step after
 * another: a failing batch first drops the sequences that pass, then the failing one is shrunk and
 * reported as the list of commands (their toString is the script: `pN` names the N-th Payment
 * the sequence created, counted modulo how many exist), with the trace of the failing run (which
 * pN was which id, and every answer) in the evidence.
 *
 * The commands are an fc.array run by fc.asyncModelRun rather than fc.commands: the shrinking
 * of fc.commands depends on which commands ran, so the harness's replay of the shrunk
 * counterexample by seed and path does not find it again and reports FLAKY instead of FAIL.
 * An array shrinks the same way on replay.
 */
import fc from 'fast-check';
import { ruleTest, type RuleContext } from '../../service/harness/worker/rule-test.ts';
import { share } from '../../service/harness/worker/depth.ts';
import { batched, eachCase } from '../../service/harness/worker/batch.ts';
import { validAllowedChannels } from '../../service/generators/valid-allowed-channels.ts';
import { validAllowedMethods } from '../../service/generators/valid-allowed-methods.ts';
import { validReturnUrl } from '../../service/generators/valid-return-url.ts';
import { trimmedPrintableAscii } from '../../service/generators/internal/charsets.ts';
import {
  ConflictCmd, CreateCmd, EXT_LABELS, GetCmd, ListCmd, ReplayCmd, ReverseCmd, TransitionCmd,
} from './commands.ts';
import { CursorAfterMoveCmd, PageCmd } from './pages.ts';
import { ParallelCmd, PARALLEL_KINDS } from './parallel.ts';
import { RefuseCmd, refusalStages, RetryRefusedCmd, unknownKey } from './refusals.ts';
import { ThrottleCmd } from './throttle.ts';
import type { Cmd, KeyInfo, KeyName, Model, Real, Stage } from './model.ts';

/** Sequences side by side at most (each its own Payments): a run's chain is its longest sequence, ~15 steps. */
const SEQUENCES_AT_ONCE = 12;

/**
 * A generated sequence. Printed (fast-check's counterexample) as the commands up to the one
 * that failed; the commands after it never ran and are only counted.
 */
class Script implements Iterable<Cmd> {
  reached: number;
  constructor(readonly cmds: readonly Cmd[]) { this.reached = cmds.length; }
  /** asyncModelRun chains every command up front: the reached index is taken when a command is checked. */
  *[Symbol.iterator](): Iterator<Cmd> {
    this.reached = 0;
    for (const [i, c] of this.cmds.entries()) {
      yield {
        check: (m: Readonly<Model>) => {
          this.reached = i + 1;
          return c.check(m);
        },
        run: (m: Model, r: Real) => c.run(m, r),
        toString: () => c.toString(),
      };
    }
  }
  toString(): string {
    const rest = this.cmds.length - this.reached;
    return `${this.cmds.slice(0, this.reached).join('; ')}${rest > 0 ? ` /* ${rest} later command(s) not reached */` : ''}`;
  }
}

function keysOf(t: RuleContext): Record<string, KeyInfo> {
  const keys: Record<string, KeyInfo> = { test: { name: 'test', key: t.keys.test, scope: 'A/test', live: false, read: true } };
  // A second API key of the same business and environment (write-only): idempotency keys are
  // scoped to the API key, while Payments are shared by the business and environment.
  if (t.keys.test_write_only) keys.test_w = { name: 'test_w', key: t.keys.test_write_only, scope: 'A/test', live: false, read: false };
  if (t.keys.other_test) keys.other = { name: 'other', key: t.keys.other_test, scope: 'B/test', live: false, read: true };
  if (t.keys.live) keys.live = { name: 'live', key: t.keys.live, scope: 'A/live', live: true, read: true };
  if (t.keys.other_live) keys.other_live = { name: 'other_live', key: t.keys.other_live, scope: 'B/live', live: true, read: true };
  if (t.keys.test_rate_limited) keys.rl = { name: 'rl', key: t.keys.test_rate_limited, scope: 'A/test', live: false, read: true };
  return keys;
}

/** The optional fields of a valid body beside amount, external_id and the marker: from none to every one, drawn from their whole domain. */
const extras: fc.Arbitrary<Record<string, unknown>> = fc.record({
  description: trimmedPrintableAscii(1, 64),
  merchant_reference: trimmedPrintableAscii(1, 64),
  return_url: validReturnUrl(),
  allowed_methods: validAllowedMethods(),
  allowed_channels: validAllowedChannels(),
}, { requiredKeys: [] });

function commands(t: RuleContext, keys: Record<string, KeyInfo>, stages: readonly Stage[]) {
  const liveWrites = t.profile.probes?.live_writes === true;
  const all = (Object.keys(keys) as KeyName[]).filter((n) => n !== 'rl');
  const readers = all.filter((n) => keys[n]!.read);
  // Creates: A's Test key, B's Test key, and A's Live key (the profile promises A's Live side
  // is ready and has credit; nothing is promised of B's). Other writes may use any Live key.
  const creators = all.filter((n) => n !== 'other_live' && (!keys[n]!.live || liveWrites));
  const writers = all.filter((n) => !keys[n]!.live || liveWrites);
  const handle = fc.nat({ max: 3 });
  const anyKey = fc.constantFrom(...all);
  const creator = fc.constantFrom(...creators);
  const writer = fc.constantFrom(...writers);
  // Two thirds of the commands on pN use the key that created it (null = "own"), the rest any key.
  const own = <K extends KeyName>(arb: fc.Arbitrary<K>): fc.Arbitrary<K | null> =>
    fc.oneof({ weight: 2, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });
  const ext = fc.option(fc.constantFrom(...EXT_LABELS), { freq: 5 });
  // Creates carry an Idempotency-Key 3 times in 4, an external_id (one of three labels) 4 in 5; the lowest amount is a case of its own.
  const cents = fc.oneof({ weight: 1, arbitrary: fc.constant(1) }, { weight: 9, arbitrary: fc.integer({ min: 1, max: 500_000 }) });
  const create: fc.Arbitrary<Cmd> = fc.tuple(creator, cents, fc.nat({ max: 3 }).map((n) => n > 0), ext, extras)
    .map(([k, c, i, e, x]) => new CreateCmd(k, c, i, e, x));
  const statuses = ['PENDING', 'PAID', 'CANCELLED', ...(t.profile.control ? ['REVERSED'] : [])];
  const command: fc.Arbitrary<Cmd> = fc.oneof(
    { weight: 3, arbitrary: create },
    { weight: 5, arbitrary: fc.tuple(handle, own(creator)).map(([h, as]) => new ReplayCmd(h, as)) },
    { weight: 1, arbitrary: fc.tuple(handle, fc.integer({ min: 1, max: 10_000 })).map(([h, d]) => new ConflictCmd(h, d)) },
    { weight: 2, arbitrary: fc.tuple(own(writer), handle).map(([k, h]) => new TransitionCmd('cancel', k, h)) },
    { weight: 2, arbitrary: fc.tuple(own(anyKey), handle).map(([k, h]) => new TransitionCmd('helperSucceed', k, h)) },
    { weight: 2, arbitrary: fc.tuple(own(anyKey), handle).map(([k, h]) => new TransitionCmd('helperCancel', k, h)) },
    { weight: t.profile.control ? 1 : 0, arbitrary: handle.map((h) => new ReverseCmd(h)) },
    { weight: 2, arbitrary: fc.tuple(own(fc.constantFrom(...readers)), handle).map(([k, h]) => new GetCmd(k, h)) },
    { weight: 4, arbitrary: fc.tuple(own(fc.constantFrom(...readers)), handle, fc.option(fc.constantFrom(...statuses), { freq: 2 }))
      .map(([k, h, s]) => new ListCmd(k, h, s)) },
    { weight: 2, arbitrary: fc.tuple(fc.nat({ max: stages.length - 1 }), ext, fc.boolean()).map(([s, e, i]) => new RefuseCmd(s, e, i)) },
    { weight: 1, arbitrary: fc.tuple(own(fc.constantFrom(...readers)), handle, fc.option(fc.constantFrom(...statuses), { freq: 2 }),
      fc.constantFrom(1, 2, 100)).map(([k, h, s, l]) => new PageCmd(k, h, s, l)) },
    { weight: 1, arbitrary: handle.map((h) => new CursorAfterMoveCmd(h)) },
    { weight: 2, arbitrary: fc.nat({ max: 3 }).map((n) => new RetryRefusedCmd(n)) },
  );
  const parallelExt = fc.option(fc.constantFrom(...EXT_LABELS), { freq: 2 });
  const parallel = fc.tuple(fc.constantFrom(...PARALLEL_KINDS), fc.integer({ min: 2, max: 4 }), handle, parallelExt)
    .map(([k, n, h, e]) => new ParallelCmd(k, n, h, e));
  // A sequence opens with a create (nothing else has a Payment to act on), then up to 14 commands,
  // and ends in a parallel step 2 times in 3.
  const rest = fc.array(command, { minLength: 1, maxLength: 14, size: 'max' });
  const script = fc.noBias(fc.tuple(create, rest, fc.option(parallel, { freq: 3 })))
    .map(([first, rest, last]) => new Script([first, ...rest, ...(last === null ? [] : [last])]));
  return { script, all, liveWrites };
}

/**
 * The edges, on every seed: each refusal stage followed by what would show its trace, and each kind
 * of parallel step after a create and a replay.
 */
function fixedScripts(stages: readonly Stage[]): { throttle: Script; others: Script[] } {
  const refusals = stages.map((_, i) => new Script([
    new CreateCmd('test', 1, true, 'e1'),
    new RefuseCmd(i, 'e0', true), new RetryRefusedCmd(0), new CreateCmd('test', 2_00, false, 'e0'), new ListCmd(null, 1, null),
  ]));
  const parallel = PARALLEL_KINDS.map((k, i) => new Script([
    new CreateCmd('test', 5_00, true, 'e0'), new ReplayCmd(0, null), new ParallelCmd(k, 2 + (i % 3), 0, k === 'keys' ? 'e0' : null),
  ]));
  // A state only the control hook reaches (nothing is sent without one: ReverseCmd), then read, listed by its status and acted on.
  const reversal = new Script([
    new CreateCmd('test', 7_00, true, 'e2'), new TransitionCmd('helperSucceed', null, 0), new ReverseCmd(0), new GetCmd(null, 0),
    new ListCmd(null, 0, 'REVERSED'), new ListCmd(null, 0, 'PAID'), new TransitionCmd('cancel', null, 0), new ReplayCmd(0, null),
    new CreateCmd('test', 8_00, false, null), new PageCmd(null, 0, 'REVERSED', 1), new TransitionCmd('cancel', null, 1),
    new PageCmd(null, 0, 'PENDING', 1), new PageCmd(null, 0, null, 2), new CreateCmd('test', 9_00, true, null), new CursorAfterMoveCmd(0),
  ]);
  // A throttled create and the client guidance's retry (keys.test_rate_limited; nothing is sent without it).
  const throttle = new Script([
    new CreateCmd('test', 3_00, true, 'e1'), new ThrottleCmd('e0'), new GetCmd('test', 1), new ListCmd('test', 1, null),
    new CreateCmd('test', 4_00, false, 'e0'),
  ]);
  return { throttle, others: [...refusals, ...parallel, reversal] };
}

ruleTest('MODEL-SEQUENCES', async (t) => {
  const keys = keysOf(t);
  const { stages, absent } = refusalStages(t, keys);
  const { script, all, liveWrites } = commands(t, keys, stages);
  let sequences = 0;
  let steps = 0;
  const stats = new Map<string, number>();
  const runScript = async (cmds: Script) => {
    const real: Real = { t, stats, keys, prefix: t.externalId('m'), creates: 0, trace: [], stages, unknownKey: unknownKey(t) };
    await fc.asyncModelRun(() => ({ model: { handles: [], idem: new Map(), refused: [] } satisfies Model, real }), cmds);
    sequences++;
    steps += real.trace.length;
  };
  // Sequences are independent of one another (each its own Payments, external ids and
  // Idempotency-Keys under its own marker): a few run side by side, each one step after another.
  // The throttled create mostly waits (a Retry-After, 2 s on the reference): it runs beside the
  // others, not after them. A failure of the others is thrown first (as they ran first before).
  // When the run also selected LIMIT-THROTTLED-CREATE-RETRY, that rule does the same in the limits
  // turn (a create refused 429 on keys.test_rate_limited, its retry with the same key and body after
  // Retry-After judged as a first create, listed exactly once), sharing LIMIT-RECOVERY's wait: the
  // model leaves it there rather than wait that key's Retry-After a second time (docs/design.md,
  // "After the whole-service model"). Run without it (`--rule MODEL-SEQUENCES`), the model sends it.
  const { throttle, others } = fixedScripts(stages);
  const leftToLimits = t.alsoRuns('LIMIT-THROTTLED-CREATE-RETRY');
  const settled = await Promise.allSettled([
    (async () => {
      await batched(t, script, runScript, share(t.runs, 0.25), SEQUENCES_AT_ONCE);
      await eachCase(others, runScript, SEQUENCES_AT_ONCE);
    })(),
    leftToLimits ? Promise.resolve() : runScript(throttle),
  ]);
  for (const s of settled) if (s.status === 'rejected') throw s.reason;
  if (leftToLimits) {
    t.note('the throttled create and its retry: left to LIMIT-THROTTLED-CREATE-RETRY, which this run also selected (the limits turn)');
  }
  const live = liveWrites ? '' : ' (Live: reads and helpers only, probes.live_writes is off)';
  t.note(`${sequences} sequences, ${steps} steps, keys ${all.join(', ')}${live}; every step agreed with the model`);
  t.note(`refusal stages: ${stages.map((s) => s.name).join('; ')}${absent.length ? `; not provoked: ${absent.join('; ')}` : ''}`);
  t.note(`steps by kind: ${[...stats].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ')}`);
});

/** A rule's seeded fast-check property: run, guarded, shrunk within a budget, replayed once, left in task.meta. */
import fc from 'fast-check';
import type { RuleId } from '../../../catalogue/index.ts';
import type { HpsMeta, PropertyFailure } from '../../../core/evidence.ts';
import { profileSecrets } from '../../../core/profile.ts';
import { redactText } from '../../../core/redact.ts';
import { deriveSeed, type SuiteContextData } from '../../../core/run-context.ts';
import { Mismatch, SetupRefused } from './expect.ts';
import { SkipRule, transportCause } from './rule-errors.ts';

export interface PropertyOptions {
  /** Overrides the run's --runs for an expensive property. */
  runs?: number;
  /**
   * Why this property's counterexample is not (or only partly) shrunk, e.g. its arbitrary is
   * fc.noShrink because each run is a slow webhook round trip: the report prints it.
   */
  shrinkNote?: string;
}

/** Time a failing property may spend shrinking its counterexample. */
const SHRINK_BUDGET_MS = 15_000;

export interface PropertyRun {
  ctx: SuiteContextData;
  id: RuleId;
  index: number;
  meta: HpsMeta;
  replay: () => string;
}

/**
 * A property's predicate, guarded: transport trouble is never a counterexample (the first one ends
 * the property as an ERROR, unshrunk), and shrinking — a request per step — stops after a time
 * budget (fast-check keeps the smallest failing value found by then; the report says so).
 *
 * Both stop fast-check at once: the predicate throws a PreconditionFailure that interrupts the
 * execution. Before, every later candidate resolved at once as passing and fast-check went on
 * walking the rest of the shrink tree: one planted fault (CREATE-VALID-ACCEPTED against a create
 * schema that leaves a field out) walked 34 755 candidates, ~10 s of one worker's CPU and its
 * garbage, to reach the same counterexample.
 */
export class GuardedPredicate<T> {
  transport: unknown;
  shrinkCut = false;
  private firstFailureAt: number | undefined;

  constructor(
    private readonly predicate: (value: T) => Promise<void>,
    private readonly budgetMs = SHRINK_BUDGET_MS,
  ) {}

  readonly run = async (v: T): Promise<void> => {
    if (this.transport) throw new fc.PreconditionFailure(true);
    if (this.firstFailureAt !== undefined && performance.now() - this.firstFailureAt > this.budgetMs) {
      this.shrinkCut = true;
      throw new fc.PreconditionFailure(true);
    }
    try {
      await this.predicate(v);
    } catch (e) {
      if (transportCause(e) || e instanceof SkipRule) {
        this.transport = e;
        throw new fc.PreconditionFailure(true);
      }
      this.firstFailureAt ??= performance.now();
      throw e;
    }
  };

  /** The replay of a counterexample gets a fresh budget. */
  restartBudget(): void {
    this.firstFailureAt = undefined;
  }

  throwTransport(): void {
    if (this.transport) throw this.transport;
  }
}

export async function runProperty<T>(
  p: PropertyRun, arb: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, popts: PropertyOptions,
): Promise<void> {
  if (p.ctx.caseFilter !== undefined) return; // `run --case`: one fixed row alone, no property
  const seed = deriveSeed(p.ctx.seed, `${p.id}#${p.index}`);
  const numRuns = popts.runs ?? p.ctx.runs;
  const guard = new GuardedPredicate(predicate);
  const details = await fc.check(fc.asyncProperty(arb, guard.run), { seed, numRuns, endOnFailure: false });
  p.meta.cases = (p.meta.cases ?? 0) + details.numRuns;
  guard.throwTransport();
  if (!details.failed) return;
  const failure = propertyFailure(p, details, { seed, numRuns, shrinkNote: popts.shrinkNote, shrinkCut: guard.shrinkCut });
  guard.restartBudget();
  // Replay the shrunk counterexample once with the same seed and path before reporting it.
  if (details.counterexamplePath) {
    const again = await fc.check(fc.asyncProperty(arb, guard.run), { seed, numRuns, path: details.counterexamplePath, endOnFailure: true });
    guard.throwTransport();
    failure.replayOutcome = again.failed ? 'fail' : 'pass';
    if (!again.failed) failure.replayError = 'the same counterexample passed when replayed';
  }
  p.meta.property = failure;
  const cause = details.errorInstance;
  if (cause instanceof SetupRefused) p.meta.setupRefusal = cause.refusal;
  if (cause instanceof Mismatch) {
    p.meta.mismatch = { expected: cause.expected, actual: cause.actual };
    if (cause.exchange) p.meta.failedExchange = cause.exchange;
  }
  const why = cause instanceof Error ? cause.message : String(cause);
  const ran = `property failed after ${details.numRuns} run(s), shrunk ${details.numShrinks} time(s)`;
  throw new Error(`${ran}: ${why}\ncounterexample: ${failure.counterexample}\nreplay: ${failure.replay}`);
}

/** What the report keeps of a failed property: seed, path, the (redacted) counterexample, the replay line. */
interface FailureFacts {
  seed: number;
  numRuns: number;
  shrinkNote?: string;
  shrinkCut: boolean;
}

function propertyFailure<T>(p: PropertyRun, details: fc.RunDetails<[T]>, o: FailureFacts): PropertyFailure {
  const failure: PropertyFailure = {
    seed: o.seed,
    runs: o.numRuns,
    path: details.counterexamplePath ?? undefined,
    counterexample: redactText(fc.stringify(details.counterexample?.[0]), profileSecrets(p.ctx.profile)).slice(0, 2000),
    replay: p.replay(),
    replayOutcome: 'not-replayed',
    shrinks: details.numShrinks,
  };
  const cut = `shrinking stopped after ${SHRINK_BUDGET_MS / 1000} s (each step is a request to the target): ` +
    'the counterexample is the smallest found by then';
  const notes = [o.shrinkNote, o.shrinkCut ? cut : undefined].filter(Boolean);
  if (notes.length) failure.shrink_note = notes.join('; ');
  return failure;
}

/**
 * How a suite states a rule: `ruleTest('AUTH-MISSING-KEY', async (t) => ...)`.
 * The test is titled with the rule id and requirement; the RuleContext gives
 * the profile, a recording client, seeded properties with replay lines,
 * observations and skips, all left in task.meta for the runner.
 */
import fc from 'fast-check';
import { afterAll, inject, test, type TestContext } from 'vitest';
import { getCurrentSuite } from 'vitest/suite';
import { getRule, type Rule, type RuleId } from '../catalogue/index.ts';
import { checkExchange } from './ambient.ts';
import { Client, TransportError, type ApiResponse } from './client.ts';
import { deriveSeed, type SuiteContextData } from './context.ts';
import type { Finding, HpsMeta, PropertyFailure } from './evidence.ts';
import { profileHas, profileSecrets, type Profile } from './profile.ts';
import { redactText } from './redact.ts';
import { Mismatch } from './verdict.ts';

let cached: SuiteContextData | undefined;
export function suiteContext(): SuiteContextData {
  cached ??= inject('hps');
  if (!cached) throw new Error('hps-conformance suites run through `hps-conformance run`, which provides the target profile');
  return cached;
}

/**
 * Payments each test file created with Test keys, cancelled at the end of that
 * file (or describe block) if still PENDING (docs/profile.md). Files may share this
 * module (the runner does not isolate modules per file), so the bookkeeping is per file.
 */
const createdByFile = new WeakMap<object, Map<string, string>>();
const seenRequestIds = new Set<string>();
let uniq = 0;

function fileCleanup(): Map<string, string> {
  // vitest creates a fresh collector per file (and per describe block): the bookkeeping follows it.
  const file: object = getCurrentSuite();
  let created = createdByFile.get(file);
  if (created) return created;
  const mine = new Map<string, string>();
  created = mine;
  createdByFile.set(file, mine);
  afterAll(async () => {
    const ctx = suiteContext();
    const client = new Client({ baseUrl: ctx.profile.base_url, secrets: profileSecrets(ctx.profile) });
    const pending = [...mine.entries()];
    mine.clear();
    for (let i = 0; i < pending.length; i += 16) {
      await Promise.all(
        pending.slice(i, i + 16).map(async ([id, key]) => {
          try {
            // Cancel needs only payments:write (the creating key has it); a non-PENDING one answers 409, harmlessly.
            await client.cancelPayment(key, id);
          } catch {
            /* best effort */
          }
        }),
      );
    }
  }, 60_000);
  return mine;
}

export interface PropertyOptions {
  /** Overrides the run's --runs for an expensive property. */
  runs?: number;
}

export class SkipRule extends Error {}

export interface RuleContext {
  readonly rule: Rule;
  readonly profile: Profile;
  readonly keys: Profile['keys'];
  readonly runId: string;
  readonly seed: number;
  readonly runs: number;
  readonly client: Client;
  readonly sinkUrl: string | null;
  /** Skips the rule unless the profile has every field named. */
  need(...fields: string[]): void;
  skip(reason: string): never;
  /** Runs a seeded fast-check property; a failure carries counterexample, seed and replay line. */
  property<T>(arb: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, opts?: PropertyOptions): Promise<void>;
  observe(key: string, value: unknown): void;
  note(text: string): void;
  /** A unique external_id carrying the run marker. */
  externalId(label?: string): string;
  /** Metadata carrying the run marker, plus extra entries. */
  metadata(extra?: Record<string, string>): Record<string, string>;
  /** Creates a marked Test (or given key's) Payment and returns its 201 body; fails the test if it cannot. */
  createPayment(overrides?: Record<string, unknown>, key?: string): Promise<any>;
  replayLine(): string;
}

interface RuleTestOptions {
  /** Distinguishes several tests of one rule; the title still starts with the id. */
  title?: string;
  timeout?: number;
}

export function ruleTest(id: RuleId, fn: (t: RuleContext) => Promise<void>, opts: RuleTestOptions = {}): void {
  const rule = getRule(id);
  const created = fileCleanup();
  const title = `${id}: ${opts.title ?? rule.requirement}`;
  test(title, { timeout: opts.timeout ?? 60_000 }, async (vctx: TestContext) => {
    const ctx = suiteContext();
    const meta: HpsMeta = { rule: id };
    vctx.task.meta.hps = meta;
    const secrets = profileSecrets(ctx.profile);
    const ambient: Finding[] = [];
    const perRule = new Map<string, number>();
    let requests = 0;
    const client = new Client({
      baseUrl: ctx.profile.base_url,
      secrets,
      timeoutMs: ctx.profile.probes?.request_timeout_ms ?? 10_000,
      onExchange: (ex, res, req) => {
        requests++;
        if (!res) return;
        const key = req.authorization === undefined ? req.key ?? undefined : undefined;
        const keyLivemode = key?.startsWith('pt_live_sk_') ? true : key?.startsWith('pt_test_sk_') ? false : undefined;
        const idempotent = 'idempotency-key' in ex.request.headers;
        for (const f of checkExchange({ method: ex.request.method, path: ex.request.path, keyLivemode, idempotent }, res, seenRequestIds)) {
          const n = perRule.get(f.rule) ?? 0;
          perRule.set(f.rule, n + 1);
          if (n < 3) ambient.push(f);
        }
        if (res.status === 201 && ex.request.method === 'POST' && /^\/v1\/payments$/.test(ex.request.path) && res.json?.id && res.json.livemode === false) {
          if (key) created.set(res.json.id, key);
        }
      },
    });
    let propertyIndex = 0;
    const t: RuleContext = {
      rule,
      profile: ctx.profile,
      keys: ctx.profile.keys,
      runId: ctx.runId,
      seed: ctx.seed,
      runs: ctx.runs,
      client,
      sinkUrl: ctx.sinkUrl,
      need(...fields) {
        const missing = fields.filter((f) => !profileHas(ctx.profile, f));
        if (missing.length) t.skip(`profile lacks ${missing.join(', ')}`);
      },
      skip(reason) {
        meta.skipReason = reason;
        vctx.skip();
        throw new SkipRule(reason); // unreachable: vitest's skip throws
      },
      async property(arb, predicate, popts = {}) {
        const seed = deriveSeed(ctx.seed, `${id}#${propertyIndex++}`);
        const numRuns = popts.runs ?? ctx.runs;
        const details = await fc.check(fc.asyncProperty(arb, predicate), { seed, numRuns, endOnFailure: false });
        if (!details.failed) return;
        const failure: PropertyFailure = {
          seed,
          runs: numRuns,
          path: details.counterexamplePath ?? undefined,
          counterexample: redactText(fc.stringify(details.counterexample?.[0]), secrets).slice(0, 2000),
          replay: t.replayLine(),
          replayOutcome: 'not-replayed',
        };
        // Replay the shrunk counterexample once with the same seed and path before reporting it.
        if (details.counterexamplePath) {
          const again = await fc.check(fc.asyncProperty(arb, predicate), { seed, numRuns, path: details.counterexamplePath, endOnFailure: true });
          failure.replayOutcome = again.failed ? 'fail' : 'pass';
          if (!again.failed) failure.replayError = 'the same counterexample passed when replayed';
        }
        meta.property = failure;
        const cause = details.errorInstance;
        if (cause instanceof Mismatch) meta.mismatch = { expected: cause.expected, actual: cause.actual };
        const why = cause instanceof Error ? cause.message : String(cause);
        throw new Error(`property failed after ${details.numRuns} run(s), shrunk ${details.numShrinks} time(s): ${why}\ncounterexample: ${failure.counterexample}\nreplay: ${failure.replay}`);
      },
      observe(key, value) {
        (meta.observed ??= {})[key] = value;
      },
      note(text) {
        (meta.notes ??= []).push(text);
      },
      externalId(label = 'x') {
        return `${ctx.runId}-${label}-${process.pid.toString(36)}${(++uniq).toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
      },
      metadata(extra = {}) {
        return { conformance_run: ctx.runId, ...extra };
      },
      async createPayment(overrides = {}, key = ctx.profile.keys.test) {
        const body = { amount: '100.00', external_id: t.externalId('fx'), metadata: t.metadata(), ...overrides };
        const res: ApiResponse = await client.createPayment(key, body);
        if (res.status !== 201) {
          throw new Mismatch(`setup: creating a Payment answered ${res.status} ${res.json?.error?.code ?? ''}, expected 201`, { status: 201 }, { status: res.status, body: res.json ?? res.text.slice(0, 200) });
        }
        return res.json;
      },
      replayLine() {
        const parts = ['hps-conformance', 'run'];
        if (ctx.profilePath) parts.push('--profile', ctx.profilePath);
        parts.push('--rule', id, '--seed', String(ctx.seed));
        if (ctx.runs !== 100) parts.push('--runs', String(ctx.runs));
        parts.push(...ctx.replayArgs);
        return parts.join(' ');
      },
    };
    try {
      if (rule.needs?.length) t.need(...rule.needs);
      await fn(t);
    } catch (e) {
      if (e instanceof Mismatch && !meta.mismatch) meta.mismatch = { expected: e.expected, actual: e.actual };
      if (e instanceof TransportError) meta.transport = `${e.code}: ${e.message}`;
      if (!(e instanceof SkipRule) && !meta.skipReason) meta.transcript = client.transcript.slice(-6);
      throw e;
    } finally {
      meta.requests = requests;
      if (ambient.length) meta.ambient = ambient;
    }
  });
}

/**
 * Ambient checks: rules that hold for every exchange of the run, checked on
 * each answer the client receives whatever test sent it (status within the
 * operation's list, error envelope, schemas, livemode, 5xx, content type).
 * The checks are a registry keyed by rule id (core/ambient-checks.ts); this
 * runs those that apply to an answer. A violation is a Finding for the
 * ambient rule, with the exchange as evidence.
 */
import type { ExchangeRuleId, RuleId } from '../catalogue/rules.ts';
import { OPERATIONS, type Operation } from '../catalogue/schemas/index.ts';
import { AMBIENT_CHECKS, shownAs, type AmbientCheck, type AmbientInput, type AnswerKind, type Checking } from './ambient-checks.ts';
import type { ApiResponse, Exchange } from './client.ts';
import type { Finding } from './evidence.ts';
import { boundedValue, ownString } from './bounded-value.ts';

export type { AmbientInput, Operation };

const ROUTES = OPERATIONS.map((op) => ({
  op,
  re: new RegExp('^/v1' + op.path.replace(/\{id\}/g, '[^/?#]+') + '(?:\\?.*)?$'),
}));

/** The operation a request addresses, or undefined (unknown route or wrong method). */
export function inferOperation(method: string, path: string): Operation | undefined {
  for (const { op, re } of ROUTES) if (op.method === method && re.test(path)) return op;
  return undefined;
}

/**
 * Checks one answer against every ambient check that applies to it (core/ambient-checks.ts, in
 * the registry's order). `checked` is told each rule actually evaluated (a rule that evaluated
 * nothing all run is not a pass).
 */
export function checkExchange(
  input: AmbientInput,
  res: ApiResponse,
  seenRequestIds: Set<string>,
  checked: (rule: RuleId) => void = () => {},
): Finding[] {
  const out: Finding[] = [];
  const ex: Exchange = res.exchange;
  const op = inferOperation(input.method, input.path);
  const c: Checking = {
    input, res, op, seenRequestIds,
    add: (
      rule,
      message,
      expected,
      actual,
    ) => out.push({
      rule,
      message: ownString(`${input.method} ${input.path}: ${message}`),
      expected: boundedValue(expected),
      actual: boundedValue(actual),
      exchange: ex,
    }),
  };
  const kinds = kindsOf(input, res, op);
  for (const [rule, entry] of CHECK_ENTRIES) if (kinds.has(entry.on) && entry.check(c)) checked(rule);
  return out;
}

const CHECK_ENTRIES = Object.entries(AMBIENT_CHECKS) as Array<[ExchangeRuleId, AmbientCheck]>;

/** What the answer is, for the registry's `on`. A HEAD answer carries no body by HTTP (RFC 9110 §9.3.2): only `any` applies. */
function kindsOf(input: AmbientInput, res: ApiResponse, op: Operation | undefined): ReadonlySet<AnswerKind> {
  if (input.method === 'HEAD') return new Set(['any']);
  if (res.status >= 400) return new Set(['any', 'error']);
  const shown = shownAs(res, op);
  if (shown === 'Payment') return new Set(['any', 'payment', 'shown']);
  if (shown === 'PaymentList') return new Set(['any', 'list', 'shown']);
  return new Set(['any']);
}

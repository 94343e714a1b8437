/**
 * What must catch each planted fault of the reference receiver: the catalogue rules that must fail (or warn, for a
 * SHOULD rule), as each fault declares them beside its override (reference-receiver/faults.ts gathers them). Here
 * the rule ids are checked against the catalogue: a declaration naming an unknown rule, or none,
 * is an error at the first import.
 */
import { isRuleId, type RuleId } from '../catalogue/index.ts';
import { RECEIVER_FAULTS as DECLARED, RECEIVER_FAULT_NAMES, type ReceiverFaultName } from '../reference-receiver/faults.ts';

export { RECEIVER_FAULT_NAMES, type ReceiverFaultName };

export interface ReceiverFaultDefinition {
  /** What is wrong, in one sentence (the receiver's own words). */
  readonly description: string;
  /** Catalogue rules the fault must break. */
  readonly breaks: readonly RuleId[];
}

function definition(name: ReceiverFaultName): ReceiverFaultDefinition {
  const { does, breaks } = DECLARED[name]!;
  const unknown = breaks.filter((id) => !isRuleId(id));
  if (unknown.length > 0 || breaks.length === 0) throw new Error(`planted receiver fault ${name} names ${unknown.length ? `unknown rules: ${unknown.join(', ')}` : 'no rule that must catch it'}`);
  return { description: does, breaks: breaks as RuleId[] };
}

export const RECEIVER_FAULTS: Readonly<Record<ReceiverFaultName, ReceiverFaultDefinition>> = Object.freeze(
  Object.fromEntries(RECEIVER_FAULT_NAMES.map((name) => [name, definition(name)])),
);

/** The fault's definition; throws on a name that is none. */
export function receiverFaultOf(name: ReceiverFaultName): ReceiverFaultDefinition {
  const def = Object.hasOwn(RECEIVER_FAULTS, name) ? RECEIVER_FAULTS[name] : undefined;
  if (def === undefined) throw new Error(`unknown receiver fault: ${name}`);
  return def;
}

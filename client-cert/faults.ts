/**
 * What must catch each planted fault of the example client: the catalogue rules that must fail (or warn, for a
 * SHOULD rule), as each fault declares them beside its override (examples/merchant-client/faults.ts gathers them). Here
 * the rule ids are checked against the catalogue: a declaration naming an unknown rule, or none,
 * is an error at the first import.
 */
import { isRuleId, type RuleId } from '../catalogue/index.ts';
import { CLIENT_FAULTS as DECLARED, CLIENT_FAULT_NAMES, type ClientFaultName } from '../examples/merchant-client/faults.ts';

export { CLIENT_FAULT_NAMES, type ClientFaultName };

export interface ClientFaultDefinition {
  /** What is wrong, in one sentence (the example client's own words). */
  readonly description: string;
  /** Catalogue rules the fault must break. */
  readonly breaks: readonly RuleId[];
}

function definition(name: ClientFaultName): ClientFaultDefinition {
  const { does, breaks } = DECLARED[name]!;
  const unknown = breaks.filter((id) => !isRuleId(id));
  if (unknown.length > 0 || breaks.length === 0) throw new Error(`planted client fault ${name} names ${unknown.length ? `unknown rules: ${unknown.join(', ')}` : 'no rule that must catch it'}`);
  return { description: does, breaks: breaks as RuleId[] };
}

export const CLIENT_FAULTS: Readonly<Record<ClientFaultName, ClientFaultDefinition>> = Object.freeze(
  Object.fromEntries(CLIENT_FAULT_NAMES.map((name) => [name, definition(name)])),
);

/** The fault's definition; throws on a name that is none. */
export function clientFaultOf(name: ClientFaultName): ClientFaultDefinition {
  const def = Object.hasOwn(CLIENT_FAULTS, name) ? CLIENT_FAULTS[name] : undefined;
  if (def === undefined) throw new Error(`unknown client fault: ${name}`);
  return def;
}

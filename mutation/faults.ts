/**
 * The fault catalogue the mutation score runs: each planted fault of the reference server
 * (its name and description come from reference/faults.ts, the reference's own declaration
 * of its defects) with what the suite says must catch it (mutation/faults/<area>.ts: the
 * catalogue rules that must fail, or, for a negative control, the rules whose probes meet it).
 *
 * Both sides are keyed by `FaultName`: a fault the reference declares without expectations
 * here, or expectations for a fault the reference does not declare, fails `tsc`.
 */
import { FAULT_NAMES, REFERENCE_FAULTS, type FaultName } from '../reference/faults.ts';
import { AUTH_EXPECTED } from './faults/auth.ts';
import { CREATE_EXPECTED } from './faults/create.ts';
import { IDEMPOTENCY_EXPECTED } from './faults/idempotency.ts';
import { INFRASTRUCTURE_EXPECTED } from './faults/infrastructure.ts';
import { ISOLATION_EXPECTED } from './faults/isolation.ts';
import { LIMITS_EXPECTED } from './faults/limits.ts';
import { LISTING_EXPECTED } from './faults/listing.ts';
import { LIVE_EXPECTED } from './faults/live.ts';
import { MODEL_EXPECTED } from './faults/model.ts';
import { ORDERS_EXPECTED } from './faults/orders.ts';
import { RESPONSES_EXPECTED } from './faults/responses.ts';
import { ROUTING_EXPECTED } from './faults/routing.ts';
import { TRANSITIONS_EXPECTED } from './faults/transitions.ts';
import { VERSIONING_EXPECTED } from './faults/versioning.ts';
import { WEBHOOKS_EXPECTED } from './faults/webhooks.ts';
import type { ExpectationsOf, FaultExpectation } from './faults/expectation.ts';

export { FAULT_NAMES, isFaultName, type FaultName } from '../reference/faults.ts';

export interface FaultDefinition extends FaultExpectation {
  /** What is wrong, in one sentence (the reference's own words). */
  readonly description: string;
}

const EXPECTED: ExpectationsOf<typeof REFERENCE_FAULTS> = {
  ...ORDERS_EXPECTED, ...IDEMPOTENCY_EXPECTED, ...ISOLATION_EXPECTED, ...LIVE_EXPECTED, ...LIMITS_EXPECTED,
  ...LISTING_EXPECTED, ...MODEL_EXPECTED,
  ...AUTH_EXPECTED, ...ROUTING_EXPECTED, ...VERSIONING_EXPECTED,
  ...RESPONSES_EXPECTED, ...TRANSITIONS_EXPECTED,
  ...WEBHOOKS_EXPECTED,
  ...CREATE_EXPECTED,
  ...INFRASTRUCTURE_EXPECTED,
};

/** Every fault by name; also readable by a name given as a plain string (undefined when unknown). */
export type FaultCatalogue = { readonly [K in FaultName]: FaultDefinition };

function definition(name: FaultName): FaultDefinition {
  const { breaks, control } = EXPECTED[name];
  return { description: REFERENCE_FAULTS[name], breaks, ...(control ? { control } : {}) };
}

/** The catalogue, in the reference's order. */
export const FAULTS: FaultCatalogue = Object.fromEntries(FAULT_NAMES.map((name) => [name, definition(name)])) as FaultCatalogue;

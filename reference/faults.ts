/**
 * Planted faults: realistic bugs of the reference server, switched on by name
 * (`hps-conformance serve --fault NAME`). The reference declares its defects here and
 * nothing else: each registry under reference/faults/ maps a fault name (kebab-case, named
 * after the defect) to one sentence saying what is wrong. Which rules must catch a fault is
 * the suite's business (mutation/faults/), never the reference's.
 *
 * The set travels in the app context (`ctx.faults`, typed `ReadonlySet<FaultName>`, so a
 * misspelt name does not compile). A fault is planted as an override named after the defect
 * beside the step it replaces (reference/steps.ts); test/architecture/fault-seams.test.ts refuses
 * an inline branch on the fault set.
 */
import { AUTH_FAULTS } from './faults/auth.ts';
import { CREATE_FAULTS } from './faults/create.ts';
import { IDEMPOTENCY_FAULTS } from './faults/idempotency.ts';
import { INFRASTRUCTURE_CONTROLS } from './faults/infrastructure.ts';
import { ISOLATION_FAULTS } from './faults/isolation.ts';
import { LIMITS_FAULTS } from './faults/limits.ts';
import { LISTING_FAULTS } from './faults/listing.ts';
import { LIVE_FAULTS } from './faults/live.ts';
import { MODEL_FAULTS } from './faults/model.ts';
import { ORDERS_FAULTS } from './faults/orders.ts';
import { RESPONSES_FAULTS } from './faults/responses.ts';
import { ROUTING_FAULTS } from './faults/routing.ts';
import { TRANSITIONS_FAULTS } from './faults/transitions.ts';
import { VERSIONING_FAULTS } from './faults/versioning.ts';
import { WEBHOOKS_FAULTS } from './faults/webhooks.ts';

/** Every planted fault of the reference server: name → what is wrong, in one sentence. */
export const REFERENCE_FAULTS = {
  ...ORDERS_FAULTS, ...IDEMPOTENCY_FAULTS, ...ISOLATION_FAULTS, ...LIVE_FAULTS, ...LIMITS_FAULTS,
  ...LISTING_FAULTS, ...MODEL_FAULTS,
  ...AUTH_FAULTS, ...ROUTING_FAULTS, ...VERSIONING_FAULTS,
  ...RESPONSES_FAULTS, ...TRANSITIONS_FAULTS,
  ...WEBHOOKS_FAULTS,
  ...CREATE_FAULTS,
  ...INFRASTRUCTURE_CONTROLS,
} as const;

export type FaultName = keyof typeof REFERENCE_FAULTS;

/**
 * The same faults by the area whose registry declares them (reference/faults/<area>.ts);
 * `infrastructure` holds the negative controls. `serve --list-faults` and docs/faults.md read it.
 */
export const REFERENCE_FAULTS_BY_AREA = {
  auth: AUTH_FAULTS,
  routing: ROUTING_FAULTS,
  responses: RESPONSES_FAULTS,
  create: CREATE_FAULTS,
  orders: ORDERS_FAULTS,
  idempotency: IDEMPOTENCY_FAULTS,
  isolation: ISOLATION_FAULTS,
  transitions: TRANSITIONS_FAULTS,
  listing: LISTING_FAULTS,
  limits: LIMITS_FAULTS,
  live: LIVE_FAULTS,
  webhooks: WEBHOOKS_FAULTS,
  versioning: VERSIONING_FAULTS,
  model: MODEL_FAULTS,
  infrastructure: INFRASTRUCTURE_CONTROLS,
} as const satisfies Readonly<Record<string, Readonly<Record<string, string>>>>;

export type FaultSet = ReadonlySet<FaultName>;

export const NO_FAULTS: FaultSet = new Set<FaultName>();

export const FAULT_NAMES = Object.keys(REFERENCE_FAULTS) as readonly FaultName[];

export function isFaultName(name: string): name is FaultName {
  return Object.hasOwn(REFERENCE_FAULTS, name);
}

/** The FaultSet for `names`; an unknown name is an error naming it. */
export function toFaultSet(names: Iterable<string> | undefined): FaultSet {
  const set = new Set<FaultName>();
  for (const name of names ?? []) {
    if (!isFaultName(name)) {
      const near = FAULT_NAMES.filter((f) => name.split('-').some((w) => w.length > 3 && f.includes(w))).slice(0, 5);
      throw new Error(`unknown fault: ${name} (${near.length ? `similar: ${near.join(', ')}; ` : ''}\`hps-conformance serve --list-faults\` lists all ${FAULT_NAMES.length})`);
    }
    set.add(name);
  }
  return set;
}

/**
 * Every planted fault of the reference server, gathered from the override tables of the files
 * that plant them: each fault's declaration (what is wrong, in one sentence; the catalogue rules
 * that must catch it, or for a negative control the rules whose probes meet it) sits beside its
 * override (references/seams/steps.ts `Planted`). A file that starts planting faults exports FAULTY_STEPS and
 * is listed here; test/architecture/fault-seams.test.ts checks every `faulty` table is reachable.
 */
import { declaredFaults, type FaultDeclaration } from '../seams/steps.ts';
import { FAULTY_STEPS as APP } from './app.ts';
import { FAULTY_STEPS as AUTH } from './auth.ts';
import { FAULTY_STEPS as CONTROL } from './control.ts';
import { FAULTY_STEPS as CREATE_PAYMENT } from './create-payment.ts';
import { FAULTY_STEPS as ERROR_ANSWERS } from './error-answers.ts';
import type { FaultName, FaultSet } from './faults.ts';
import { FAULTY_STEPS as FRONT_END } from './front-end.ts';
import { FAULTY_STEPS as LISTING } from './listing.ts';
import { FAULTY_STEPS as LIVE_READINESS } from './live-readiness.ts';
import { FAULTY_STEPS as OPERATION_CONTRACT } from './operation-contract.ts';
import { FAULTY_STEPS as ORDER_CHECKS } from './order-checks.ts';
import { FAULTY_STEPS as PAYMENT_ACTIONS } from './payment-actions.ts';
import { FAULTY_STEPS as PAYMENT_FIELDS } from './payment-fields.ts';
import { FAULTY_STEPS as RATE_LIMIT } from './rate-limit.ts';
import { FAULTY_STEPS as VALIDATE_CREATE } from './validate-create.ts';
import { FAULTY_STEPS as DELIVERY } from './webhooks/delivery-steps.ts';
import { FAULTY_STEPS as EMIT } from './webhooks/emit.ts';
import { FAULTY_STEPS as EVENT_CONTRACT } from './webhooks/event-contract.ts';
import { FAULTY_STEPS as EVENTS } from './webhooks/events.ts';

export type { FaultDeclaration } from '../seams/steps.ts';

/** The planting files' steps, in the order the registry lists their faults. */
export const PLANTING_FILES = {
  'references/service/auth.ts': AUTH,
  'references/service/app.ts': APP,
  'references/service/control.ts': CONTROL,
  'references/service/create-payment.ts': CREATE_PAYMENT,
  'references/service/validate-create.ts': VALIDATE_CREATE,
  'references/service/order-checks.ts': ORDER_CHECKS,
  'references/service/payment-actions.ts': PAYMENT_ACTIONS,
  'references/service/listing.ts': LISTING,
  'references/service/live-readiness.ts': LIVE_READINESS,
  'references/service/rate-limit.ts': RATE_LIMIT,
  'references/service/webhooks/events.ts': EVENTS,
  'references/service/webhooks/emit.ts': EMIT,
  'references/service/webhooks/delivery-steps.ts': DELIVERY,
  'references/service/front-end.ts': FRONT_END,
  'references/service/error-answers.ts': ERROR_ANSWERS,
  'references/service/payment-fields.ts': PAYMENT_FIELDS,
  'references/service/operation-contract.ts': OPERATION_CONTRACT,
  'references/service/webhooks/event-contract.ts': EVENT_CONTRACT,
} as const;

/** Every planted fault of the reference server: name → its declaration. */
export const REFERENCE_FAULTS: Readonly<Record<FaultName, FaultDeclaration>> = declaredFaults(Object.values(PLANTING_FILES).flat());

export const FAULT_NAMES: readonly FaultName[] = Object.keys(REFERENCE_FAULTS);

export function isFaultName(name: string): boolean {
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

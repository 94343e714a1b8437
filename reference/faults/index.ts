/**
 * Fault registries, one per spec area. A registry maps a fault name (kebab-case,
 * named after the defect) to what is wrong and the rule ids it must make fail;
 * the branch itself is an `if (ctx.faults.has('name'))` in the one function of
 * the reference server implementing the rule, with a comment saying what is wrong.
 */
import type { FaultDefinition } from '../faults.ts';
import { IDEMPOTENCY_FAULTS } from './idempotency.ts';
import { ISOLATION_FAULTS } from './isolation.ts';
import { LIMITS_FAULTS } from './limits.ts';
import { LIVE_FAULTS } from './live.ts';
import { ORDERS_FAULTS } from './orders.ts';
import { LISTING_FAULTS } from './listing.ts';
import { MODEL_FAULTS } from './model.ts';
import { AUTH_FAULTS } from './auth.ts';
import { ROUTING_FAULTS } from './routing.ts';
import { VERSIONING_FAULTS } from './versioning.ts';
import { RESPONSES_FAULTS } from './responses.ts';
import { TRANSITIONS_FAULTS } from './transitions.ts';
import { WEBHOOKS_FAULTS } from './webhooks.ts';
import { CREATE_FAULTS } from './create.ts';
import { INFRASTRUCTURE_CONTROLS } from './infrastructure.ts';

export const FAULT_REGISTRIES: ReadonlyArray<Readonly<Record<string, FaultDefinition>>> = [
  ORDERS_FAULTS, IDEMPOTENCY_FAULTS, ISOLATION_FAULTS, LIVE_FAULTS, LIMITS_FAULTS,
  LISTING_FAULTS, MODEL_FAULTS,
  AUTH_FAULTS, ROUTING_FAULTS, VERSIONING_FAULTS,
  RESPONSES_FAULTS, TRANSITIONS_FAULTS,
  WEBHOOKS_FAULTS,
  CREATE_FAULTS,
  INFRASTRUCTURE_CONTROLS,
];

/**
 * Planted faults of the versioning area (spec, Versioning), each a realistic bug in
 * reference/app.ts (the version prefix) or reference/webhooks/events.ts (the event envelope),
 * with the rule ids it must make fail.
 */
import type { FaultDefinition } from '../faults.ts';

export const VERSIONING_FAULTS = {
  'version-prefix-case-insensitive': {
    description: 'The version prefix is matched case-insensitively: /V1/payments is served as /v1/payments.',
    breaks: ['VERS-UNKNOWN-VERSION-404'],
  },
  'any-version-prefix-served': {
    description: 'Any /v<N> prefix is routed to the v1 handlers: /v2/payments creates and reads Payments.',
    breaks: ['VERS-UNKNOWN-VERSION-404'],
  },
  'event-api-version-semver': {
    description: 'Events carry the description document\'s version ("1.0.0") as api_version instead of "v1".',
    breaks: ['VERS-EVENT-API-VERSION'],
  },
} satisfies Record<string, FaultDefinition>;

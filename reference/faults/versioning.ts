/**
 * Planted faults of the versioning area (spec, Versioning), each a realistic bug in
 * reference/app.ts (the version prefix) or reference/webhooks/events.ts (the event envelope).
 */

export const VERSIONING_FAULTS = {
  'version-prefix-case-insensitive':
    'The version prefix is matched case-insensitively: /V1/payments is served as /v1/payments.',
  'any-version-prefix-served':
    'Any /v<N> prefix is routed to the v1 handlers: /v2/payments creates and reads Payments.',
  'event-api-version-semver':
    'Events carry the description document\'s version ("1.0.0") as api_version instead of "v1".',
} as const satisfies Readonly<Record<string, string>>;

/**
 * Planted faults found by the model-based sequences (MODEL-SEQUENCES): bugs that only a
 * sequence of operations shows, such as a replay after a transition or a list after a cancel.
 */

export const MODEL_FAULTS = {
  'replay-after-transition-recreates':
    'An idempotent replay whose Payment is no longer PENDING runs the create again instead of returning the original result.',
  'list-external-id-stale-status':
    'The external_id filter answers from a snapshot taken at creation: a cancelled or paid Payment is listed as PENDING.',
} as const satisfies Readonly<Record<string, string>>;

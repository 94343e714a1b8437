/**
 * Planted faults found by the model-based sequences (MODEL-SEQUENCES): bugs that only a
 * sequence of operations shows, such as a replay after a transition or a list after a cancel.
 */
import type { FaultDefinition } from '../faults.ts';

export const MODEL_FAULTS = {
  'replay-after-transition-recreates': {
    description: 'An idempotent replay whose Payment is no longer PENDING runs the create again instead of returning the original result.',
    breaks: ['MODEL-SEQUENCES'],
  },
  'list-external-id-stale-status': {
    description: 'The external_id filter answers from a snapshot taken at creation: a cancelled or paid Payment is listed as PENDING.',
    breaks: ['MODEL-SEQUENCES'],
  },
} satisfies Record<string, FaultDefinition>;

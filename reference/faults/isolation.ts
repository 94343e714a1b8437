/**
 * Planted faults of the isolation area, each a realistic bug of the reference server, with
 * the rule ids it must make fail.
 */
import type { FaultDefinition } from '../faults.ts';

export const ISOLATION_FAULTS = {
} satisfies Record<string, FaultDefinition>;

/**
 * What must catch each planted fault of reference/faults/infrastructure.ts (negative controls: the rules whose probes meet them, none of which may raise anything).
 */
import type { INFRASTRUCTURE_CONTROLS } from '../../reference/faults/infrastructure.ts';
import type { ExpectationsOf } from './expectation.ts';

export const INFRASTRUCTURE_EXPECTED = {
  'front-node-default-limits': { breaks: [], control: { observes: ['AUTH-MALFORMED-KEY', 'ROUTE-EDGE-FORMS'] } },
  'front-html-errors': { breaks: [], control: { observes: ['AUTH-MALFORMED-KEY', 'ROUTE-EDGE-FORMS'] } },
} as const satisfies ExpectationsOf<typeof INFRASTRUCTURE_CONTROLS>;

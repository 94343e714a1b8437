/**
 * borderlineContextItems: `"context_items": null`, observed only.
 *
 * The spec rejects context_items when "sent". A key present with `null` is sent in the JSON text, yet
 * many JSON readers (and many APIs' conventions) treat a null member as absent, and the spec does not
 * say which reading applies. So the suite records whether the target answers 400
 * `context_items_not_accepted`, another 400, or 201 (contextItems covers every other shape).
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import type { BorderlineCase } from './invalid-case.ts';

/** The one context_items value whose rejection the spec leaves open. */
export function borderlineContextItems(): Arbitrary<BorderlineCase<null>> {
  return fc.constant({ value: null, why: 'context_items is present but null: "sent" or "absent" is not settled by the spec' });
}

/**
 * multiViolationRequest: a valid createPayment body with two (or more) different fields made invalid
 * at once; breaks `CREATE-MULTI-VIOLATION`.
 *
 * Spec: which error wins when a request breaks several rules is not shown. DESIGN oracle principle
 * 1: "Where a request breaks two rules at once, accept any of the codes that apply". So `codes` is
 * the union of the parts' codes, and `parts` keeps each field case so the suite can record which
 * rule the target reported (an OBSERVE finding).
 *
 *   multi-body = valid-body with `count` distinct slots each given one field violation
 *                (slots: every CreatePaymentRequest field, and context_items)
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { unionCodes, type InvalidCase } from './invalid-case.ts';
import { applyViolations, SLOTS, violationsIn } from './internal/field-violation.ts';
import { checkMarker, validCreateRequest, type RunMarker } from './valid-create-request.ts';

export interface MultiViolationCase extends InvalidCase<Record<string, unknown>> {
  breaks: 'CREATE-MULTI-VIOLATION';
  /** The field cases combined, one per broken field. */
  parts: readonly InvalidCase<unknown>[];
}

export interface MultiViolationRequestConstraints {
  /** How many fields are broken, 2..6. @defaultValue 2 */
  count?: number;
  /** The run marker the valid part of the body carries. @defaultValue none */
  marker?: RunMarker;
}

/** Whole createPayment bodies breaking `count` field rules in different fields. */
export function multiViolationRequest(constraints: MultiViolationRequestConstraints = {}): Arbitrary<MultiViolationCase> {
  const marker = checkMarker(constraints.marker);
  const count = constraints.count ?? 2;
  if (!Number.isInteger(count) || count < 2 || count > 6) throw new RangeError(`count must be 2..6, got ${count}`);
  return fc
    .tuple(validCreateRequest(marker ? { marker } : {}), fc.shuffledSubarray([...SLOTS], { minLength: count, maxLength: count }))
    .chain(([base, slots]) =>
      fc.tuple(...slots.map((slot) => violationsIn(slot, marker))).map((violations): MultiViolationCase => {
        const parts = violations.map((v) => v.case);
        return {
          value: applyViolations(base, violations),
          breaks: 'CREATE-MULTI-VIOLATION',
          codes: unionCodes(...parts.map((p) => p.codes)),
          why: parts.map((p) => p.why).join('; and '),
          parts,
        };
      }),
    );
}

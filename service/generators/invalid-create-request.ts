/**
 * invalidCreateRequest: a valid createPayment body with exactly one field made invalid; the case's
 * value is the whole body.
 *
 * The body starts as validCreateRequest (so every other field is clearly valid and, with a marker,
 * carries the run's marker) and one field is replaced, added (context_items, customer_id/order_id of
 * the wrong type) or removed (amount) using the field generators; breaks, codes and why are the
 * field case's. Rules are drawn evenly; CREATE-WRONG-TYPE then picks any field.
 *
 *   invalid-body = valid-body with one of:
 *       amount := invalidAmount | amountNotString | (removed)
 *       return_url := invalidReturnUrl
 *       metadata := invalidMetadata (still carrying conformance_run when a marker is given)
 *       allowed_methods := invalidAllowedMethods
 *       allowed_channels := invalidAllowedChannels
 *       context_items := contextItems
 *       <any field> := wrongTypeField
 *
 * A wrong type in metadata or external_id drops that part of the marker; the other part (when the
 * base body has it) still identifies the run.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { SINGLE_FIELD_RULE_IDS, type InvalidCase, type SingleFieldRuleId } from './invalid-case.ts';
import { applyViolations, SLOTS, violationsOf } from './internal/field-violation.ts';
import { checkMarker, validCreateRequest, type RunMarker } from './valid-create-request.ts';

export type { SingleFieldRuleId } from './invalid-case.ts';

export interface InvalidCreateRequestConstraints {
  /** Which rules to break (one per body). @defaultValue every single-field rule */
  breaks?: readonly SingleFieldRuleId[];
  /** The run marker the valid part of the body carries. @defaultValue none */
  marker?: RunMarker;
}

/** Whole createPayment bodies breaking exactly one field rule. */
export function invalidCreateRequest(
  constraints: InvalidCreateRequestConstraints = {},
): Arbitrary<InvalidCase<Record<string, unknown>>> {
  const marker = checkMarker(constraints.marker);
  const rules = [...new Set(constraints.breaks ?? SINGLE_FIELD_RULE_IDS)];
  if (rules.length === 0) throw new RangeError('invalidCreateRequest: breaks must name at least one rule');
  const violation = fc.oneof(...rules.map((rule) => fc.oneof(...violationsOf(rule, SLOTS, marker))));
  return fc.tuple(validCreateRequest(marker ? { marker } : {}), violation).map(([base, v]) => ({
    value: applyViolations(base, [v]),
    breaks: v.case.breaks,
    codes: v.case.codes,
    why: v.case.why,
  }));
}

/** The fields of a body `rule` can be broken in (a suite keeps its own marker out of those). */
export function slotsBrokenBy(rule: SingleFieldRuleId): string[] {
  return SLOTS.filter((slot) => violationsOf(rule, [slot]).length > 0);
}

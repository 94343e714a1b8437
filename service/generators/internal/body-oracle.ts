/**
 * An independent reading of a createPayment body, written from the spec's rules without the
 * generators' code: which fields break which rule. The generators' own specs use it to check that
 * invalidCreateRequest breaks exactly one field and multiViolationRequest exactly `count`.
 * Not part of the public surface.
 *
 * Each rule's reading sits beside the generator that breaks it (its file's `FIELD_RULES.oracle`,
 * service/generators/internal/field-rule.ts); this file joins them and adds what belongs to no rule: a
 * customer_id or order_id string (valid only with a fixture the generators do not have) and an
 * unknown field.
 */
import { FIELD_RULE_FILES } from './field-violation.ts';

const KNOWN = [
  'amount', 'description', 'merchant_reference', 'external_id', 'return_url', 'metadata',
  'allowed_methods', 'allowed_channels', 'customer_id', 'order_id', 'context_items',
];

/** slot -> the rules that slot breaks (a slot that breaks none is absent). */
export function bodyViolations(body: Record<string, unknown>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const put = (slot: string, rules: readonly string[]) => {
    if (rules.length > 0) out[slot] = [...(out[slot] ?? []), ...rules];
  };
  for (const file of FIELD_RULE_FILES) for (const [slot, rules] of Object.entries(file.oracle(body))) put(slot, rules);
  for (const f of ['customer_id', 'order_id']) if (Object.hasOwn(body, f) && typeof body[f] === 'string') put(f, ['NEEDS-FIXTURE']);
  for (const k of Object.keys(body)) if (!KNOWN.includes(k)) put(k, ['UNKNOWN-FIELD']);
  return out;
}

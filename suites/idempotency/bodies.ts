/**
 * Request bodies and keys of the idempotency suite, built from the generated parts
 * (service/generators/idempotency-body-fields.ts, idempotency-key-suffix.ts, body-change.ts) and the run
 * marker: the marker (a unique prefix) is added here, never generated, so keys and external_ids of
 * this run never meet another run's on a shared target.
 */
import type { BodyChange } from '../../service/generators/body-change.ts';
import type { BodyFields } from '../../service/generators/idempotency-body-fields.ts';
import type { RuleContext } from '../../service/harness/worker/rule-test.ts';

/** A fresh Idempotency-Key: the run's unique marker, then the generated suffix. */
export function idempotencyKey(t: RuleContext, suffix: string): string {
  return `${t.externalId('ik')}-${suffix}`;
}

/** The request body: the generated fields plus the run markers (external_id unless null). */
export function bodyOf(t: RuleContext, f: BodyFields, externalId: string | null): Record<string, unknown> {
  const { extra_metadata, ...rest } = f;
  return { ...rest, ...(externalId !== null ? { external_id: externalId } : {}), metadata: t.metadata(extra_metadata) };
}

/** The first body changed as `c` says, with a fresh external_id (so only idempotency_conflict applies). */
export function changedBody(t: RuleContext, first: Record<string, unknown>, c: BodyChange): Record<string, unknown> {
  const second: Record<string, unknown> = { ...first, external_id: t.externalId('idem2') };
  if (c === 'amount') second.amount = first.amount === '1.01' ? '1.02' : '1.01';
  if (c === 'description') second.description = `${String(first.description ?? '')}changed`;
  if (c === 'metadata') second.metadata = { ...(first.metadata as Record<string, string>), changed: 'yes' };
  return second;
}

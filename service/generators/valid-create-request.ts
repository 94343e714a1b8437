/**
 * validCreateRequest: createPayment bodies the spec clearly accepts (Test mode; 201 expected).
 *
 * Spec, CreatePaymentRequest. Every optional field the suite can fill without profile fixtures is
 * covered; customer_id and order_id are never set (they must name the caller's own customer/order).
 *
 *   body               = { amount [description] [merchant_reference] [external_id] [return_url]
 *                          [metadata] [allowed_methods] [allowed_channels] }
 *   amount             = validAmount
 *   description        = 1*64 printable ASCII, no leading/trailing space
 *   merchant_reference = 1*64 printable ASCII, no leading/trailing space
 *   external_id        = ( runId "-" / 0*43( ALPHA / DIGIT / "_" / "-" ) ) uniqueSuffix   ; <= 64 chars
 *   return_url         = validReturnUrl
 *   metadata           = validMetadata, plus { "conformance_run": runId } when a marker is given
 *   allowed_methods    = validAllowedMethods
 *   allowed_channels   = validAllowedChannels
 *
 * The spec gives no maximum for description, merchant_reference and external_id ("not shown"), so
 * valid bodies keep them short (<= 64 characters) and the suite finds the real maxima by bisection
 * (longString) and observes them. external_id always ends in an unbiased 20-character suffix, so no
 * two generated bodies collide on it (a shared target already holds other runs' payments: DESIGN
 * oracle principle 6). With a marker, external_id starts with `${runId}-` and metadata always
 * carries `conformance_run: runId` (within the 20 keys), so the run finds its own payments.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import type { CreatePaymentRequest } from './create-payment-request.ts';
import { idString, trimmedPrintableAscii } from './internal/charsets.ts';
import { uniqueSuffix } from './unique-suffix.ts';
import { validAllowedChannels } from './valid-allowed-channels.ts';
import { validAllowedMethods } from './valid-allowed-methods.ts';
import { validAmount } from './valid-amount.ts';
import { validMetadata } from './valid-metadata.ts';
import { validReturnUrl } from './valid-return-url.ts';

export interface RunMarker {
  /** The run's id: 1..40 characters of `[A-Za-z0-9_-]` (it prefixes external_id). */
  runId: string;
}

export interface ValidCreateRequestConstraints {
  /** Every optional field present (description ... allowed_channels). @defaultValue false: each present or not */
  withAll?: boolean;
  /** Mark the bodies as this run's (external_id prefix, metadata.conformance_run). @defaultValue none */
  marker?: RunMarker;
}

export const EXTERNAL_ID_MAX_GENERATED = 64;
const RUN_ID = /^[A-Za-z0-9_-]{1,40}$/;

/** Checks a run marker and returns it; throws RangeError when runId cannot prefix an external_id. */
export function checkMarker(marker: RunMarker | undefined): RunMarker | undefined {
  if (marker && !RUN_ID.test(marker.runId)) {
    throw new RangeError(`marker.runId must match ${RUN_ID}, got ${JSON.stringify(marker.runId)}`);
  }
  return marker;
}

/** Valid createPayment bodies covering every optional field. */
export function validCreateRequest(constraints: ValidCreateRequestConstraints = {}): Arbitrary<CreatePaymentRequest> {
  const marker = checkMarker(constraints.marker);
  const withAll = constraints.withAll ?? false;
  const suffix = uniqueSuffix();
  const externalId = marker
    ? suffix.map((s) => `${marker.runId}-${s}`)
    : fc.tuple(idString(0, EXTERNAL_ID_MAX_GENERATED - 20), suffix).map(([prefix, s]) => `${prefix}${s}`);
  const metadata = marker ? validMetadata({ include: { conformance_run: marker.runId } }) : validMetadata();

  const optional = {
    description: trimmedPrintableAscii(1, 64),
    merchant_reference: trimmedPrintableAscii(1, 64),
    external_id: externalId,
    return_url: validReturnUrl(),
    metadata,
    allowed_methods: validAllowedMethods(),
    allowed_channels: validAllowedChannels(),
  };
  type OptionalKey = keyof typeof optional;
  const required: OptionalKey[] = withAll ? (Object.keys(optional) as OptionalKey[]) : marker ? ['metadata'] : [];
  const full = fc
    .record({ amount: validAmount(), ...optional }, { requiredKeys: ['amount', ...required] })
    .map((body) => {
      // a fixed key order (spec order) keeps the JSON text stable for evidence and replays
      const out: CreatePaymentRequest = { amount: body.amount };
      for (const key of Object.keys(optional) as OptionalKey[]) {
        if (body[key] !== undefined) (out as unknown as Record<string, unknown>)[key] = body[key];
      }
      return out;
    });
  if (required.length > 0) return full;
  // the minimal body, { amount } alone, on purpose rather than by chance
  const minimal = validAmount().map((amount): CreatePaymentRequest => ({ amount }));
  return fc.oneof({ weight: 1, arbitrary: minimal }, { weight: 9, arbitrary: full });
}

/**
 * Rejected requests, kept apart from the deliveries in two bounded rings:
 *  - evidence: a POST to a known endpoint carrying an event whose signature failed (the target's own
 *    mis-signed delivery, which the signing rules judge): kept whole, at most `evidenceEntries` and
 *    `evidenceBodyBytes` of bodies (oldest evicted first);
 *  - junk: everything else (unknown path, not POST, oversize, aborted, no event): headers and verdicts
 *    only, never the body, at most `junkEntries`.
 * Neither counts toward maxDeliveries, so junk never blocks a valid delivery.
 */
import type { Delivery, DeliveryProblem } from './types.ts';

/** Problems that make a request rejected (kept in a ring, not stored nor counted). */
export const REJECTED_PROBLEMS: ReadonlySet<DeliveryProblem> = new Set(['unknown_path', 'method_not_post', 'body_too_large', 'request_aborted', 'bad_signature']);

export const RING_DEFAULTS = { junkEntries: 1_000, evidenceEntries: 5_000, evidenceBodyBytes: 16 * 1024 * 1024 } as const;
export type RingLimits = { junkEntries: number; evidenceEntries: number; evidenceBodyBytes: number };

export function isRejected(d: { problem: DeliveryProblem | null }): boolean {
  return d.problem !== null && REJECTED_PROBLEMS.has(d.problem);
}

function isEvidence(d: Delivery): boolean {
  return d.problem === 'bad_signature' && d.endpoint !== null && d.event !== null && d.method === 'POST';
}

export class RejectedRing {
  private readonly junk: Delivery[] = [];
  private readonly evidence: Delivery[] = [];
  private evidenceBytes = 0;
  /** Rejected requests seen, including those no longer kept. */
  count = 0;

  constructor(private readonly limits: RingLimits = RING_DEFAULTS) {}

  add(d: Delivery): void {
    this.count++;
    if (isEvidence(d)) {
      this.evidence.push(d);
      this.evidenceBytes += d.body.length;
      while (this.evidence.length > this.limits.evidenceEntries || (this.evidenceBytes > this.limits.evidenceBodyBytes && this.evidence.length > 1)) {
        this.evidenceBytes -= this.evidence.shift()!.body.length;
      }
      return;
    }
    this.junk.push(d.body === '' ? d : { ...d, body: '', bodyTruncated: true });
    if (this.junk.length > this.limits.junkEntries) this.junk.shift();
  }

  /** What is kept, in seq order. */
  kept(): Delivery[] {
    return [...this.junk, ...this.evidence].sort((a, b) => a.seq - b.seq);
  }

  get size(): number {
    return this.junk.length + this.evidence.length;
  }
}

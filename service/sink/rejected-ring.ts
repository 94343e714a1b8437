/**
 * Rejected requests, kept apart from the deliveries in two bounded rings:
 *  - evidence: a POST to a known endpoint carrying an event whose signature failed (the target's own
 *    mis-signed delivery, which the signing rules judge): kept whole, at most `evidenceEntries` and
 *    `evidenceBodyBytes` of bodies (oldest evicted first);
 *  - junk: everything else (unknown path, not POST, oversize, aborted, no event): headers and verdicts
 *    only, never the body, at most `junkEntries`.
 * Neither counts toward maxDeliveries, so junk never blocks a valid delivery.
 *
 * When a ring is full, the oldest entry that is not *corroborated* goes first: an entry is
 * corroborated when its event or Payment also came in a correctly signed delivery (`corroborated`,
 * given by the store). Only the target (and the run) know those ids, so a stranger's flood can
 * evict only other unknown entries, never the target's own mis-signed or misrouted deliveries of
 * a Payment it also delivered correctly.
 */
import type { Delivery, DeliveryProblem } from './types.ts';

/** Problems that make a request rejected (kept in a ring, not stored nor counted). */
export const REJECTED_PROBLEMS: ReadonlySet<DeliveryProblem> = new Set([
  'unknown_path',
  'method_not_post',
  'body_too_large',
  'request_aborted',
  'bad_signature',
]);

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

  constructor(
    private readonly limits: RingLimits = RING_DEFAULTS,
    private readonly corroborated: (d: Delivery) => boolean = () => false,
  ) {}

  add(d: Delivery): void {
    this.count++;
    if (isEvidence(d)) {
      this.evidence.push(d);
      this.evidenceBytes += d.body.length;
      while (
        this.evidence.length > this.limits.evidenceEntries ||
        (this.evidenceBytes > this.limits.evidenceBodyBytes && this.evidence.length > 1)
      ) {
        this.evidenceBytes -= this.evict(this.evidence).body.length;
      }
      return;
    }
    this.junk.push(d.body === '' ? d : { ...d, body: '', bodyTruncated: true });
    if (this.junk.length > this.limits.junkEntries) this.evict(this.junk);
  }

  /** Removes the oldest entry that is not corroborated (the oldest of all when every one is). */
  private evict(ring: Delivery[]): Delivery {
    const i = ring.findIndex((d) => !this.corroborated(d));
    return ring.splice(i === -1 ? 0 : i, 1)[0]!;
  }

  /** What is kept, in seq order. */
  kept(): Delivery[] {
    return [...this.junk, ...this.evidence].sort((a, b) => a.seq - b.seq);
  }

  get size(): number {
    return this.junk.length + this.evidence.length;
  }
}

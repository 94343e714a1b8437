/**
 * Hits on `/_sink/redirect-target/<token>` (a target that followed a redirect; spec, Delivery
 * rules 1). The path needs no query token (the target reaches it), so what it keeps is bounded on
 * its own and only the sink's own tokens count:
 *  - a hit with a token the sink never handed out is a stranger's: counted (`unknownTokenHits`),
 *    never stored nor logged, and it cannot push a genuine hit out;
 *  - a hit with a token of ours joins a ring per endpoint (the endpoint of the delivery whose answer
 *    carried the token), the last `perEndpoint` hits kept, bodies never kept (size and sha256 only);
 *  - only the first `loggedPerToken` hits of a token reach the log, so the log grows by at most
 *    that many lines per redirect answer (redirect answers are bounded by the stored deliveries).
 */
import type { RedirectHit } from './types.ts';

export const REDIRECT_HIT_LIMITS = { perEndpoint: 100, loggedPerToken: 3 } as const;
export type RedirectHitLimits = { perEndpoint: number; loggedPerToken: number };

export class RedirectHitRing {
  private readonly byEndpoint = new Map<string, RedirectHit[]>();
  private readonly perToken = new Map<string, number>();
  /** Hits with one of our tokens, kept or not. */
  count = 0;
  /** Hits with a token the sink never handed out (not stored, not logged). */
  unknownTokenHits = 0;
  private lastN = 0;

  constructor(private readonly limits: RedirectHitLimits = REDIRECT_HIT_LIMITS) {}

  nextNumber(): number {
    return this.lastN + 1;
  }

  /** Whether the next hit of this token goes to the log (the first `loggedPerToken` do). */
  shouldLog(token: string): boolean {
    return (this.perToken.get(token) ?? 0) < this.limits.loggedPerToken;
  }

  /** Keeps a hit with a known token in its endpoint's ring (its body dropped). */
  add(hit: RedirectHit, endpointPath: string): void {
    this.count++;
    this.lastN = Math.max(this.lastN, hit.n);
    this.perToken.set(hit.token, (this.perToken.get(hit.token) ?? 0) + 1);
    const ring = this.byEndpoint.get(endpointPath) ?? [];
    ring.push(hit.body === '' ? hit : { ...hit, body: '' });
    if (ring.length > this.limits.perEndpoint) ring.shift();
    this.byEndpoint.set(endpointPath, ring);
  }

  /** The hits kept, in arrival order. */
  kept(): RedirectHit[] {
    return [...this.byEndpoint.values()].flat().sort((a, b) => a.n - b.n);
  }
}

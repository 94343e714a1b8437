/**
 * The client's circuit breaker: once a target has left this many ordinary
 * requests in a row without an answer (time-out, refused, reset), every
 * further request to it fails at once as a transport error. A target that
 * stops answering then ends the run as ERROR in seconds, not after every
 * rule's every request has waited out its own time-out.
 *
 * Per origin and per process (each suite worker has its own); probes outside
 * ordinary HTTP neither trip nor reset it.
 */
export const CIRCUIT_THRESHOLD = 3;

const consecutive = new Map<string, number>();

export const CIRCUIT_OPEN_MARK = 'circuit open';

/** The reason requests to this origin are refused at once, or undefined while it answers. */
export function circuitOpen(origin: string): string | undefined {
  const n = consecutive.get(origin) ?? 0;
  return n >= CIRCUIT_THRESHOLD ? `${CIRCUIT_OPEN_MARK}: the target left ${n} requests in a row without an answer` : undefined;
}

export function recordAnswer(origin: string): void {
  consecutive.set(origin, 0);
}

export function recordNoAnswer(origin: string): void {
  consecutive.set(origin, (consecutive.get(origin) ?? 0) + 1);
}

/** A new run (or a test) starts with every circuit closed. */
export function resetCircuits(): void {
  consecutive.clear();
}

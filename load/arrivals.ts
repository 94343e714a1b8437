/**
 * When requests fall due in the open model. The offered rate R is split over C connections;
 * connection c owns every C-th arrival (constant: evenly spaced, staggered by 1/R so the
 * union is a constant rate) or an independent Poisson stream of rate R/C (the superposition
 * of independent Poisson streams is a Poisson stream of rate R).
 */
export type Arrivals = 'constant' | 'poisson';

export interface ArrivalClock {
  /** The due time (ms, same clock as `startMs`) of the connection's next request. */
  next(): number;
}

/** A deterministic generator in [0, 1) (mulberry32), so a schedule can be replayed. */
export { seededRandom } from '../core/seeded-random.ts';

export function arrivalClock(
  kind: Arrivals,
  rate: number,
  connections: number,
  index: number,
  startMs: number,
  random: () => number = Math.random,
): ArrivalClock {
  const perConnection = rate / connections;
  const intervalMs = 1000 / perConnection;
  if (kind === 'constant') {
    let k = 0;
    const offset = (index * 1000) / rate;
    return { next: () => startMs + offset + intervalMs * k++ };
  }
  let t = startMs;
  return {
    next: () => {
      t += -Math.log(1 - random()) * intervalMs;
      return t;
    },
  };
}

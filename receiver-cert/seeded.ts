/** The receiver's seeded order of probes (one implementation for the whole tool). */
export { seededRandom, shuffled } from '../core/seeded-random.ts';

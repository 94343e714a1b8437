/** The receiver's seeded order of probes (one implementation for the whole tool). */
export { seededRandom, shuffled } from '../harness/seeded-random.ts';

/** The mutation score as written to mutation.json and embedded in report.json: which planted faults the suite caught, on which seeds, by which rules. */

export interface SeedOutcome {
  seed: number;
  /** Rules that broke (fail or warn) on this seed; for a control, every alarm (fail, warn, error, flaky). */
  failed: string[];
  caughtBy: string[];
  caught: boolean;
  exitCode: number | null;
  duration_ms: number;
  problem?: string;
  /** A fault this seed did not catch: each rule it declares, its status and the first thing it said ("HOOK-X pass: …"). */
  declared?: string[];
}

export interface FaultResult {
  fault: string;
  description: string;
  /** A negative control (infrastructure in front of a conformant service): caught means it raised nothing. */
  control: boolean;
  areas: string[];
  expected: string[];
  /** Union over the seeds. */
  failed: string[];
  caughtBy: string[];
  /** Caught on every seed. */
  caught: boolean;
  /** Caught on some seeds only: counts as missed. */
  byChance: boolean;
  seeds: SeedOutcome[];
  duration_ms: number;
  problem?: string;
}

export interface MutationSummary {
  seed: number;
  seeds: number[];
  runs: number;
  faults: number;
  caught: number;
  byChance: number;
  score: number;
  duration_ms: number;
  results: FaultResult[];
  /** Rules no fault declares (holes in the proof that the suite can fail). */
  unexercised: string[];
}

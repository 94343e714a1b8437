/**
 * `run --require CLASS…` (and the profile's `require`): the CI gate by conformance class
 * (docs/classes.md). It fails only when a required class is not conformant or was not tested,
 * saying which and why; its exit status (4) is its own, 1 staying reserved for a MUST violation.
 */
import { CLASSES, getClass } from '../../catalogue/index.ts';
import { EXIT, HarnessError } from '../../core/errors.ts';
import type { ClassVerdict } from '../../catalogue/report/model.ts';

export interface UnmetRequirement {
  id: string;
  /** One line: the class's status and why. */
  why: string;
}

/** The required classes, each checked to be a class of `side` (absent: the service); unknown names are a usage error. */
export function requiredClasses(values: readonly string[], side?: 'receiver' | 'client'): string[] {
  const ids = [...new Set(values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean))];
  for (const id of ids) {
    const c = getClass(id);
    if (!c || c.side !== side) {
      const known = CLASSES.filter((k) => k.side === side).map((k) => k.id).join(', ');
      throw new HarnessError(
        'HPS_ERR_USAGE',
        `--require: ${id.slice(0, 60)} is not a conformance class of this command (one of: ${known})`,
      );
    }
  }
  return ids;
}

export function unmetRequirements(classes: readonly ClassVerdict[], required: readonly string[]): UnmetRequirement[] {
  const out: UnmetRequirement[] = [];
  for (const id of required) {
    const v = classes.find((c) => c.id === id);
    if (!v) out.push({ id, why: 'not reported by this run' });
    else if (v.status === 'not_conformant') out.push({ id, why: `not conformant: ${v.reason ?? `${v.failed} MUST rule(s) failed`}` });
    else if (v.status === 'not_tested') out.push({ id, why: `not tested: ${v.reason ?? `${v.ran} of ${v.testable} ran`}` });
  }
  return out;
}

/** The exit status with the gate: a MUST violation (1) or a target error (3) keeps its status; otherwise (0, or 6 incomplete) an unmet requirement is 4. */
export function exitCodeWithRequire(exitCode: number, unmet: readonly UnmetRequirement[]): number {
  return (exitCode === EXIT.conformant || exitCode === EXIT.incomplete) && unmet.length ? EXIT.requireUnmet : exitCode;
}

export function requireLines(unmet: readonly UnmetRequirement[]): string[] {
  return unmet.map((u) => `--require ${u.id}: ${u.why}`);
}

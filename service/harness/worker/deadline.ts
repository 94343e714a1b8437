/** A rule's test deadline, extended by the time its requests waited for the target. */
import { RuleTimeout } from './rule-errors.ts';

/** `work`, or RuleTimeout after `ms` plus whatever `waited()` says its requests spent waiting for the target. */
export async function withDeadline<T>(work: Promise<T>, ms: number, id: string, waited: () => number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const started = performance.now();
  const deadline = new Promise<never>((_, reject) => {
    const arm = () => {
      const due = started + ms + waited();
      const left = due - performance.now();
      const extended = due - started > ms ? ` (+${Math.round(due - started - ms)} ms waited out for the target)` : '';
      if (left <= 0) reject(new RuleTimeout(`${id} did not finish within ${ms} ms${extended}`));
      else timer = setTimeout(arm, left);
    };
    arm();
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Replay lines: the commands that rerun what was judged, exactly. Every side's line is built
 * here. The seed is written `--seed=N` so any value parses (a negative one too).
 */
import type { SuiteContextData } from '../../core/run-context.ts';

/** `--seed=N`: one word whatever N is. */
export function seedFlag(seed: number): string {
  return `--seed=${seed}`;
}

/**
 * The command that reruns these rules exactly; with `caseN`, that fixed case of the (one) rule alone. It starts as the user
 * started the tool (`ctx.command`, core/invocation.ts), else `hps-conformance`.
 */
export function replayCommand(
  ctx: Pick<SuiteContextData, 'profilePath' | 'seed' | 'runs' | 'replayArgs' | 'command'>,
  rules: readonly string[],
  caseN?: number,
): string {
  const parts = [ctx.command ?? 'hps-conformance', 'run'];
  if (ctx.profilePath) parts.push('--profile', ctx.profilePath);
  for (const r of rules) parts.push('--rule', r);
  if (caseN !== undefined) parts.push('--case', String(caseN));
  parts.push(seedFlag(ctx.seed));
  if (ctx.runs !== 100) parts.push('--runs', String(ctx.runs));
  parts.push(...ctx.replayArgs);
  return parts.join(' ');
}

/** The words a replay line carries to start the embedded reference server the same way again. */
export function embeddedReplayArgs(o: { faults?: readonly string[]; timeScale?: number; variant?: 'reference' | 'alt' }): string[] {
  return [
    ...(o.faults ?? []).flatMap((f) => ['--fault', f]),
    ...(o.timeScale !== undefined ? ['--time-scale', String(o.timeScale)] : []),
    ...(o.variant === 'alt' ? ['--variant', 'alt'] : []),
  ];
}

/** A receiver's or a client's certification rerun whole with the same seed: `command` names the target, never a secret. */
export function sideReplayCommand(command: string, seed: number): string {
  return `${command} ${seedFlag(seed)}`;
}

/** The replay line of a rule's first failing fixed case, if one failed: that row alone. */
export function caseReplayCommand(
  ctx: Pick<SuiteContextData, 'profilePath' | 'seed' | 'runs' | 'replayArgs' | 'command'>,
  rule: { id: string; cases?: ReadonlyArray<{ n: number; status: string }> },
): string | undefined {
  const failing = rule.cases?.find((c) => c.status === 'fail');
  return failing ? replayCommand(ctx, [rule.id], failing.n) : undefined;
}

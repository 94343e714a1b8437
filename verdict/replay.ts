/**
 * Replay lines: the command that reruns rules exactly. The seed is written
 * `--seed=N` so any value parses, and run seeds are non-negative anyway.
 */
import type { SuiteContextData } from '../core/run-context.ts';

/** The command that reruns these rules exactly. */
export function replayCommand(ctx: Pick<SuiteContextData, 'profilePath' | 'seed' | 'runs' | 'replayArgs'>, rules: readonly string[]): string {
  const parts = ['hps-conformance', 'run'];
  if (ctx.profilePath) parts.push('--profile', ctx.profilePath);
  for (const r of rules) parts.push('--rule', r);
  parts.push(`--seed=${ctx.seed}`);
  if (ctx.runs !== 100) parts.push('--runs', String(ctx.runs));
  parts.push(...ctx.replayArgs);
  return parts.join(' ');
}


/**
 * The option helpers every command shares: the parsed options of one command line (Options)
 * and the typed readers of its values, each refusing a bad value with a usage error naming the
 * flag. Commands import them from here, never from main.ts (which imports the commands).
 */
import { HarnessError } from '../core/errors.ts';

/** One command line's options, by long name, as commander parsed them. */
export type Options = Record<string, string | boolean | string[] | undefined>;

/** Parses an integer option, or throws a usage error naming it. */
export function intOption(o: Options, name: string, min: number, max: number): number | undefined {
  const v = o[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^-?\d+$/.test(v) || Number(v) < min || Number(v) > max) {
    throw new HarnessError('HPS_ERR_USAGE', `--${name} ${String(v)}: must be an integer from ${min} to ${max}`);
  }
  return Number(v);
}

export function numberOption(o: Options, name: string, min: number, max: number): number | undefined {
  const v = o[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^\d+(\.\d+)?$/.test(v) || Number(v) < min || Number(v) > max) {
    throw new HarnessError('HPS_ERR_USAGE', `--${name} ${String(v)}: must be a number from ${min} to ${max}`);
  }
  return Number(v);
}

export function listOption(o: Options, name: string): string[] {
  const v = o[name];
  return Array.isArray(v) ? v.flatMap((x) => x.split(',')).map((x) => x.trim()).filter(Boolean) : [];
}

/** `--variant reference|alt`: the reference server's decisions on points the spec leaves open. */
export function variantOption(o: Options): 'reference' | 'alt' | undefined {
  const v = o.variant;
  if (v === undefined) return undefined;
  if (v !== 'reference' && v !== 'alt') throw new HarnessError('HPS_ERR_USAGE', `--variant ${String(v)}: must be reference or alt`);
  return v;
}


/** OBSERVE results in a line: what an implementation did where the spec is silent, shortened for a table cell. */
export function shortJson(v: unknown, max: number): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v) ?? String(v);
  return s.length > max ? `${s.slice(0, max)}… (${s.length} chars)` : s;
}

/** `key: value` pairs of an observation, each value cut to `perValue`, the whole to `max` characters. */
export function observedPairs(observed: Record<string, unknown> | undefined, perValue = 120): Array<[string, string]> {
  return Object.entries(observed ?? {}).map(([k, v]) => [k, shortJson(v, perValue)]);
}


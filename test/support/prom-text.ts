/** The Prometheus text format (version 0.0.4) read back for the tests: one sample a line, `# ` lines skipped. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export function parsePromText(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[l[1]!] = l[2]!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    }
    out.push({ name: m[1]!, labels, value: m[3] === '+Inf' ? Infinity : Number(m[3]) });
  }
  return out;
}

/** Sums `name`'s samples by the values of `by`, keyed `a b`. */
export function sumBy(samples: readonly Sample[], name: string, by: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of samples) {
    if (s.name !== name) continue;
    const key = by.map((k) => s.labels[k] ?? '').join(' ');
    out[key] = (out[key] ?? 0) + s.value;
  }
  return out;
}

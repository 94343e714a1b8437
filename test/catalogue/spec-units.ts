/**
 * The spec's statements, as the clause test reads them: every table row but header and rule
 * lines (whole, verbatim), and every sentence of prose and list items (list markers removed).
 * Headings are titles, not statements.
 */
export interface SpecUnit {
  readonly line: number;
  readonly text: string;
  readonly kind: 'row' | 'sentence';
}

export function specUnits(markdown: string): SpecUnit[] {
  const out: SpecUnit[] = [];
  const lines = markdown.split('\n');
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    if (line.startsWith('|')) {
      const next = lines[i + 1]?.trim() ?? '';
      if (/^\|[-| ]+\|$/.test(line) || /^\|[-| ]+\|$/.test(next)) return; // separator, or the header above it
      out.push({ line: i + 1, text: line, kind: 'row' });
      return;
    }
    const body = line.replace(/^(?:- |\d+\. )/, '');
    for (const s of sentences(body)) out.push({ line: i + 1, text: s, kind: 'sentence' });
  });
  return out;
}

/** Splits after a full stop followed by a space (the spec has no abbreviation with one). */
export function sentences(text: string): string[] {
  return text.split(/(?<=\.)\s+/).map((s) => s.trim()).filter((s) => s.length > 0);
}

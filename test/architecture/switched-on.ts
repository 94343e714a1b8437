/** The fault names a source text switches on (shared by fault-reachability and fault-seams tests). */

/** The fault names a source text switches on: `faults.has('…')` literals and keys of `faulty: { … }` tables. */
export function switchedOn(text: string): string[] {
  const names = [...text.matchAll(/faults\.has\(\s*(['"])([^'"]+)\1\s*\)/g)].map((m) => m[2]!);
  for (const table of text.matchAll(/\bfaulty\s*:\s*\{/g)) names.push(...topLevelKeys(text, table.index + table[0].length));
  return names;
}

/** The quoted keys at depth 1 of the object literal whose body starts at `from` (just after its `{`); strings and comments skipped. */
function topLevelKeys(text: string, from: number): string[] {
  const keys: string[] = [];
  let depth = 1;
  for (let i = from; i < text.length && depth > 0; i++) {
    const c = text[i]!;
    if (text.startsWith('//', i)) i = lineEnd(text, i);
    else if (text.startsWith('/*', i)) i = text.indexOf('*/', i + 2) === -1 ? text.length : text.indexOf('*/', i + 2) + 1;
    else if (c === "'" || c === '"' || c === '`') {
      const m = depth === 1 ? /^(['"])([a-z0-9-]+)\1\s*:/.exec(text.slice(i, i + 120)) : null;
      if (m) keys.push(m[2]!);
      i = stringEnd(text, i);
    } else if (c === '{' || c === '(' || c === '[') depth++;
    else if (c === '}' || c === ')' || c === ']') depth--;
  }
  return keys;
}

function lineEnd(text: string, i: number): number {
  const end = text.indexOf('\n', i);
  return end === -1 ? text.length : end;
}

/** The index of the quote closing the string opened at `i` (backslash escapes honoured). */
function stringEnd(text: string, i: number): number {
  const quote = text[i];
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === quote) return j;
  }
  return text.length;
}

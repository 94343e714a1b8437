/**
 * Where a JSON text is broken, without quoting it: JSON.parse's message shows text around the
 * error (which may be part of a key), so a profile error is rebuilt from a small scanner that
 * reports line, column, the field being read and what was expected.
 */
export interface JsonProblem {
  line: number;
  column: number;
  /** Dotted path of the field being read (`keys.test`, `webhooks.endpoints[0]`), or `(root)`. */
  field: string;
  expected: string;
}

class Broken extends Error {
  constructor(readonly at: number, readonly expected: string) {
    super(expected);
  }
}

/** The first syntax problem of `text`, or null when it is valid JSON. */
export function locateJsonError(text: string): JsonProblem | null {
  const path: Array<string | number> = [];
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (expected: string): never => {
    throw new Broken(i, expected);
  };
  const str = (): string => {
    if (text[i] !== '"') fail('a string');
    const start = ++i;
    while (i < text.length && text[i] !== '"') {
      const c = text.charCodeAt(i);
      if (c < 0x20) fail('a closing quote before the end of the line');
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u' ? !/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5)) : !'"\\/bfnrt'.includes(text[i] ?? '')) fail('a valid escape');
        if (text[i] === 'u') i += 4;
      }
      i++;
    }
    if (i >= text.length) fail('a closing quote');
    return text.slice(start, i++);
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        const key = str();
        ws();
        if (text[i] !== ':') fail('":" after a property name');
        i++;
        path.push(key);
        value();
        path.pop();
        ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === '}') return void i++;
        fail('"," or "}"');
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (let n = 0; ; n++) {
        path.push(n);
        value();
        path.pop();
        ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === ']') return void i++;
        fail('"," or "]"');
      }
    }
    if (c === '"') return void str();
    const lit = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (!lit) fail('a value');
    i += lit![0].length;
  };
  try {
    value();
    ws();
    if (i < text.length) fail('the end of the text');
    return null;
  } catch (e) {
    if (!(e instanceof Broken)) throw e;
    const before = text.slice(0, e.at);
    const line = before.split('\n').length;
    const column = e.at - before.lastIndexOf('\n');
    const field = path.reduce<string>((acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '') || '(root)';
    return { line, column, field, expected: e.expected };
  }
}

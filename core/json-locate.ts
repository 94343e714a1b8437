/**
 * Where a JSON text is broken, without quoting it: JSON.parse's message shows text around the
 * error (which may be part of a key), so a profile error is rebuilt from a small scanner that
 * reports line, column, the field being read and what was expected.
 */
import type { ErrorCode } from './error-codes.ts';

export interface JsonProblem {
  line: number;
  column: number;
  /** Dotted path of the field being read (`keys.test`, `webhooks.endpoints[0]`), or `(root)`. */
  field: string;
  expected: string;
}

class Broken extends Error {
  readonly code = 'HPS_ERR_PROFILE' satisfies ErrorCode;
  constructor(readonly at: number, readonly expected: string) {
    super(expected);
  }
}

const LITERAL = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/;

/** A recursive-descent reader that only checks syntax and keeps the path of the field it is in. */
class Scanner {
  i = 0;
  readonly path: Array<string | number> = [];

  constructor(private readonly text: string) {}

  ws(): void {
    while (this.i < this.text.length && ' \t\n\r'.includes(this.text[this.i]!)) this.i++;
  }

  fail(expected: string): never {
    throw new Broken(this.i, expected);
  }

  str(): string {
    const text = this.text;
    if (text[this.i] !== '"') this.fail('a string');
    const start = ++this.i;
    while (this.i < text.length && text[this.i] !== '"') {
      const c = text.charCodeAt(this.i);
      if (c < 0x20) this.fail('a closing quote before the end of the line');
      if (text[this.i] === '\\') {
        this.i++;
        const e = text[this.i];
        if (e === 'u' ? !/^[0-9a-fA-F]{4}$/.test(text.slice(
          this.i + 1,
          this.i + 5,
        )) : !'"\\/bfnrt'.includes(e ?? '')) this.fail('a valid escape');
        if (e === 'u') this.i += 4;
      }
      this.i++;
    }
    if (this.i >= text.length) this.fail('a closing quote');
    return text.slice(start, this.i++);
  }

  value(): void {
    this.ws();
    const c = this.text[this.i];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return void this.str();
    const lit = LITERAL.exec(this.text.slice(this.i, this.i + 400));
    if (!lit) this.fail('a value');
    this.i += lit[0].length;
  }

  private object(): void {
    this.i++;
    this.ws();
    if (this.text[this.i] === '}') return void this.i++;
    for (;;) {
      this.ws();
      const key = this.str();
      this.ws();
      if (this.text[this.i] !== ':') this.fail('":" after a property name');
      this.i++;
      this.path.push(key);
      this.value();
      this.path.pop();
      this.ws();
      if (this.text[this.i] === ',') { this.i++; continue; }
      if (this.text[this.i] === '}') return void this.i++;
      this.fail('"," or "}"');
    }
  }

  private array(): void {
    this.i++;
    this.ws();
    if (this.text[this.i] === ']') return void this.i++;
    for (let n = 0; ; n++) {
      this.path.push(n);
      this.value();
      this.path.pop();
      this.ws();
      if (this.text[this.i] === ',') { this.i++; continue; }
      if (this.text[this.i] === ']') return void this.i++;
      this.fail('"," or "]"');
    }
  }
}

/** The first syntax problem of `text`, or null when it is valid JSON. */
export function locateJsonError(text: string): JsonProblem | null {
  const s = new Scanner(text);
  try {
    s.value();
    s.ws();
    if (s.i < text.length) s.fail('the end of the text');
    return null;
  } catch (e) {
    if (!(e instanceof Broken)) throw e;
    const before = text.slice(0, e.at);
    const line = before.split('\n').length;
    const column = e.at - before.lastIndexOf('\n');
    const field = s.path.reduce<string>((acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '') || '(root)';
    return { line, column, field, expected: e.expected };
  }
}

/**
 * Colour on a terminal only: NO_COLOR (any non-empty value) switches it off,
 * FORCE_COLOR (anything but "0"/"false") switches it on; otherwise a TTY that
 * is not TERM=dumb gets colour. No dependency: five SGR codes are enough.
 */
export type Paint = (s: string) => string;

export interface Palette {
  enabled: boolean;
  red: Paint;
  green: Paint;
  yellow: Paint;
  dim: Paint;
  bold: Paint;
}

export function colourEnabled(stream: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '0' && force !== 'false') return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (force !== undefined) return false; // FORCE_COLOR=0 forces colour off
  return stream.isTTY === true && env.TERM !== 'dumb';
}

const sgr = (on: number, off: number): Paint => (s) => `\x1b[${on}m${s}\x1b[${off}m`;
const plain: Paint = (s) => s;

export function palette(enabled: boolean): Palette {
  return enabled
    ? { enabled, red: sgr(31, 39), green: sgr(32, 39), yellow: sgr(33, 39), dim: sgr(2, 22), bold: sgr(1, 22) }
    : { enabled, red: plain, green: plain, yellow: plain, dim: plain, bold: plain };
}

/** Colours the runner's summary lines by what they start with (status words, the verdict). */
export function paintLine(line: string, p: Palette): string {
  if (!p.enabled) return line;
  const status = /^(\s*)(FAIL|ERROR|WARN|FLAKY)(\s)/.exec(line);
  if (status) {
    const c = status[2] === 'WARN' || status[2] === 'FLAKY' ? p.yellow : p.red;
    return status[1] + c(status[2]!) + line.slice(status[1]!.length + status[2]!.length);
  }
  if (/^\s+replay( the case alone)?: /.test(line)) return p.dim(line);
  if (line.startsWith('verdict: conformant')) return p.green(p.bold('verdict: conformant')) + line.slice('verdict: conformant'.length);
  if (line.startsWith('verdict: incomplete')) return p.yellow(p.bold('verdict: incomplete')) + line.slice('verdict: incomplete'.length);
  if (line.startsWith('verdict: not_conformant')) return p.red(p.bold('verdict: ' +
    'not_conformant')) + line.slice('verdict: not_conformant'.length);
  if (line.startsWith('NOT A CERTIFICATION')) return p.yellow(line);
  return line;
}

/**
 * Inert text: what came from a target or a file, made safe to print to a terminal, write into
 * Markdown or a one-line log record. Every character a terminal or a text renderer would act on
 * rather than show is replaced by its visible escape (`\x1b`, `\x9b`, `\u202e`):
 *
 * - C0 controls but newline and tab (so CR, which overwrites a line, and ESC, which starts every
 *   CSI / OSC sequence: screen clears, window titles, OSC 8 hyperlinks), DEL, and C1 controls
 *   (U+0080–U+009F, among them the one-byte CSI U+009B and ST U+009C);
 * - the bidirectional formatting characters (U+202A–U+202E, U+2066–U+2069, and the marks U+200E,
 *   U+200F, U+061C), which reorder what a reader sees;
 * - the line and paragraph separators U+2028, U+2029.
 *
 * Escape sequences are defused by their introducer: once ESC (or a C1 control) is shown as text,
 * the rest of the sequence (`[2J`, `]8;;http://…`) is plain characters a terminal prints, and the
 * reader sees what was sent. A literal backslash is left as it is: `\x1b` in the output means
 * either the four characters or a control character replaced, never a live control.
 */
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same, with newline and tab: for a value that must stay on its line. */
const CONTROLS_ONE_LINE = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const visible = (c: string): string => {
  const n = c.charCodeAt(0);
  return n < 0x100 ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16).padStart(4, '0')}`;
};

/** Control, bidi and separator characters replaced by their visible escapes; newline and tab kept. */
export function inert(s: string): string {
  return s.replace(CONTROLS, visible);
}

/** As `inert`, and newline, CR and tab too: a value from outside cannot start a line of its own. */
export function inertLine(s: string): string {
  return s.replace(CONTROLS_ONE_LINE, visible);
}

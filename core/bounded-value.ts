/**
 * A value from a target kept as evidence (a Mismatch's expected/actual, a finding's actual) within
 * a budget (issue 31): whatever a target answers inside the byte cap (an 8 MiB list of 200 000
 * items), what is kept, sent from a worker to the main process, diffed and written is a bounded
 * copy: at most MAX_NODES values, MAX_DEPTH levels and MAX_STRING characters per string, the cut
 * parts named. A small value is returned as it is, unless it holds a string that may point into
 * a larger one (ownString).
 */

/** Values (strings, numbers, objects, arrays…) a kept copy holds at most. */
const MAX_NODES = 2000;
/** Levels of nesting a kept copy holds. */
const MAX_DEPTH = 32;
/** Characters of one string kept. */
const MAX_STRING = 4096;

/** V8 makes a slice or a concatenation this long or longer point into the strings it came from. */
const SLICED_MIN = 13;

/**
 * A string of its own, pointing into no other. V8 makes a slice of 13 characters or more, and a
 * concatenation, refer to the string it came from: the 200 characters a finding kept of a 7.5 MB
 * answer kept all 7.5 MB alive as long as the finding was (issue 44: a whole run against a target
 * answering every request so grew past 3.5 GB). Evidence kept beyond the exchange is copied through this.
 */
export function ownString(s: string): string {
  return s.length < SLICED_MIN ? s : Buffer.from(s, 'utf16le').toString('utf16le');
}

/** What a copy has spent so far, whether it had to cut anything, copied a string, or met an object that is not plain data. */
interface Budget { nodes: number; cut: boolean; owned?: boolean; exotic?: boolean }

function copy(v: unknown, depth: number, b: Budget): unknown {
  b.nodes++;
  if (typeof v === 'string') {
    if (v.length < SLICED_MIN) return v;
    b.owned = true;
    if (v.length <= MAX_STRING) return ownString(v);
    b.cut = true;
    return ownString(`${v.slice(0, MAX_STRING)}… (${v.length} chars)`);
  }
  if (v === null || typeof v !== 'object') return v;
  const proto = Object.getPrototypeOf(v);
  if (!Array.isArray(v) && proto !== Object.prototype && proto !== null) b.exotic = true;
  if (depth >= MAX_DEPTH) {
    b.cut = true;
    return `‹nested deeper than ${MAX_DEPTH} levels: not kept›`;
  }
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (const x of v) {
      if (b.nodes >= MAX_NODES) {
        b.cut = true;
        out.push(`‹${v.length - out.length} more items not kept›`);
        break;
      }
      out.push(copy(x, depth + 1, b));
    }
    return out;
  }
  const out: Record<string, unknown> = {};
  let kept = 0;
  const keys = Object.keys(v);
  for (const k of keys) {
    if (b.nodes >= MAX_NODES) {
      b.cut = true;
      out['‹not kept›'] = `${keys.length - kept} more members`;
      break;
    }
    out[k.length > MAX_STRING ? `${k.slice(0, MAX_STRING)}…` : k] = copy((v as Record<string, unknown>)[k], depth + 1, b);
    kept++;
  }
  return out;
}

/**
 * `v` itself when within the budget and holding no string that could point into another, else a
 * copy (cut to the budget, the cuts named in place; its strings of their own: ownString). A value
 * holding objects that are not plain data (a RegExp, a class) is copied only when it must be cut.
 */
export function boundedValue<T>(v: T): T | unknown {
  if (v === null || typeof v !== 'object') return typeof v === 'string' ? copy(v, 0, { nodes: 0, cut: false }) : v;
  const b: Budget = { nodes: 0, cut: false };
  const c = copy(v, 0, b);
  return b.cut || (b.owned && !b.exotic) ? c : v;
}

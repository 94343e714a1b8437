/**
 * A value from a target kept as evidence (a Mismatch's expected/actual, a finding's actual) within
 * a budget (issue 31): whatever a target answers inside the byte cap (an 8 MiB list of 200 000
 * items), what is kept, sent from a worker to the main process, diffed and written is a bounded
 * copy: at most MAX_NODES values, MAX_DEPTH levels and MAX_STRING characters per string, the cut
 * parts named. A small value is returned as it is.
 */

/** Values (strings, numbers, objects, arrays…) a kept copy holds at most. */
const MAX_NODES = 2000;
/** Levels of nesting a kept copy holds. */
const MAX_DEPTH = 32;
/** Characters of one string kept. */
const MAX_STRING = 4096;

/** What a copy has spent so far, and whether it had to cut anything. */
interface Budget { nodes: number; cut: boolean }

function copy(v: unknown, depth: number, b: Budget): unknown {
  b.nodes++;
  if (typeof v === 'string') {
    if (v.length <= MAX_STRING) return v;
    b.cut = true;
    return `${v.slice(0, MAX_STRING)}… (${v.length} chars)`;
  }
  if (v === null || typeof v !== 'object') return v;
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

/** `v` itself when within the budget, else a copy cut to it (the cuts named in place). */
export function boundedValue<T>(v: T): T | unknown {
  if (v === null || typeof v !== 'object') return typeof v === 'string' && v.length > MAX_STRING ? copy(v, 0, { nodes: 0, cut: false }) : v;
  const b: Budget = { nodes: 0, cut: false };
  const c = copy(v, 0, b);
  return b.cut ? c : v;
}

/**
 * Near misses of enumeration values, as a fixed table (no randomness): for every member, its lower
 * case, its capitalised form, and the member padded with a space or a tab before or after it.
 * Spec: Enumerations — "Request filters are strict"; CreatePaymentRequest — "only BKASH or NAGAD",
 * "only the four channel values". A near miss is not the value: a strict check refuses it. Suites
 * loop over these edge tables on every seed before any random case runs.
 */

export interface NearMiss {
  readonly value: string;
  /** The member it misses. */
  readonly of: string;
  readonly why: string;
}

function capitalised(m: string): string {
  return m.charAt(0) + m.slice(1).toLowerCase();
}

/** Every near miss of every member, in a stable order; a form equal to a member is left out. */
export function enumNearMisses(members: readonly string[]): NearMiss[] {
  const out: NearMiss[] = [];
  const seen = new Set<string>(members);
  const add = (value: string, of: string, why: string) => {
    if (seen.has(value)) return;
    seen.add(value);
    out.push({ value, of, why: `${JSON.stringify(value)} is ${of} ${why}` });
  };
  for (const m of members) {
    add(m.toLowerCase(), m, 'in lower case');
    add(capitalised(m), m, 'capitalised');
    add(` ${m}`, m, 'with a leading space');
    add(`${m} `, m, 'with a trailing space');
    add(`\t${m}`, m, 'with a leading tab');
    add(`${m}\t`, m, 'with a trailing tab');
  }
  return out;
}

/**
 * invalidEnumList: the shared builder behind invalidAllowedMethods and invalidAllowedChannels
 * (re-exported only through them).
 *
 * Spec, Errors: `invalid_allowed_method` — "allowed_methods names something other than BKASH or
 * NAGAD"; `invalid_allowed_channel` — "allowed_channels names something other than the four channel
 * values"; `invalid_request` — "body or a parameter is malformed". Per case:
 *
 *   a well-formed array of strings, one of them   -> [specific code] only: the array has the right
 *   not a member (lower/mixed case "bkash",          shape, so only "names something other than"
 *   padded " BKASH", unknown "ROCKET", "")           matches; "malformed" does not
 *   an array with an element that is not a       -> [invalid_request, specific code]: the element is
 *   string (1, true, null, ["BKASH"], {...})          malformed and names no member, both match
 *   not an array at all ("BKASH", "BKASH,NAGAD",  -> [invalid_request, specific code]: same reason
 *   {"BKASH": true}, 1, true)
 *
 * `null` for the whole list is left out (a target may read it as "absent", which is valid), and so
 * are the empty list and repeated members (the spec does not rule on them).
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import type { ErrorCode } from '../../catalogue/error-codes.ts';
import type { CreateRuleId, InvalidCase } from './invalid-case.ts';
import { show, stringOf, UPPER } from './internal/charsets.ts';

export interface EnumListSpec {
  /** The request field, for the `why`. */
  field: 'allowed_methods' | 'allowed_channels';
  /** The members of the enumeration. */
  members: readonly string[];
  /** Look-alike strings that are not members (unknown providers or channels). */
  unknown: readonly string[];
  /** The field's own error code. */
  code: ErrorCode;
  breaks: CreateRuleId;
}

/** Toggle the case of the letters of `s` where the bits of `mask` say so, then force at least one change. */
function recase(s: string, mask: number): string {
  let i = 0;
  const out = s.replace(/[A-Za-z]/g, (ch) => ((mask >> i++ % 31) & 1 ? ch.toLowerCase() : ch));
  return out === s ? s.toLowerCase() : out;
}

export function invalidEnumList(spec: EnumListSpec): Arbitrary<InvalidCase<unknown>> {
  const { field, members, code, breaks } = spec;
  const validList = fc.shuffledSubarray([...members], { minLength: 0 });
  const make = (value: unknown, codes: readonly ErrorCode[], why: string): InvalidCase<unknown> => ({
    value,
    breaks,
    codes,
    why: `${field} ${show(value, 80)} ${why}`,
  });
  /** `list` with `bad` inserted at `at` modulo (length + 1). */
  const insert = (list: unknown[], at: number, bad: unknown) => {
    const i = at % (list.length + 1);
    return [...list.slice(0, i), bad, ...list.slice(i)];
  };

  // a string that is not a member, inside an otherwise valid array: the specific code only
  const notMember: Arbitrary<readonly [string, string]> = fc.oneof(
    fc.constantFrom(...members).map((m) => [m.toLowerCase(), 'names a member in lower case'] as const),
    fc.tuple(fc.constantFrom(...members), fc.nat()).map(([m, mask]) => [recase(m, mask), 'names a member in mixed letter case'] as const),
    fc
      .tuple(fc.constantFrom(...members), fc.constantFrom(' ', '  ', '\t'), fc.boolean())
      .map(([m, ws, before]) => [before ? `${ws}${m}` : `${m}${ws}`, 'names a member padded with whitespace'] as const),
    fc.constantFrom(...spec.unknown, '').map((u) => [u, u === '' ? 'contains an empty string' : 'names an unknown value'] as const),
    stringOf(`${UPPER}_`, 3, 12)
      .filter((u) => !members.includes(u))
      .map((u) => [u, 'names an unknown value'] as const),
  );
  const stringNotMember = fc
    .tuple(validList, fc.nat(), notMember)
    .map(([list, at, [bad, why]]) => make(insert(list, at, bad), [code], why));

  // an element that is not a string: malformed as well
  const nonStringElement = fc
    .tuple(validList, fc.nat(), fc.constantFrom<unknown[]>(1, 0, true, null, [members[0]], { [members[0]!]: true }, { value: members[0] }))
    .map(([list, at, bad]) => make(insert(list, at, bad), ['invalid_request', code], 'has an element that is not a string'));

  // not an array at all: malformed as well
  const notArray = fc
    .constantFrom<unknown[]>(members[0], members.join(','), members[0]!.toLowerCase(), { [members[0]!]: true }, {}, 1, true, '')
    .map((v) => make(
      v,
      ['invalid_request', code],
      `is ${typeof v === 'string' ? 'a string' : typeof v === 'object' ? 'an object' : `a ${typeof v}`}, not an array`,
    ));

  return fc.oneof(
    { weight: 4, arbitrary: stringNotMember },
    { weight: 2, arbitrary: nonStringElement },
    { weight: 1, arbitrary: notArray },
  );
}

/**
 * The oracle's reading of an enum-list field (spec, Errors): `rule` for anything but an array of
 * members; BORDERLINE for an empty list or repeated members, on which the spec does not rule.
 */
export function enumListReading(value: unknown, members: readonly string[], rule: string): string[] {
  if (!Array.isArray(value)) return [rule];
  if (value.some((e) => typeof e !== 'string' || !members.includes(e))) return [rule];
  if (value.length === 0 || new Set(value).size !== value.length) return ['BORDERLINE'];
  return [];
}

/**
 * esid: Limits — "Maximum lengths of description, merchant_reference and external_id: not shown";
 * Errors — "description_too_long 400 description too long", "reference_too_long 400
 * merchant_reference too long", "invalid_external_id 400 external_id invalid or too long".
 * The maxima are unknown, so each is found by bisection (probes from 64 characters, growing ×4 up to
 * 65 536, then halving the gap; at most 20 requests per field) and observed. What is asserted: a
 * value of any length is either accepted and echoed exactly, or rejected with 400 and the field's
 * own code — never another code, never silently cut. A refusal that is about the body's size and not
 * the field's length (400 invalid_request naming no field, and a short valid request padded with
 * JSON whitespace to the same size is refused too) is a body size limit, which the spec leaves open:
 * observed, not judged (docs/rulings.md).
 * Values are ASCII (a character is one code point, one UTF-16 unit, one byte) with no leading or
 * trailing space; external_id uses [A-Za-z0-9_-] and starts with the run's marker when it fits.
 */
import fc from 'fast-check';
import { longString } from '../../service/generators/index.ts';
import type { ApiResponse } from '../../core/client.ts';
import { ruleTest, type RuleContext } from '../../service/harness/worker/rule-test.ts';
import { Mismatch, expectError, short } from '../../service/harness/worker/expect.ts';
import { sampleFor } from '../_shared/seeded-draw.ts';
import { create, createRaw, outcomeOf } from './support.ts';
import { batched } from '../../service/harness/worker/batch.ts';
import { share } from '../../service/harness/worker/depth.ts';
import type { CaseTable } from '../../catalogue/case-table.ts';
import { DESCRIPTION_LENGTH_CASES, EXTERNAL_ID_LENGTH_CASES, LENGTH_CEILING, REFERENCE_LENGTH_CASES } from '../../service/generators/cases/create-limits.ts';

type Field = 'description' | 'merchant_reference' | 'external_id';

const OWN_CODE = {
  description: 'description_too_long',
  merchant_reference: 'reference_too_long',
  external_id: 'invalid_external_id',
} as const;

const CEILING = LENGTH_CEILING;
const MAX_PROBES = 20;

/** A value of exactly `n` characters for `field`, reproducible from the rule's seed except for the marker. */
function valueOf(t: RuleContext, field: Field, n: number): string {
  if (field !== 'external_id') return sampleFor(t, `${field}:${n}`, longString({ minLength: n, maxLength: n }))[0]!;
  const mark = `${t.externalId('len')}_`;
  const fill = sampleFor(t, `${field}:${n}`, longString({ minLength: n, maxLength: n, charset: 'id' }))[0]!;
  if (n >= mark.length + 8) return (mark + fill).slice(0, n);
  // Too short for the marker: the unique tail of fresh run markers (their counter and random part)
  // keeps it unique, also across replays of one seed; metadata still marks the Payment.
  let unique = '';
  for (let i = 0; i < 8 && unique.length < n; i++) unique += t.externalId('len').replace(/[^A-Za-z0-9]/g, '');
  return unique.slice(Math.max(0, unique.length - n));
}

async function send(t: RuleContext, field: Field, n: number): Promise<{ value: string; res: ApiResponse; bytes: number }> {
  const value = valueOf(t, field, n);
  const body: Record<string, unknown> = { amount: '10.00', metadata: t.metadata() };
  if (field !== 'external_id') body.external_id = t.externalId('len');
  body[field] = value;
  return { value, res: await create(t, body), bytes: Buffer.byteLength(JSON.stringify(body)) };
}

/**
 * True when a refusal is the body's size, not the field's length: 400 invalid_request naming no
 * field, and a short valid request padded with JSON whitespace to the same size is refused too.
 */
async function refusedForBodySize(t: RuleContext, field: Field, res: ApiResponse, bytes: number): Promise<boolean> {
  const error = res.json?.error;
  if (res.status !== 400 || error?.code !== 'invalid_request' || error?.param === field) return false;
  const head = JSON.stringify({ amount: '10.00', metadata: t.metadata() }).slice(0, -1);
  const pad = bytes - head.length - 1;
  if (pad < 0) return false;
  const control = await createRaw(t, `${head}${' '.repeat(pad)}}`);
  return control.status === 400;
}

/** Accepted and echoed exactly, or 400 with the field's own code. */
function judge(field: Field, n: number, value: string, res: ApiResponse): void {
  const what = `${field} of ${n} characters`;
  if (res.status === 201) {
    const back = res.json?.[field];
    if (back !== value) {
      const how = typeof back === 'string' ? `${back.length} characters${value.startsWith(back) ? ' (cut short)' : ''}` : short(back);
      throw new Mismatch(`${what} was accepted but came back as ${how}, not as sent`, { [field]: `${n} characters, as sent` }, { [field]: how });
    }
    return;
  }
  expectError(res, 400, [OWN_CODE[field]], `${what} was refused`);
}

/** The body of a *-TOO-LONG-CODE test: fixed lengths, then random ones up to the ceiling, each judged. */
function anyLengthJudged(field: Field, fixed: CaseTable<number>): (t: RuleContext) => Promise<void> {
  return async (t) => {
    const outcomes: Record<number, string> = {};
    const bodySize: Record<number, number> = {};
    const check = async (n: number) => {
      const { value, res, bytes } = await send(t, field, n);
      outcomes[n] = outcomeOf(res);
      if (res.status !== 201 && (await refusedForBodySize(t, field, res, bytes))) {
        bodySize[n] = bytes;
        return;
      }
      judge(field, n, value, res);
    };
    // external_id stays long enough to carry the marker and a unique part (a short one could
    // collide with another Payment and draw a legitimate 409 external_id_conflict); the table starts there too.
    const min = field === 'external_id' ? 48 : 1;
    await t.cases(fixed, check);
    await batched(t, fc.integer({ min, max: CEILING }), check, share(t.runs, 0.1));
    t.observe('outcomes_by_length', outcomes);
    if (Object.keys(bodySize).length) t.observe('refused_for_body_size (length: body bytes; a padded valid body of that size is refused too)', bodySize);
  };
}

/** The body of a *-LENGTH test: the bisection, observed. */
function longestAccepted(field: Field): (t: RuleContext) => Promise<void> {
  return async (t) => {
    let probes = 0;
    let lo = 0; // longest length accepted (0: none yet)
    let hi: number | null = null; // shortest length refused
    const refusals: Record<string, number> = {};
    const probe = async (n: number): Promise<boolean> => {
      probes++;
      const { res } = await send(t, field, n);
      if (res.status === 201) return true;
      const outcome = outcomeOf(res);
      refusals[outcome] = (refusals[outcome] ?? 0) + 1;
      return false;
    };
    // Grow ×4 from 64 until a refusal or the ceiling.
    for (let n = 64; probes < MAX_PROBES; n = Math.min(n * 4, CEILING)) {
      if (await probe(n)) {
        lo = n;
        if (n >= CEILING) break;
      } else {
        hi = n;
        break;
      }
    }
    // Halve the gap between the longest accepted and the shortest refused.
    while (hi !== null && hi - lo > 1 && probes < MAX_PROBES) {
      const mid = Math.floor((lo + hi) / 2);
      if (await probe(mid)) lo = mid;
      else hi = mid;
    }
    t.observe('longest_accepted', lo);
    t.observe('shortest_refused', hi);
    t.observe('exact', hi === null ? `no limit found up to ${CEILING}` : hi - lo === 1);
    t.observe('refusals', refusals);
    t.observe('probes', probes);
  };
}

ruleTest('CREATE-DESCRIPTION-LENGTH', longestAccepted('description'));
ruleTest('CREATE-DESCRIPTION-TOO-LONG-CODE', anyLengthJudged('description', DESCRIPTION_LENGTH_CASES));
ruleTest('CREATE-REFERENCE-LENGTH', longestAccepted('merchant_reference'));
ruleTest('CREATE-REFERENCE-TOO-LONG-CODE', anyLengthJudged('merchant_reference', REFERENCE_LENGTH_CASES));
ruleTest('CREATE-EXTERNAL-ID-LENGTH', longestAccepted('external_id'));
ruleTest('CREATE-EXTERNAL-ID-TOO-LONG-CODE', anyLengthJudged('external_id', EXTERNAL_ID_LENGTH_CASES));

/**
 * What can be checked before anything is judged (`run`, `load`; `proxy`'s upstream: the first step
 * alone, preflightUpstream), through the suite's client
 * (bounded, TLS verified, a model client: 429s waited out, blips retried):
 *
 * 1. The base URL: GET /v1/payments?limit=1 with keys.test. No answer: exit 3 (HPS_ERR_TARGET_*).
 *    An answer that is not the API's (a 404, or not JSON: no /v1 route answers at this base URL)
 *    stops the run with exit 3 (HPS_ERR_TARGET_NOT_API) and says what was tried.
 * 2. Every key of the profile, with the same read, judged by what the profile says it is: the
 *    keys that should work answer 200, the write-only key 403 insufficient_scope, the revoked key
 *    401; a Live key's list shows Live objects, a Test key's Test ones. Two outcomes:
 *    - a key that should work and is refused (401/403) stops the run with exit 2 naming the field
 *      (HPS_ERR_PROFILE_KEY): a wrong or rotated key; nothing the service did can be judged;
 *    - a key that behaves as the spec forbids for what it is declared to be (the revoked key
 *      answered 200, the write-only key could read, a `pt_test_sk_` key's list shows Live objects)
 *      may be the service's defect: it is returned as a finding against the rule that covers it
 *      (AUTH-REVOKED-KEY, AUTH-READ-SCOPE-REQUIRED, ISO-TEST-LIVE-LIST), judged FAIL with that
 *      evidence and "or the profile is wrong: …" (results/verdict/preflight-findings.ts); the run goes on.
 *
 * Bodies quoted in a message are redacted (a target may echo the key) and cut short.
 */
import { Client, TransportError, type ApiResponse } from '../client.ts';
import { clientForProfile } from '../client-for-profile.ts';
import { HarnessError } from '../errors.ts';
import type { KeyContradiction } from '../key-contradiction.ts';
import { profileSecrets, type Profile } from '../profile.ts';
import { redactText, stripUserInfo } from '../redact.ts';

type KeyField = keyof Profile['keys'];

/** What each profile key must get from GET /v1/payments?limit=1 (PROFILE.md, "keys"). */
const EXPECTED: Record<KeyField, { status: 200 | 401 | 403; livemode?: boolean; what: string }> = {
  test: { status: 200, livemode: false, what: 'a Test key with payments:read and payments:write' },
  test_read_only: { status: 200, livemode: false, what: 'a Test key with payments:read' },
  test_write_only: { status: 403, what: 'a Test key with payments:write only (a read answers 403 insufficient_scope)' },
  test_revoked: { status: 401, what: 'a revoked key (answers 401 invalid_api_key)' },
  test_rate_limited: { status: 200, livemode: false, what: 'a Test key with payments:read and payments:write' },
  live: { status: 200, livemode: true, what: 'a Live key with payments:read and payments:write' },
  other_test: { status: 200, livemode: false, what: "another business's Test key" },
  other_live: { status: 200, livemode: true, what: "another business's Live key" },
  live_not_ready: { status: 200, livemode: true, what: 'a Live key (of a business not ready)' },
  live_no_credit: { status: 200, livemode: true, what: 'a Live key (of a business without Service Credit)' },
};

const PROBE = '/v1/payments?limit=1';

type Quote = (res: ApiResponse) => string;

/**
 * `keys: false`: the base URL only (the embedded reference, whose profile it wrote itself, may carry a planted fault about keys).
 * Returns the contradictions a rule judges (empty when every key is what the profile says).
 */
export async function preflight(profile: Profile, o: { keys?: boolean } = {}): Promise<KeyContradiction[]> {
  const client = clientForProfile(profile, { checkKeys: false });
  const target = stripUserInfo(profile.base_url);
  const quote = (res: ApiResponse) => JSON.stringify(redactText(res.text.slice(0, 60), profileSecrets(profile)));
  const first = await firstContact(client, profile.keys.test, target, quote, PROFILE_WORDS);
  if (o.keys === false) return [];
  const problems: string[] = [];
  const findings: KeyContradiction[] = [];
  const fields = (Object.keys(EXPECTED) as KeyField[]).filter((field) => profile.keys[field]);
  // Each key's read is its own: side by side (a target 50 ms away: one round trip for all, not one
  // per key), then judged in the order of the fields, as is a transport failure (the first field's).
  const reads = await Promise.allSettled(fields.map((field) => (field === 'test' ? first : read(client, profile.keys[field]!, target))));
  for (const [i, field] of fields.entries()) {
    const settled = reads[i]!;
    if (settled.status === 'rejected') throw settled.reason;
    const res = settled.value;
    const finding = contradiction(field, res, quote);
    if (finding) { findings.push(finding); continue; }
    const problem = keyProblem(field, res);
    if (problem) problems.push(problem);
  }
  if (problems.length) {
    throw new HarnessError('HPS_ERR_PROFILE_KEY', problems.join('; '), problems);
  }
  return findings;
}

/** How the messages name what was read and with what: `run`'s profile, or the validating proxy's --upstream and the application's key. */
interface Words {
  /** The base URL's setting, named in the /v1 hint. */
  setting: string;
  /** Who adds /v1 to the paths. */
  adder: string;
  /** The key sent, as the messages name it. */
  key: string;
  /** What the base URL is called. */
  noun: string;
}

const PROFILE_WORDS: Words = { setting: 'base_url', adder: 'the suite', key: 'keys.test', noun: 'target' };

/**
 * The first contact, sent once: a target that does not answer it is reported at once (exit 3), as
 * is one answering garbage or where no /v1 route answers like the API.
 */
async function firstContact(client: Client, key: string | undefined, target: string, quote: Quote, w: Words): Promise<ApiResponse> {
  const first = await read(client, key, target, true, w.noun);
  if (first.json === undefined || typeof first.json !== 'object' || first.json === null) {
    if (first.status === 404) throw notApi(target, first, quote, w);
    throw new HarnessError(
      'HPS_ERR_TARGET_GARBAGE',
      `${w.noun} ${target} answered GET /v1/payments with ${first.status} and a body that is not JSON (${quote(first)})`,
    );
  }
  if (first.status === 404) throw notApi(target, first, quote, w);
  return first;
}

/**
 * The validating proxy's upstream (`proxy --upstream`), checked before anything is relayed by the
 * same first read as `run`'s, with the application's key when it is known (HPS_API_KEY), else with
 * none (a 401 in the API's envelope still shows the API answers there). The key refused (401):
 * exit 2 naming HPS_API_KEY, as a refused profile key.
 */
export async function preflightUpstream(baseUrl: string, key: string | undefined): Promise<void> {
  const secrets = key ? [key] : [];
  const client = new Client({ baseUrl, secrets, workingKeys: new Map() });
  const quote = (res: ApiResponse) => JSON.stringify(redactText(res.text.slice(0, 60), secrets));
  const w: Words = { setting: '--upstream', adder: 'the application', key: key ? 'HPS_API_KEY' : 'no key', noun: 'upstream' };
  const first = await firstContact(client, key, stripUserInfo(baseUrl), quote, w);
  if (key && first.status === 401) {
    const problem = keyProblem('test', first, 'HPS_API_KEY', 'the application\'s key, sent through the proxy');
    throw new HarnessError('HPS_ERR_PROFILE_KEY', problem!, [problem!]);
  }
}

/** What a key did that the spec forbids for what it is declared to be, with the rule that judges it; undefined when nothing is. */
function contradiction(field: KeyField, res: ApiResponse, quote: (r: ApiResponse) => string): KeyContradiction | undefined {
  const f = `keys.${field}`;
  const got = `GET ${PROBE} with ${f} answered ${res.status} (${quote(res)})`;
  if (field === 'test_revoked' && res.status !== 401 && res.status < 500) {
    return {
      rule: 'AUTH-REVOKED-KEY',
      field: f,
      message: `${got}: a revoked key was ${res.status < 300 ? 'served' : 'not refused as unknown'}, where the spec answers 401 ` +
        `invalid_api_key`,
      profileWrong: `${f} is not a revoked key of this service`,
    };
  }
  if (field === 'test_write_only' && res.status >= 200 && res.status < 300) {
    return {
      rule: 'AUTH-READ-SCOPE-REQUIRED',
      field: f,
      message: `${got}: a key declared without payments:read listed Payments, where the spec answers 403 insufficient_scope`,
      profileWrong: `${f} has payments:read`,
    };
  }
  const want = EXPECTED[field].livemode;
  if (want === undefined || res.status !== 200) return undefined;
  const modes = new Set((Array.isArray(res.json?.data) ? res.json.data : []).map((p: { livemode?: unknown }) => p?.livemode));
  if (!modes.has(!want)) return undefined;
  const kind = want ? 'Live' : 'Test';
  return {
    rule: 'ISO-TEST-LIVE-LIST', field: f,
    message: `${got}: the list of a ${kind} key (it starts with pt_${want ? 'live' : 'test'}_sk_) shows ${want ? 'Test' : 'Live'} ` +
      `objects (livemode ${!want}), where a ${kind} key's list holds only livemode ${want} Payments`,
    profileWrong: `${f} is not ${EXPECTED[field].what}`,
  };
}

async function read(client: Client, key: string | undefined, target: string, once = false, noun = 'target'): Promise<ApiResponse> {
  try {
    return await client.request({ method: 'GET', path: PROBE, key: key ?? null, noRetry: once });
  } catch (e) {
    if (e instanceof TransportError) {
      const how = e.code === 'HPS_ERR_TARGET_UNREACHABLE' ? 'could not be reached' : 'did not answer usably';
      // A connection failure of a known kind ends the command with its own code (docs/errors.md), its fix in the line.
      if (e.kind) throw new HarnessError(e.kind.code, `${noun} ${target} ${how}: ${e.message} (docs/errors.md: ${e.kind.code})`);
      throw new HarnessError(e.code, `${noun} ${target} ${how}: ${e.message}`);
    }
    throw e;
  }
}

/** No /v1 route answers like the API here: say what was tried and what came back. */
function notApi(target: string, res: ApiResponse, quote: Quote, w: Words): HarnessError {
  const type = res.headers['content-type'] ?? 'no content type';
  const hint = /\/v1\/?$/.test(target) ? ` ${w.setting} ends in /v1, and ${w.adder} adds /v1 itself: drop it from ${w.setting}.` : ` ` +
    `${w.setting} is the part before /v1 (the spec: "All paths … are relative to {base_url}/v1"): check the base path.`;
  return new HarnessError(
    'HPS_ERR_TARGET_NOT_API',
    `no /v1 route answers like the API at ${target}: GET ${target}${PROBE} with ${w.key} answered ${res.status} ` +
      `(${type}, ${quote(res)}): no list of Payments there.${hint}`,
  );
}

/** Why a key's answer shows it is not the key the profile says it is, or undefined; `name` and `what` say whose key it is. */
function keyProblem(field: KeyField, res: ApiResponse, name = `keys.${field}`, what = `the profile says it is ${EXPECTED[field].what}`):
  string | undefined {
  const want = EXPECTED[field];
  const code = typeof res.json?.error?.code === 'string' ? String(res.json.error.code).slice(0, 60) : '';
  const got = `the service answered ${res.status}${code ? ` ${code}` : ''} to GET ${PROBE}`;
  if (res.status !== want.status) {
    if (res.status === 401) return `${name}: ${got}; is the key current? (${what})`;
    if (res.status === 403) return `${name}: ${got}; ${what}: check its scopes`;
    return `${name}: ${got}, where ${want.what} answers ${want.status}: check the profile (if the key is what it says, the ` +
      `service does not treat it as the spec says; remove the field to run the other rules)`;
  }
  return undefined;
}

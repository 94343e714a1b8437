/**
 * JSON Schemas of report.json (catalogue/report/model.ts) and of the fields of certificate.json the
 * renderers read. A report.json from anyone is untrusted input: `report DIR` and
 * `report --compare` validate it against this before rendering (core/report-file.ts), so every
 * value a renderer reads has a type, an enumeration or a format. The report schema is closed
 * (no property it does not name): a field added to report.json gets its entry here, and
 * test/reports/report-schema.test.ts validates the reports each side writes.
 */
const str = { type: 'string', maxLength: 1_000_000 } as const;
const int = { type: 'integer', minimum: 0 } as const;
const num = { type: 'number' } as const;
const bool = { type: 'boolean' } as const;
const dateTime = { type: 'string', format: 'date-time' } as const;
/** Rule ids are catalogue ids in reports the tool writes; from elsewhere any text, escaped where shown. */
const ruleId = { type: 'string', minLength: 1, maxLength: 1000 } as const;
const strings = { type: 'array', items: str } as const;
const level = { enum: ['MUST', 'SHOULD', 'OBSERVE'] } as const;
const status = { enum: ['pass', 'fail', 'warn', 'info', 'skip', 'error', 'flaky'] } as const;
/** Free-form JSON the renderers print as JSON text (observed values, expected/actual). */
const anyJson = {} as const;
const headers = { type: 'object', additionalProperties: str } as const;

const closed = (
  properties: Record<string, unknown>,
  required: string[] = [],
) => ({ type: 'object', additionalProperties: false, required, properties });

const exchange = closed(
  {
    seq: int,
    at: str,
    durationMs: num,
    request: closed({ method: str, path: str, headers, body: str }, ['method', 'path', 'headers']),
    response: closed({ status: int, headers, body: str }, ['status', 'headers', 'body']),
    transportError: str,
    outsideHttp: str,
    retried: str,
  },
  ['seq', 'at', 'durationMs', 'request'],
);

const TRAFFIC_FIELDS = ['throttled', 'throttle_wait_ms', 'pace_wait_ms', 'outage_wait_ms', 'transport_retries', 'status_retries', 'reruns'];
const trafficCounts = closed(Object.fromEntries(TRAFFIC_FIELDS.map((f) => [f, int])), TRAFFIC_FIELDS);

/** Each evidence kind's own fields; `unevaluatedProperties` closes the union. */
const EVIDENCE_KINDS: Record<string, { properties: Record<string, unknown>; required: string[] }> = {
  mismatch: {
    properties: { message: str, expected: anyJson, actual: anyJson, source: closed({ rule: str, test: str }, ['rule', 'test']) },
    required: ['message'],
  },
  exchange: { properties: { exchange, failing: bool }, required: ['exchange'] },
  property: {
    properties: {
      seed: { type: 'integer' },
      runs: int,
      path: str,
      counterexample: str,
      replayOutcome: str,
      shrinks: int,
      shrink_note: str,
    },
    required: ['seed', 'runs', 'counterexample', 'replayOutcome'],
  },
  replay: { properties: { command: str }, required: ['command'] },
  note: { properties: { message: str }, required: ['message'] },
  timeline: {
    properties: {
      event_id: str,
      label: str,
      attempts: {
        type: 'array',
        items: closed(
          { at_ms: num, status: { type: ['integer', 'string'] }, gap_ms: num, expected_gap_ms: num },
          ['at_ms', 'status', 'gap_ms'],
        ),
      },
    },
    required: ['event_id', 'attempts'],
  },
};

const evidence = {
  type: 'object',
  required: ['kind'],
  properties: { kind: { enum: Object.keys(EVIDENCE_KINDS) } },
  allOf: Object.entries(EVIDENCE_KINDS).map(([kind, k]) => ({
    if: { required: ['kind'], properties: { kind: { const: kind } } },
    then: { properties: k.properties, required: k.required },
  })),
  unevaluatedProperties: false,
} as const;

const test = closed(
  { title: str, state: { enum: ['pass', 'fail', 'skip'] }, duration_ms: num, requests: int, cases: int, error: str },
  ['title', 'state', 'duration_ms', 'requests'],
);

const caseRow = closed(
  { n: { type: 'integer', minimum: 1 }, title: str, status: { enum: ['pass', 'fail', 'error', 'skip'] }, reason: str },
  ['n', 'title', 'status'],
);

/** An obligation id as the catalogue spells it (`<clause>#<name>`); from elsewhere any short text, escaped where shown. */
const obligationId = { type: 'string', minLength: 1, maxLength: 300 } as const;
const fieldNames = { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 100 } } as const;
const notTried = closed({ obligation: obligationId, why: str, needs: fieldNames }, ['obligation', 'why']);

const obligationResult = closed(
  {
    id: obligationId,
    clause: { type: 'string', maxLength: 300 },
    status: { enum: ['passed', 'failed', 'not_tried'] },
    rules: { type: 'array', maxItems: 1000, items: ruleId },
    attributed: bool,
    kind: { enum: ['untestable', 'profile', 'not_reached', 'not_proven', 'rule', 'no_rule'] },
    why: str,
    needs: fieldNames,
  },
  ['id', 'clause', 'status', 'rules'],
);

const obligations = closed(
  {
    totals: closed(
      { obligations: int, passed: int, failed: int, not_tried: int, untestable: int },
      ['obligations', 'passed', 'failed', 'not_tried', 'untestable'],
    ),
    entries: { type: 'array', maxItems: 10_000, items: obligationResult },
  },
  ['totals', 'entries'],
);

const rule = closed(
  {
    id: ruleId,
    area: str,
    level,
    status,
    title: str,
    spec: str,
    reason: str,
    ruling: str,
    untestable: bool,
    evidence: { type: 'array', items: evidence },
    observed: { type: 'object' },
    checks: int,
    tests: { type: 'array', items: test },
    cases: { type: 'array', items: caseRow },
    blocked_by: str,
    not_tried: { type: 'array', maxItems: 1000, items: notTried },
  },
  ['id', 'area', 'level', 'status', 'title', 'spec', 'evidence', 'tests'],
);

const seedOutcome = closed(
  {
    seed: { type: 'integer' },
    failed: strings,
    caughtBy: strings,
    caught: bool,
    exitCode: { type: ['integer', 'null'] },
    duration_ms: num,
    problem: str,
    declared: strings,
  },
  ['seed', 'failed', 'caughtBy', 'caught', 'exitCode', 'duration_ms'],
);

const mutation = closed(
  {
    seed: { type: 'integer' },
    seeds: { type: 'array', items: { type: 'integer' } },
    runs: int,
    faults: int,
    caught: int,
    byChance: int,
    score: num,
    duration_ms: num,
    results: {
      type: 'array',
      items: closed(
        {
          fault: str, description: str, control: bool, areas: strings, expected: strings, failed: strings, caughtBy: strings,
          caught: bool, byChance: bool, seeds: { type: 'array', items: seedOutcome }, duration_ms: num, problem: str,
        },
        ['fault', 'description', 'control', 'areas', 'expected', 'failed', 'caughtBy', 'caught', 'byChance', 'seeds', 'duration_ms'],
      ),
    },
    unexercised: strings,
  },
  ['seed', 'seeds', 'runs', 'faults', 'caught', 'byChance', 'score', 'duration_ms', 'results'],
);

const counts = closed(
  { pass: int, fail: int, warn: int, info: int, skip: int, error: int, flaky: int },
  ['pass', 'fail', 'warn', 'info', 'skip', 'error', 'flaky'],
);

const classVerdict = closed(
  {
    id: { type: 'string', minLength: 1, maxLength: 100 },
    status: { enum: ['conformant', 'not_conformant', 'not_tested'] },
    testable: int, ran: int, passed: int, failed: int,
    missing: { type: 'array', items: { type: 'string', maxLength: 100 } },
    reason: str,
    not_tried: { type: 'array', maxItems: 1000, items: closed({ obligation: obligationId, why: str }, ['obligation', 'why']) },
  },
  ['id', 'status', 'testable', 'ran', 'passed', 'failed', 'missing'],
);

export const reportSchema = {
  $id: 'https://hps-conformance.dev/schemas/Report.json',
  ...closed(
    {
      $schema: str,
      tool: closed({ name: str, version: str }, ['name', 'version']),
      side: { enum: ['service', 'receiver', 'client'] },
      target: closed({ base_url: str, embedded_reference: bool }, ['base_url', 'embedded_reference']),
      run_id: str,
      seed: { type: 'integer' },
      runs: int,
      started_at: dateTime,
      finished_at: dateTime,
      duration_ms: num,
      selection: closed({ areas: strings, rules: strings, levels: { type: 'array', items: level } }, ['areas', 'rules']),
      verdict: { enum: ['conformant', 'not_conformant', 'incomplete'] },
      summary: counts,
      must: closed(
        { total: int, testable: int, untestable: int, ran: int, passed: int, failed: int, skipped: int },
        ['total', 'testable', 'untestable', 'ran', 'passed', 'failed', 'skipped'],
      ),
      requests: int,
      rules: { type: 'array', items: rule },
      mutation,
      setup_refusals: {
        type: 'array',
        items: closed(
          { cause: str, areas: strings, request: str, status: int, code: { type: ['string', 'null'] }, allowed: str, rules: strings },
          ['cause', 'areas', 'request', 'status', 'code', 'rules'],
        ),
      },
      stopped: str,
      partial: bool,
      partial_reason: str,
      interrupted: closed({ signal: { enum: ['SIGINT', 'SIGTERM'] }, after_s: { type: 'number', minimum: 0 } }, ['signal', 'after_s']),
      policy: closed({ strict: bool, min_must_coverage: num, failed_because: strings }, ['strict', 'failed_because']),
      incomplete_because: strings,
      command: closed(
        { line: str, exit_code: { type: ['integer', 'null'] }, timed_out: bool, duration_ms: num, output_bytes: int, output_tail: str },
        ['line', 'exit_code', 'timed_out', 'duration_ms', 'output_bytes', 'output_tail'],
      ),
      traffic: closed(
        {
          max_rps: { type: ['number', 'null'] },
          concurrency: int,
          total: trafficCounts,
          areas: { type: 'object', additionalProperties: trafficCounts },
        },
        ['max_rps', 'concurrency', 'total', 'areas'],
      ),
      source_log: closed(
        {
          file: str, bytes: int, sha256: {
            type: 'string',
            pattern: '^[0-9a-f]{64}$',
          }, lines: int, skipped_lines: int, deliveries: int, events: int,
          time_scale: {
            type: 'number',
            exclusiveMinimum: 0,
          }, watched_from: dateTime, watched_until: dateTime, stopped_in_order: bool, restarts: int,
        },
        [
          'file',
          'bytes',
          'sha256',
          'lines',
          'skipped_lines',
          'deliveries',
          'events',
          'time_scale',
          'watched_from',
          'watched_until',
          'stopped_in_order',
          'restarts',
        ],
      ),
      obligations,
      classes: { type: 'array', items: classVerdict, maxItems: 100 },
      gate: closed(
        {
          required: { type: 'array', items: { type: 'string', maxLength: 64 }, maxItems: 100 },
          unmet: {
            type: 'array',
            maxItems: 100,
            items: closed({ id: { type: 'string', maxLength: 64 }, why: { type: 'string', maxLength: 2000 } }, ['id', 'why']),
          },
        },
        ['required', 'unmet'],
      ),
    },
    [
      'tool',
      'target',
      'run_id',
      'seed',
      'runs',
      'started_at',
      'finished_at',
      'duration_ms',
      'selection',
      'verdict',
      'summary',
      'must',
      'requests',
      'rules',
    ],
  ),
} as const;

/**
 * The fields of certificate.json the renderers read, typed; open to others (verify-certificate
 * checks a certificate in full, and its format may grow).
 */
export const certificateReadSchema = {
  $id: 'https://hps-conformance.dev/schemas/CertificateRead.json',
  type: 'object',
  required: [
    'tool',
    'description_document_version',
    'report_sha256',
    'profile_sha256',
    'seed',
    'base_url',
    'verdict',
    'must_coverage',
    'certification',
  ],
  properties: {
    tool: { type: 'object', required: ['name', 'version'], properties: { name: str, version: str } },
    description_document_version: str,
    report_sha256: str,
    profile_sha256: { type: ['string', 'null'], maxLength: 1000 },
    seed: { type: 'integer' },
    base_url: str,
    verdict: { enum: ['conformant', 'not_conformant', 'incomplete'] },
    must_coverage: { type: 'object', required: ['ran', 'testable', 'pct'], properties: { ran: int, testable: int, pct: num } },
    certification: bool,
    not_certification_reason: str,
    certified_classes: strings,
    signature: {
      anyOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['algorithm', 'public_key', 'public_key_sha256', 'value'],
          properties: { algorithm: str, public_key: str, public_key_sha256: str, value: str },
        },
      ],
    },
  },
} as const;

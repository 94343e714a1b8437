/**
 * Nothing dead: knip (knip.jsonc: the entry points are every file started by path) finds no
 * unused file, export or dependency. What it found when the check came in and is not yet settled
 * is listed in PENDING, mostly the re-exports of the folders' index.ts (whether a folder's index is
 * a public surface is the owner's call); empty it as they go. An entry that knip no longer reports
 * fails too, so the list only shrinks.
 */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');
const KNIP = join(ROOT, 'node_modules', 'knip', 'bin', 'knip.js');

const PENDING: readonly string[] = [
  'catalogue/schemas/index.ts exports SCHEMA_BASE',
  'catalogue/schemas/index.ts exports JSON_SCHEMA_DIALECT',
  'catalogue/schemas/index.ts exports ENUMERATIONS',
  'catalogue/schemas/index.ts exports ENUM_SCHEMAS',
  'catalogue/schemas/index.ts exports PaymentStatusSchema',
  'catalogue/schemas/index.ts exports PaymentMethodSchema',
  'catalogue/schemas/index.ts exports CollectionChannelSchema',
  'catalogue/schemas/index.ts exports WebhookEventTypeSchema',
  'catalogue/schemas/index.ts exports strictEnum',
  'catalogue/schemas/index.ts exports PaymentSchema',
  'catalogue/schemas/index.ts exports MetadataSchema',
  'catalogue/schemas/index.ts exports RESPONSE_AMOUNT_PATTERN',
  'catalogue/schemas/index.ts exports PaymentListSchema',
  'catalogue/schemas/index.ts exports ErrorSchema',
  'catalogue/schemas/index.ts exports EventSchema',
  'catalogue/schemas/index.ts exports EVENT_ID_PATTERN',
  'catalogue/schemas/index.ts exports SERVICE_SIGNATURE_PATTERN',
  'catalogue/schemas/index.ts exports WEBHOOK_USER_AGENT',
  'catalogue/schemas/index.ts exports isPaymentEvent',
  'catalogue/schemas/index.ts exports CreatePaymentRequestSchema',
  'catalogue/schemas/index.ts exports RETURN_URL_SCHEME_PATTERN',
  'catalogue/schemas/index.ts exports RETURN_URL_REJECTED_SCHEME_PATTERN',
  'catalogue/schemas/index.ts exports METADATA_MAX_KEYS',
  'catalogue/schemas/index.ts exports METADATA_MAX_KEY_LENGTH',
  'catalogue/schemas/index.ts exports METADATA_MAX_VALUE_LENGTH',
  'catalogue/schemas/index.ts exports formatErrors',
  'catalogue/schemas/index.ts exports formatError',
  'catalogue/schemas/index.ts exports ALWAYS_ACCEPTED_STATUSES',
  'catalogue/schemas/index.ts exports operation',
  'catalogue/schemas/index.ts exports toDocumentSchema',
  'catalogue/schemas/index.ts exports errorCodesFor',
  'catalogue/schemas/index.ts exports API_PREFIX',
  'catalogue/schemas/index.ts exports OPENAPI_VERSION',
  'catalogue/schemas/index.ts exports DOCUMENT_VERSION',
  'catalogue/schemas/index.ts types PaymentStatus',
  'catalogue/schemas/index.ts types WebhookEventType',
  'catalogue/schemas/index.ts types EnumerationName',
  'catalogue/schemas/index.ts types PaymentEvent',
  'catalogue/schemas/index.ts types UnknownEnumValue',
  'catalogue/schemas/index.ts types Scope',
  'catalogue/schemas/index.ts types HttpMethod',
  'catalogue/index.ts exports ERROR_TABLE',
  'catalogue/index.ts exports rulesOfArea',
  'catalogue/index.ts types Area',
  'catalogue/index.ts types ProfileNeed',
  'catalogue/index.ts types ErrorCode',
  'references/service/index.ts exports VARIANTS',
  'references/service/index.ts exports REFERENCE_FAULTS',
  'references/service/index.ts exports FAULT_NAMES',
  'references/service/index.ts exports isFaultName',
  'references/service/index.ts exports toFaultSet',
  'references/service/index.ts exports RETRY_GAPS_MS',
  'references/service/index.ts exports MAX_ATTEMPTS',
  'references/service/index.ts exports computeSignature',
  'references/service/index.ts exports signatureHeader',
  'references/service/index.ts exports verifySignature',
  'references/service/index.ts types ProfileEndpoint',
  'references/service/index.ts types ProfileKeyName',
  'references/service/index.ts types FaultName',
  'references/service/index.ts types AttemptRecord',
  'suites/create/support.ts exports marked',
  'service/sink/index.ts exports DEFAULT_TOLERANCE_SECONDS',
  'service/sink/index.ts exports SinkClientError',
  'service/sink/index.ts exports SinkClosedError',
  'service/sink/index.ts types SignatureVerdict',
  'service/sink/index.ts types SignatureProblem',
  'service/sink/index.ts types ParsedSignatureHeader',
  'service/sink/index.ts types VerifySignatureInput',
  'service/sink/index.ts types ParsedAnswerPlan',
  'service/sink/index.ts types SinkClientOptions',
  'service/sink/index.ts types ClientWaitForOptions',
  'service/sink/index.ts types WaitForOptions',
  'service/sink/index.ts types DeliveryEvent',
  'service/sink/index.ts types DeliveryProblem',
  'service/sink/index.ts types EndpointSummary',
  'service/sink/index.ts types HoldSettlement',
  'service/sink/index.ts types RecordedAnswer',
  'service/sink/index.ts types RedirectHit',
  'service/sink/index.ts types RoutingProblem',
  'service/sink/index.ts types LogLineItem',
  'suites/webhooks/limits.ts exports RESPONSE_TIMEOUT_MS',
  'service/judge/schedule.ts exports TIMESTAMP_TOLERANCE_S',
  'catalogue/schemas/event.ts exports isPaymentEvent',
  'references/service/errors.ts exports apiError',
  'references/service/webhooks/sign.ts exports verifySignature',
  'catalogue/schemas/enums.ts types PaymentStatus',
];

interface KnipIssue { file: string; [kind: string]: unknown }

/** `file kind name` for every finding of knip's JSON report. */
export function findingsOf(json: string): string[] {
  const { issues } = JSON.parse(json) as { issues: KnipIssue[] };
  return issues.flatMap((issue) =>
    Object.entries(issue).flatMap(([kind, value]) => {
      if (kind === 'file' || value === null || typeof value !== 'object') return [];
      const items = (Array.isArray(value) ? value : Object.values(value)) as Array<{ name?: string }>;
      return items.map((item) => `${issue.file} ${kind} ${item.name ?? '?'}`);
    }),
  );
}

/** Runs knip over the repository; its exit status is 1 when it finds anything, so only the report counts. */
function runKnip(): string {
  try {
    return execFileSync(
      process.execPath,
      [KNIP, '--reporter', 'json', '--no-progress'],
      { cwd: ROOT, encoding: 'utf8', maxBuffer: 16 << 20, timeout: 120_000 },
    );
  } catch (e) {
    const out = (e as { stdout?: string }).stdout;
    if (out?.trimStart().startsWith('{')) return out;
    throw e;
  }
}

describe('unused files, exports and dependencies (knip)', () => {
  const findings = findingsOf(runKnip());

  it('finds nothing dead outside the PENDING list', () => {
    expect(findings.filter((f) => !PENDING.includes(f))).toEqual([]);
  });

  it('the PENDING list holds only findings knip still reports (empty it as they are settled)', () => {
    expect(PENDING.filter((f) => !findings.includes(f))).toEqual([]);
  });

  it('reads every kind of finding (the check can fail)', () => {
    const json = JSON.stringify({ issues: [{
      file: 'a.ts',
      files: [{ name: 'a.ts' }],
      exports: [{ name: 'x' }],
      types: [],
      dependencies: {},
    }] });
    expect(findingsOf(json)).toEqual(['a.ts files a.ts', 'a.ts exports x']);
  });
});

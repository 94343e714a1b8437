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
  'schemas/index.ts exports SCHEMA_BASE',
  'schemas/index.ts exports JSON_SCHEMA_DIALECT',
  'schemas/index.ts exports ENUMERATIONS',
  'schemas/index.ts exports ENUM_SCHEMAS',
  'schemas/index.ts exports PaymentStatusSchema',
  'schemas/index.ts exports PaymentMethodSchema',
  'schemas/index.ts exports CollectionChannelSchema',
  'schemas/index.ts exports WebhookEventTypeSchema',
  'schemas/index.ts exports strictEnum',
  'schemas/index.ts exports PaymentSchema',
  'schemas/index.ts exports MetadataSchema',
  'schemas/index.ts exports RESPONSE_AMOUNT_PATTERN',
  'schemas/index.ts exports PaymentListSchema',
  'schemas/index.ts exports ErrorSchema',
  'schemas/index.ts exports EventSchema',
  'schemas/index.ts exports EVENT_ID_PATTERN',
  'schemas/index.ts exports SERVICE_SIGNATURE_PATTERN',
  'schemas/index.ts exports WEBHOOK_USER_AGENT',
  'schemas/index.ts exports isPaymentEvent',
  'schemas/index.ts exports CreatePaymentRequestSchema',
  'schemas/index.ts exports RETURN_URL_SCHEME_PATTERN',
  'schemas/index.ts exports RETURN_URL_REJECTED_SCHEME_PATTERN',
  'schemas/index.ts exports METADATA_MAX_KEYS',
  'schemas/index.ts exports METADATA_MAX_KEY_LENGTH',
  'schemas/index.ts exports METADATA_MAX_VALUE_LENGTH',
  'schemas/index.ts exports formatErrors',
  'schemas/index.ts exports formatError',
  'schemas/index.ts exports ALWAYS_ACCEPTED_STATUSES',
  'schemas/index.ts exports operation',
  'schemas/index.ts exports toDocumentSchema',
  'schemas/index.ts exports errorCodesFor',
  'schemas/index.ts exports API_PREFIX',
  'schemas/index.ts exports OPENAPI_VERSION',
  'schemas/index.ts exports DOCUMENT_VERSION',
  'schemas/index.ts types PaymentStatus',
  'schemas/index.ts types WebhookEventType',
  'schemas/index.ts types EnumerationName',
  'schemas/index.ts types PaymentEvent',
  'schemas/index.ts types UnknownEnumValue',
  'schemas/index.ts types Scope',
  'schemas/index.ts types HttpMethod',
  'catalogue/index.ts exports ERROR_TABLE',
  'catalogue/index.ts exports rulesOfArea',
  'catalogue/index.ts types Area',
  'catalogue/index.ts types ProfileNeed',
  'catalogue/index.ts types ErrorCode',
  'reference/index.ts exports VARIANTS',
  'reference/index.ts exports REFERENCE_FAULTS',
  'reference/index.ts exports FAULT_NAMES',
  'reference/index.ts exports isFaultName',
  'reference/index.ts exports toFaultSet',
  'reference/index.ts exports RETRY_GAPS_MS',
  'reference/index.ts exports MAX_ATTEMPTS',
  'reference/index.ts exports computeSignature',
  'reference/index.ts exports signatureHeader',
  'reference/index.ts exports verifySignature',
  'reference/index.ts types ProfileEndpoint',
  'reference/index.ts types ProfileKeyName',
  'reference/index.ts types FaultName',
  'reference/index.ts types AttemptRecord',
  'reference/index.ts types DeliveryRecord',
  'suites/create/support.ts exports marked',
  'webhook-sink/index.ts exports DEFAULT_TOLERANCE_SECONDS',
  'webhook-sink/index.ts exports SinkClientError',
  'webhook-sink/index.ts exports SinkClosedError',
  'webhook-sink/index.ts types SignatureVerdict',
  'webhook-sink/index.ts types SignatureProblem',
  'webhook-sink/index.ts types ParsedSignatureHeader',
  'webhook-sink/index.ts types VerifySignatureInput',
  'webhook-sink/index.ts types ParsedAnswerPlan',
  'webhook-sink/index.ts types SinkClientOptions',
  'webhook-sink/index.ts types ClientWaitForOptions',
  'webhook-sink/index.ts types WaitForOptions',
  'webhook-sink/index.ts types DeliveryFilter',
  'webhook-sink/index.ts types DeliveryEvent',
  'webhook-sink/index.ts types DeliveryProblem',
  'webhook-sink/index.ts types EndpointSummary',
  'webhook-sink/index.ts types HoldSettlement',
  'webhook-sink/index.ts types RecordedAnswer',
  'webhook-sink/index.ts types RedirectHit',
  'webhook-sink/index.ts types RoutingProblem',
  'webhook-sink/index.ts types SinkStats',
  'webhook-sink/index.ts types LogLineItem',
  'suites/webhooks/limits.ts exports RESPONSE_TIMEOUT_MS',
  'webhook-judge/schedule.ts exports TIMESTAMP_TOLERANCE_S',
  'schemas/event.ts exports isPaymentEvent',
  'reference/errors.ts exports apiError',
  'reference/webhooks/sign.ts exports verifySignature',
  'schemas/enums.ts types PaymentStatus',
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
    return execFileSync(process.execPath, [KNIP, '--reporter', 'json', '--no-progress'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 16 << 20, timeout: 120_000 });
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
    const json = JSON.stringify({ issues: [{ file: 'a.ts', files: [{ name: 'a.ts' }], exports: [{ name: 'x' }], types: [], dependencies: {} }] });
    expect(findingsOf(json)).toEqual(['a.ts files a.ts', 'a.ts exports x']);
  });
});

/**
 * report.json and certificate.json read as untrusted input (`report DIR`, `report --compare`):
 * bounded in size and depth, parsed without quoting the text (core/json-locate.ts), validated
 * against catalogue/schemas/report.ts. Anything wrong is one line naming the file and the JSON path of the
 * first problem (HPS_ERR_REPORT, exit 2), never a stack trace.
 */
import { existsSync } from 'node:fs';
import { readCappedText } from './read-capped.ts';
import { join } from 'node:path';
import type { ErrorObject } from 'ajv';
import { ajv } from '../catalogue/schemas/ajv.ts';
import { certificateReadSchema, reportSchema } from '../catalogue/schemas/report.ts';
import type { CertificateRead, Report } from '../catalogue/report/model.ts';
import { HarnessError } from './errors.ts';
import { inertLine } from './inert.ts';
import { locateJsonError } from './json-locate.ts';

/** Larger than any report a run writes (evidence is capped per rule), small enough to read at once. */
export const REPORT_MAX_BYTES = 256 * 1024 * 1024;
/** Deeper than any report a run writes (bodies are kept as text); the renderers walk values recursively. */
export const REPORT_MAX_DEPTH = 64;

const validateReport = ajv.compile(reportSchema);
const validateCertificate = ajv.compile(certificateReadSchema);

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const step = (key: string) => (/^\d+$/.test(key) ? `[${key}]` : IDENT.test(key) ? `.${key}` : `[${JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}…` : key)}]`);

/** A JSON pointer (`/rules/3/tests/0/state`) as a JSONPath (`$.rules[3].tests[0].state`). */
export function jsonPathOf(pointer: string, extra?: string): string {
  const keys = pointer === '' ? [] : pointer.slice(1).split('/').map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) keys.push(extra);
  return `$${keys.map(step).join('')}`;
}

/** The first schema problem as `$.path: what is wrong` (an unknown property names itself in the path). */
export function firstProblem(errors: readonly ErrorObject[]): string {
  const e = errors.find((x) => x.keyword !== 'if') ?? errors[0];
  if (!e) return '$: does not match the schema';
  const p = e.params as { additionalProperty?: string; unevaluatedProperty?: string; allowedValues?: unknown[] };
  const extra = p.additionalProperty ?? p.unevaluatedProperty;
  if (extra !== undefined) return `${jsonPathOf(e.instancePath, extra)}: is not a field of this file`;
  const allowed = e.keyword === 'enum' && p.allowedValues ? `: one of ${p.allowedValues.map((v) => JSON.stringify(v)).join(', ')}` : '';
  return `${jsonPathOf(e.instancePath)}: ${e.message ?? 'does not match the schema'}${allowed}`;
}

/** The JSONPath of the first value nested deeper than `max` (iterative: a deep file cannot exhaust the stack), or null. */
export function tooDeep(value: unknown, max: number): string | null {
  const stack: Array<{ v: unknown; path: string; depth: number }> = [{ v: value, path: '$', depth: 0 }];
  while (stack.length) {
    const { v, path, depth } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return path;
    for (const [k, x] of Object.entries(v)) stack.push({ v: x, path: `${path}${Array.isArray(v) ? `[${k}]` : step(k)}`, depth: depth + 1 });
  }
  return null;
}

function readJson(file: string, what: string): unknown {
  const text = readCappedText(file, REPORT_MAX_BYTES, what, 'HPS_ERR_REPORT').replace(/^\uFEFF/, '');
  try {
    return JSON.parse(text);
  } catch {
    const at = locateJsonError(text);
    const where = at ? `line ${at.line}, column ${at.column} (in ${at.field}): expected ${at.expected}` : 'cannot be parsed';
    throw new HarnessError('HPS_ERR_REPORT', inertLine(`${what}: ${file} is not valid JSON at ${where}`));
  }
}

function check(file: string, what: string, data: unknown, valid: boolean, errors: readonly ErrorObject[] | null | undefined): void {
  const deep = tooDeep(data, REPORT_MAX_DEPTH);
  if (deep) throw new HarnessError(
    'HPS_ERR_REPORT',
    inertLine(`${what}: ${file} is not a valid ${what}: ${deep}: nested deeper than ${REPORT_MAX_DEPTH} levels`),
  );
  if (!valid) throw new HarnessError('HPS_ERR_REPORT', inertLine(`${what}: ${file} is not a valid ${what}: ${firstProblem(errors ?? [])}`));
}

/** DIR/report.json, validated against its schema: the only way a report from elsewhere reaches a renderer. */
export function readReportFile(dir: string): Report {
  const file = join(dir, 'report.json');
  if (!existsSync(file)) throw new HarnessError('HPS_ERR_REPORT', inertLine(`report: ${file} does not exist`));
  const data = readJson(file, 'report.json');
  check(file, 'report.json', data, tooDeep(data, REPORT_MAX_DEPTH) === null && (validateReport(data) as boolean), validateReport.errors);
  return data as Report;
}

/** DIR/certificate.json when there is one, its rendered fields validated; undefined when absent. */
export function readCertificateFile(dir: string): CertificateRead | undefined {
  const file = join(dir, 'certificate.json');
  if (!existsSync(file)) return undefined;
  const data = readJson(file, 'certificate.json');
  check(
    file,
    'certificate.json',
    data,
    tooDeep(data, REPORT_MAX_DEPTH) === null && (validateCertificate(data) as boolean),
    validateCertificate.errors,
  );
  return data as CertificateRead;
}

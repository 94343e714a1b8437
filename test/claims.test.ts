/**
 * Claims that hold (issue 19): conformance classes cover every MUST rule once; canonical JSON as
 * RFC 8785 writes it; class verdicts and the verdict line; the --require gate; certificates that
 * certify only the classes fully run, and whose every field (and every claim of report.json) is
 * derived again by verify-certificate: the tamper table.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLASSES, CLASS_IDS, RULES, classNeeds, getRule, selectRules, type Rule } from '../catalogue/index.ts';
import { SPEC_FILE, SPEC_SHA256 } from '../catalogue/spec-text.ts';
import { canonicalize } from '../core/canonical-json.ts';
import { EXIT } from '../core/errors.ts';
import type { Certificate, Report, RuleReport } from '../catalogue/report/model.ts';
import { mustCounts } from '../catalogue/report/must-counts.ts';
import { buildCertificate, profileFileHash, sha256 } from '../results/verdict/certificate.ts';
import { classesLine, classVerdicts } from '../results/verdict/classes.ts';
import { exitCodeWithRequire, requiredClasses, unmetRequirements } from '../results/verdict/require.ts';
import { fingerprint, signCertificate } from '../results/verdict/signing.ts';
import { tallyStatuses, verdictOf } from '../results/verdict/summary.ts';
import { verifyCertificate } from '../results/verdict/verify.ts';
import { judgeRun } from '../results/verdict/judge-run.ts';
import { ajv } from '../catalogue/schemas/ajv.ts';
import { reportSchema } from '../catalogue/schemas/report.ts';
import { renderHtml } from '../results/render/html.ts';
import { renderMarkdown } from '../results/render/markdown.ts';
import { renderJunit } from '../results/render/junit.ts';

const validReport = ajv.compile(reportSchema);

describe('conformance classes (catalogue/classes.ts)', () => {
  it('every MUST rule belongs to exactly one class, and a class lists MUST rules only', () => {
    // A class's rules are derived from the entries' `class`: every class id is declared once (a rule
    // naming an undeclared one would fall out of every class), and every MUST rule names one.
    expect(CLASSES.map((c) => c.id)).toEqual([...CLASS_IDS]);
    expect(RULES.filter((r) => r.level === 'MUST' && (r as { class?: string }).class === undefined).map((r) => r.id)).toEqual([]);
    const seen = new Map<string, string[]>();
    for (const c of CLASSES) for (const id of c.rules) seen.set(id, [...(seen.get(id) ?? []), c.id]);
    const must = RULES.filter((r) => r.level === 'MUST').map((r) => r.id);
    expect(must.filter((id) => (seen.get(id) ?? []).length !== 1)).toEqual([]);
    expect([...seen.keys()].filter((id) => getRule(id as Rule['id'])?.level !== 'MUST')).toEqual([]);
    // A merchant-side class holds its side's rules only, a service class none of them.
    for (const c of CLASSES) for (const id of c.rules) expect((getRule(id) as { side?: string }).side, `${c.id} ${id}`).toBe(c.side);
  });

  it('core needs no profile field but the Test key; each other class says what it needs', () => {
    expect(classNeeds(CLASSES.find((c) => c.id === 'core')!)).toEqual([]);
    expect(classNeeds(CLASSES.find((c) => c.id === 'isolation-live')!)).toEqual(['keys.live']);
    expect(classNeeds(CLASSES.find((c) => c.id === 'rate-limiting')!)).toEqual(['keys.test_rate_limited']);
  });

  it('the spec text the catalogue quotes is the copy in docs/, by its SHA-256', () => {
    expect(sha256(readFileSync(join(import.meta.dirname, '..', SPEC_FILE)))).toBe(SPEC_SHA256);
  });
});

describe('canonical JSON (RFC 8785 style)', () => {
  it('sorts members by UTF-16 code units, drops whitespace, writes numbers as ECMAScript does', () => {
    expect(canonicalize({ b: 1, a: [true, null, 'x'], '': 0 })).toBe('{"":0,"a":[true,null,"x"],"b":1}');
    // RFC 8785 §3.2.3's sorting example: by code units, not code points or locale.
    expect(canonicalize({
      '\u20ac': 1,
      '\r': 2,
      '\ud83d\ude00': 3,
      '1': 4,
      '\u00f6': 5,
      '\ufb33': 6,
    })).toBe('{"\\r":2,"1":4,"\u00f6":5,"\u20ac":1,"\ud83d\ude00":3,"\ufb33":6}');
    expect(canonicalize([
      1.0,
      -0,
      1e21,
      1e-7,
      0.1 + 0.2,
      333333333.3333333,
    ])).toBe('[1,0,1e+21,1e-7,0.30000000000000004,333333333.3333333]');
    expect(canonicalize({ u: undefined, s: '\u2028\u0000"' })).toBe('{"s":"\u2028\\u0000\\""}');
    expect(canonicalize({ a: { d: 1, c: 2 } })).toBe(canonicalize(JSON.parse('{ "a" : { "c" : 2, "d" : 1 } }')));
  });
  it('refuses what JSON cannot carry exactly', () => {
    for (const bad of [NaN, Infinity, [undefined], '\ud800', () => 1, 1n]) expect(() => canonicalize(bad), String(bad)).toThrow(TypeError);
  });
});

/** A report as `run` writes it, every rule decided by `status(rule)`. */
function serviceReport(status: (r: Rule) => RuleReport['status'], over: Partial<Report> = {}): Report {
  const rules: RuleReport[] = selectRules({}).map((r) => {
    const s = r.untestable ? 'skip' : status(r);
    const needs = (r.needs ?? []) as readonly string[];
    return {
      id: r.id, area: r.area, level: r.level, status: s, title: r.requirement, spec: r.section, evidence: [],
      ...(r.untestable ? {
        untestable: true,
        reason: 'not exercisable',
      } : s === 'skip' ? { reason: `profile lacks ${needs.join(', ')}` } : {}),
      tests: [{
        title: `${r.id}: t`,
        state: s === 'pass' || s === 'info' ? 'pass' : s === 'fail' ? 'fail' : 'skip',
        duration_ms: 1,
        requests: 1,
      }],
    };
  });
  const report: Report = {
    tool: {
      name: 'hps-conformance',
      version: '0.1.0',
    }, target: { base_url: 'http://127.0.0.1:4010', embedded_reference: false }, run_id: 'r1', seed: 7, runs: 100,
    started_at: '2026-01-01T00:00:00.000Z', finished_at: '2026-01-01T00:01:00.000Z', duration_ms: 60000, selection: {
      areas: [],
      rules: [],
    },
    verdict: verdictOf(rules), summary: tallyStatuses(rules), must: mustCounts(rules), requests: 10, rules, ...over,
  };
  report.classes = classVerdicts(report);
  return report;
}

/** Everything passes (SHOULD and OBSERVE too): a fully configured conformant target. */
const allPass = (r: Rule) => (r.level === 'OBSERVE' ? 'info' : 'pass');
/** One Test key: every rule that needs a profile field is SKIP. */
const urlOnly = (r: Rule) => (r.needs?.length ? 'skip' : allPass(r));

describe('class verdicts, the verdict line and the --require gate', () => {
  it('a URL-only run: core conformant, the rest not tested with the fields they need; only core certified', () => {
    const rep = serviceReport(urlOnly);
    const line = classesLine(rep.classes!);
    expect(line).toMatch(/^conformant: core · not tested: scopes \(keys\.test_revoked, keys\.test_write_only, keys\.test_read_only\), isolation-business \(keys\.other_test\), isolation-live \(keys\.live\)/);
    const cert = buildCertificate(rep, JSON.stringify(rep), null);
    expect(cert.certified_classes).toEqual(['core']);
    expect(cert.certification).toBe(true);
  });

  it('a target that died after the preflight (every rule ERROR) certifies nothing', () => {
    const rep = serviceReport(() => 'error');
    expect(rep.classes!.every((c) => c.status === 'not_tested')).toBe(true);
    const cert = buildCertificate(rep, JSON.stringify(rep), null);
    expect(cert).toMatchObject({ certification: false, certified_classes: [] });
    expect(cert.must_coverage.pct).toBe(0);
  });

  it('a failing rule makes its class not conformant, and a class depending on it is not certified', () => {
    const rep = serviceReport((r) => (r.id === 'HOOK-EVENT-PAID' ? 'fail' : allPass(r)));
    expect(rep.classes!.find((c) => c.id === 'webhooks')).toMatchObject({ status: 'not_conformant', failed: 1 });
    expect(rep.classes!.find((c) => c.id === 'webhooks-schedule')!.status).toBe('conformant');
    const cert = buildCertificate(rep, JSON.stringify(rep), null);
    expect(cert.certified_classes).not.toContain('webhooks');
    expect(cert.certified_classes).not.toContain('webhooks-schedule');
    expect(cert.certified_classes).toContain('core');
  });

  it('a filtered run, a reduced run or a partly run class certifies nothing of it', () => {
    expect(buildCertificate(serviceReport(allPass, { runs: 10 }), '{}', null).certified_classes).toEqual([]);
    const filtered = serviceReport(allPass);
    filtered.rules = filtered.rules.filter((r) => r.area !== 'listing');
    filtered.classes = classVerdicts(filtered);
    expect(filtered.classes.find((c) => c.id === 'core')).toMatchObject({ status: 'not_tested' });
    // As many as core's testable MUST rules in the listing area (9 when this test was written; the area has grown since).
    const listing = (RULES as readonly Rule[]).filter((r) => r.area === 'listing' && r.class === 'core' && !r.untestable).length;
    expect(filtered.classes.find((c) => c.id === 'core')!.reason).toMatch(new RegExp(`^${listing} filtered out; \\d+ of \\d+ ran`));
  });

  it('--require fails only on a required class not conformant or not tested; exit 4, 1 stays a MUST violation', () => {
    const rep = serviceReport(urlOnly);
    expect(unmetRequirements(rep.classes!, ['core'])).toEqual([]);
    const unmet = unmetRequirements(rep.classes!, requiredClasses(['core,isolation-live']));
    expect(unmet).toEqual([{ id: 'isolation-live', why: 'not tested: needs keys.live; 0 of 4 ran' }]);
    expect(exitCodeWithRequire(EXIT.conformant, unmet)).toBe(4);
    expect(exitCodeWithRequire(EXIT.notConformant, unmet)).toBe(1);
    expect(exitCodeWithRequire(EXIT.conformant, [])).toBe(0);
    expect(() => requiredClasses(['cor'])).toThrow(/cor is not a conformance class/);
    expect(() => requiredClasses(['receiver'])).toThrow(/not a conformance class of this command/);
  });

  it('the gate is in report.json (valid by its schema) and in every rendering, met or unmet', () => {
    const rep = serviceReport(urlOnly);
    const judged = judgeRun({
      target: rep.target, ctx: { runId: 'r1', seed: 7, runs: 100, profilePath: null, replayArgs: [] }, startedAt: new Date(0),
      selected: selectRules({}), selection: { areas: [], rules: [] }, tests: [], secrets: [], pace: { maxRps: null, concurrency: 8 },
      policy: {}, required: ['core', 'isolation-live'],
    });
    expect(judged.report.gate).toEqual({ required: ['core', 'isolation-live'], unmet: judged.unmet });
    expect(judged.unmet.map((u) => u.id)).toEqual(['core', 'isolation-live']); // no test ran: nothing tested
    rep.gate = { required: ['core', 'isolation-live'], unmet: unmetRequirements(rep.classes!, ['core', 'isolation-live']) };
    expect(validReport(rep), JSON.stringify(validReport.errors)).toBe(true);
    const line = 'CI gate (--require core, isolation-live): unmet: isolation-live (not tested: needs keys.live; 0 of 4 ran)';
    expect(renderHtml(rep)).toContain(line);
    expect(renderMarkdown(rep)).toContain(line);
    expect(renderJunit(rep)).toContain(line);
    rep.gate = { required: ['core'], unmet: [] };
    expect(renderMarkdown(rep)).toContain('CI gate (--require core): met');
  });
});

/** A value changed the smallest way that changes it. */
function tweak(v: unknown): unknown {
  if (typeof v === 'string') return v.length ? (v.endsWith('0') ? `${v.slice(0, -1)}1` : `${v.slice(0, -1)}0`) : 'x';
  if (typeof v === 'number') return v + 1;
  if (typeof v === 'boolean') return !v;
  if (v === null) return {};
  if (Array.isArray(v)) return v.length ? v.slice(1) : ['core'];
  const o = { ...(v as Record<string, unknown>) };
  const k = Object.keys(o)[0]!;
  o[k] = tweak(o[k]);
  return o;
}

function setPath(obj: Record<string, unknown>, path: string, f: (v: unknown) => unknown): void {
  const keys = path.split('.');
  let cur: Record<string, unknown> = obj;
  for (const k of keys.slice(0, -1)) cur = cur[k] as Record<string, unknown>;
  cur[keys.at(-1)!] = f(cur[keys.at(-1)!]);
}

describe('certificates cannot be made by hand: the tamper table', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const profileText = JSON.stringify({ base_url: 'http://127.0.0.1:4010', keys: { test: 'pt_test_sk_x' } });
  const rep = serviceReport(urlOnly);
  const reportJson = JSON.stringify(rep, null, 2);
  const unsigned = buildCertificate(rep, reportJson, profileFileHash(profileText, {}));
  const signed = signCertificate(unsigned, privateKey);
  const caught = (
    c: Certificate,
    json: string,
    key?: KeyObject,
  ) => verifyCertificate(c, json, { profileText, ...(key ? { signers: [fingerprint(key)] } : {}) })[0];
  const table: string[] = [];

  it('the untouched files verify, signed (with the key) and unsigned', () => {
    expect(verifyCertificate(signed, reportJson, { profileText, signers: [fingerprint(publicKey)] })).toEqual([]);
    expect(verifyCertificate(unsigned, reportJson, { profileText })).toEqual([]);
    expect(caught(unsigned, reportJson, publicKey)).toMatch(/unsigned, and the verifier named its signer/);
    const other = generateKeyPairSync('ed25519').publicKey;
    expect(caught(signed, reportJson, other)).toMatch(/not by a signer named/);
  });

  it('every field of certificate.json edited in turn is caught, signed and unsigned', () => {
    const paths = Object.keys(unsigned).flatMap((k) => (k === 'signature' ? [] : [k]));
    paths.push('counts.fail', 'must.ran', 'must_coverage.pct', 'tool.version', 'selection.areas');
    for (const path of paths) {
      const u = structuredClone(unsigned) as unknown as Record<string, unknown>;
      setPath(u, path, tweak);
      const s = structuredClone(signed) as unknown as Record<string, unknown>;
      setPath(s, path, tweak);
      const byDerivation = caught(u as unknown as Certificate, reportJson);
      const bySignature = caught(s as unknown as Certificate, reportJson, publicKey);
      table.push(`certificate.json ${path.padEnd(28)} unsigned: ${byDerivation ? 'caught' : 'MISSED'} · signed: ${bySignature ? 'caught' : 'MISSED'} (${(byDerivation ?? bySignature ?? '').slice(0, 70)})`);
      expect(byDerivation, `unsigned ${path}`).toBeTruthy();
      expect(bySignature, `signed ${path}`).toBeTruthy();
    }
    for (const sub of ['value', 'public_key', 'public_key_sha256', 'algorithm']) {
      const s = structuredClone(signed);
      (s.signature as unknown as Record<string, unknown>)[sub] = tweak((s.signature as unknown as Record<string, unknown>)[sub]);
      const why = caught(s, reportJson, publicKey);
      table.push(`certificate.json signature.${sub.padEnd(18)} signed: ${why ? 'caught' : 'MISSED'} (${(why ?? '').slice(0, 70)})`);
      expect(why, sub).toBeTruthy();
    }
    const stripped = { ...signed, signature: null };
    expect(caught(stripped, reportJson, publicKey)).toMatch(/unsigned/);
    // issued_at is not derived from the report: an issue time moved (still after the run) is caught
    // by the signature only; one before the run's end, or not a time, by derivation too.
    const moved = (c: Certificate) => ({ ...c, issued_at: '2027-01-01T00:00:00.000Z' });
    expect(caught(moved(unsigned), reportJson)).toBeUndefined();
    expect(caught(moved(signed), reportJson, publicKey)).toMatch(/signature does not match/);
    expect(caught({ ...unsigned, issued_at: '2025-12-31T23:59:59Z' }, reportJson)).toMatch(/issued_at .* is before the run ended/);
    table.push('certificate.json issued_at moved (after the run)  unsigned: passes (not derivable) · signed: caught');
  });

  it('every claim of report.json edited in turn is caught, even with report_sha256 recomputed by the editor', () => {
    const edits: Record<string, (r: Report) => void> = {
      verdict: (r) => { r.verdict = 'not_conformant'; },
      'summary.pass': (r) => { r.summary.pass += 1; },
      'summary.skip': (r) => { r.summary.skip -= 1; },
      'rules[i].status (skip→pass)': (r) => { r.rules.find((x) => x.status === 'skip' && !x.untestable)!.status = 'pass'; },
      'rules[i].status (pass→fail)': (r) => { r.rules.find((x) => x.status === 'pass' && x.level === 'MUST')!.status = 'fail'; },
      'rules[i].level (MUST→OBSERVE)': (r) => { r.rules.find((x) => x.level === 'MUST' && x.status === 'pass')!.level = 'OBSERVE'; },
      runs: (r) => { r.runs = 1000; },
      seed: (r) => { r.seed += 1; },
      'selection.areas': (r) => { r.selection.areas = ['auth']; },
      'must.ran': (r) => { r.must.ran += 5; },
      'must.testable': (r) => { r.must.testable -= 5; },
      'classes[k].status': (r) => { r.classes!.find((c) => c.status === 'not_tested')!.status = 'conformant'; },
      'classes removed': (r) => { delete r.classes; },
      'target.base_url': (r) => { r.target.base_url = 'http://other.example'; },
      'tool.version': (r) => { r.tool.version = '9.9.9'; },
    };
    for (const [name, edit] of Object.entries(edits)) {
      const r = structuredClone(rep);
      edit(r);
      const json = JSON.stringify(r, null, 2);
      // The editor recomputes the hash in the certificate (what issue 19 did by hand).
      const forgedUnsigned = { ...unsigned, report_sha256: sha256(json) };
      const forgedSigned = { ...signed, report_sha256: sha256(json) };
      const byDerivation = caught(forgedUnsigned, json);
      const bySignature = caught(forgedSigned, json, publicKey);
      table.push(`report.json      ${name.padEnd(28)} unsigned: ${byDerivation ? 'caught' : 'MISSED'} · signed: ${bySignature ? 'caught' : 'MISSED'} (${(byDerivation ?? '').slice(0, 70)})`);
      expect(byDerivation, name).toBeTruthy();
      expect(bySignature, name).toBeTruthy();
    }
  });

  it('a consistent forgery (rules, tallies, classes and certificate all rebuilt) is caught only by the signature', () => {
    const r = serviceReport(allPass);
    const json = JSON.stringify(r);
    const forged = buildCertificate(r, json, unsigned.profile_sha256);
    expect(verifyCertificate(forged, json, { profileText })).toEqual([]);
    expect(caught(forged, json, publicKey)).toMatch(/unsigned/);
    const resigned = signCertificate(forged, generateKeyPairSync('ed25519').privateKey);
    expect(caught(resigned, json, publicKey)).toMatch(/not by a signer named/);
    table.push(`consistent forgery, unsigned               without a key: passes (unsigned says so) · --public-key: caught · signed by another key: caught`);
    console.log(`tamper table (${table.length} edits):\n${table.join('\n')}`);
    expect(table.filter((l) => l.includes('MISSED'))).toEqual([]);
  });

  it('a FAIL rule under verdict conformant is caught', () => {
    const r = serviceReport((x) => (x.id === 'CREATE-VALID-ACCEPTED' ? 'fail' : allPass(x)));
    r.verdict = 'conformant';
    const json = JSON.stringify(r);
    expect(verifyCertificate(buildCertificate(r, json, null), json)[0]).toMatch(/verdict conformant, but the rules give not_conformant/);
  });
});

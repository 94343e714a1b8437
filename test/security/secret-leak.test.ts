/**
 * Secrets never leave, in any form (issue 11). A served reference with a planted fault that
 * accepts `Basic base64(key:)` makes AUTH-MALFORMED-KEY fail with a counterexample that embeds the
 * real key; its profile also carries signing secrets, the control token and a password in
 * base_url. A proxy in front of it plays a careless target: it echoes every credential back (a response
 * header, and in 401 bodies the header, its base64 decoded and the key upper-cased), so failing rules'
 * transcripts carry the secrets in many forms. The CLI run is a child process: everything it prints and
 * every file it writes (report dir, its temp dir with the sink log) is searched for each secret and
 * each transform. Zero hits.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { request } from 'undici';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../references/service/index.ts';
import { freePort } from '../../service/harness/main/embedded.ts';
import { moreTransformsOf, readerViews, transformsOf } from './transforms.ts';
import { keyForms } from '../client/rotating-hostile.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const hex = (s: string) => Buffer.from(s).toString('hex');
const BIN = join(import.meta.dirname, '..', '..', 'bin', 'hps-conformance.mjs');
const PASSWORD = 'Pw0rdPlantedInBaseUrl9x7q';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : e.isFile() ? [p] : [];
  });
}

let reference: RunningReference | undefined;
let proxy: Server | undefined;
const work = mkdtempSync(join(tmpdir(), 'hps-secret-leak-'));
afterAll(async () => {
  proxy?.close();
  await reference?.close();
  rmSync(work, { recursive: true, force: true });
});

/** A progress line of a FAIL rule (service/harness/main/progress.ts): `FAIL  RULE-ID — reason`. */
const FAIL_LINE = /(^|\n)\s*FAIL\s+[A-Z][A-Z0-9-]+ —/;
/** Text without ANSI colour codes. */
const plain = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, '');

describe('no secret leaves a run, in any form', () => {
  it('plants keys, signing secrets, the control token and a base_url password; a failing run embeds them; zero hits', async () => {
    const sinkPort = await freePort();
    reference = await startReference({
      port: 0,
      faults: ['basic-scheme-accepted'],
      webhookBaseUrl: `http://127.0.0.1:${sinkPort}`,
      timeScale: 2000,
    });
    const upstream = reference.url;
    let echoed = 0;
    proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => ![
          'host',
          'connection',
          'content-length',
        ].includes(k))) as Record<string, string>;
        const up = await request(
          `${upstream}${req.url}`,
          { method: req.method as 'GET', headers, body: chunks.length ? Buffer.concat(chunks) : undefined },
        );
        let text = await up.body.text();
        const auth = req.headers.authorization ?? '';
        if (up.statusCode === 401 && auth) {
          const token = auth.split(/\s+/).pop() ?? '';
          const body = JSON.parse(text);
          body.error.message = `rejected credential ${auth} (decoded: ${Buffer.from(
            token,
            'base64',
          ).toString('latin1')}; upper: ${token.toUpperCase()})`;
          // Into the error code (printed in FAIL reasons as they happen): every form of the credential.
          const forms = [
            token,
            b64(token),
            Buffer.from(token).toString('base64url'),
            `Basic ${b64(`${token}:`)}`,
            hex(token),
            hex(token).toUpperCase(),
            [...token].reverse().join(''),
          ];
          body.error.code = `bad_${forms.join('_')}`;
          // Forms a reader or a renderer decodes (issue 31): in a value, in a key, in a nested array.
          const decodable = keyForms(token);
          body.error.decodable = { ...decodable, 'json-escaped': '@@ESCAPED@@' };
          body.error[decodable.base32] = [[decodable.fullwidth, decodable['zero-width-between']]];
          text = JSON.stringify(body).replace('@@ESCAPED@@', decodable['json-escaped']);
          echoed++;
        }
        const out: Record<string, string> = {
          'content-type': String(up.headers['content-type'] ?? 'application/json'),
          'x-echo-authorization': auth,
        };
        for (const k of [
          'www-authenticate',
          'request-id',
          'location',
          'retry-after',
        ]) if (up.headers[k] !== undefined) out[k] = String(up.headers[k]);
        res.writeHead(up.statusCode, out).end(text);
      });
    });
    await new Promise<void>((r) => proxy!.listen(0, '127.0.0.1', r));
    const profile = structuredClone(reference.profile) as typeof reference.profile;
    profile.base_url = `http://hpsuser:${PASSWORD}@127.0.0.1:${(proxy.address() as { port: number }).port}`;
    profile.webhooks.listen = `127.0.0.1:${sinkPort}`;
    const profileFile = join(work, 'profile.json');
    writeFileSync(profileFile, JSON.stringify(profile), { mode: 0o600 });
    const out = join(work, 'out');
    const tmp = join(out, 'tmp');
    mkdirSync(tmp, { recursive: true });

    const cli = async (dir: string, interruptAfterS?: number) => {
      // The interrupted run also waits out the retry schedule (about 16 s at this time scale), so it
      // is still running when the first FAIL is printed, however fast the machine.
      const slow = interruptAfterS === undefined ? [] : ['--rule', 'HOOK-RETRY-SCHEDULE'];
      const child = spawn(process.execPath, [
        BIN,
        'run',
        '--profile',
        profileFile,
        '--rule',
        'AUTH-MALFORMED-KEY',
        '--rule',
        'AUTH-UNKNOWN-KEY',
        '--rule',
        'AUTH-MISSING-KEY',
        '--rule',
        'HOOK-SIGNATURE-VALID',
        ...slow,
        '--seed',
        '1',
        '--runs',
        '30',
        '--report',
        join(dir, 'report'),
      ], {
        // Every channel: GitHub annotations on stdout, the step summary file, progress lines on stderr.
        env: {
          ...process.env,
          TMPDIR: tmp,
          TMP: tmp,
          TEMP: tmp,
          GITHUB_ACTIONS: 'true',
          GITHUB_STEP_SUMMARY: join(dir, 'step-summary.md'),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      let ended = false;
      const exited = new Promise<number | null>((r) => child.once('exit', (c) => ((ended = true), r(c))));
      if (interruptAfterS !== undefined) {
        // Interrupted once the first FAIL rule is printed (its reason carries the echoed credential):
        // its own line, not an area's "· 0 FAIL ·" tally, which a loaded machine can print first;
        // read without colour codes (FORCE_COLOR reaches the child when vitest paints its own output).
        const t = Date.now();
        while (!FAIL_LINE.test(plain(stderr)) && !ended && Date.now() - t < 120_000) await new Promise((r) => setTimeout(r, 50));
        await new Promise((r) => setTimeout(r, interruptAfterS * 1000));
        if (!ended) child.kill('SIGINT');
      }
      const code = await exited;
      return { code, stdout, stderr };
    };
    mkdirSync(join(out, 'interrupted'), { recursive: true });
    const { code, stdout, stderr } = await cli(out);
    const cut = await cli(join(out, 'interrupted'), 0.5);
    expect(cut.code, cut.stderr).toBe(130);
    expect(JSON.parse(readFileSync(join(out, 'interrupted', 'report', 'report.json'), 'utf8')).partial).toBe(true);
    // The interrupted run reaches CI as a finished one does: its summary.md appended to the step summary, its annotations printed.
    expect(readFileSync(join(out, 'interrupted', 'step-summary.md'), 'utf8')).toMatch(/PARTIAL|partial/);
    expect(cut.stdout).toMatch(/::(error|warning|notice)/);
    expect(cut.stdout).toMatch(/verdict: PARTIAL \(interrupted by SIGINT/);
    // The progress lines printed the FAIL reasons with the echoed error code (so stderr is not vacuous).
    expect(plain(stderr)).toMatch(FAIL_LINE);

    // The run must really have failed on the planted fault, with a counterexample (else the search proves nothing).
    const report = JSON.parse(readFileSync(join(out, 'report', 'report.json'), 'utf8'));
    const malformed = report.rules.find((r: any) => r.id === 'AUTH-MALFORMED-KEY');
    expect(code, stderr).toBe(1);
    expect(malformed.status).toBe('fail');
    expect(JSON.stringify(malformed)).toMatch(/basic scheme|Basic/);
    expect(echoed, 'the careless target echoed credentials').toBeGreaterThan(3);
    // The transcript of the failing rule holds the echoing answers (so the search below is not vacuous).
    expect(JSON.stringify(report)).toContain('rejected credential');

    const secrets = [...Object.values(profile.keys), ...profile.webhooks.endpoints.map((e) => e.secret), profile.control.token, PASSWORD];
    const files = filesUnder(out);
    const haystacks = [
      { where: 'stdout (summary, annotations)', text: stdout },
      { where: 'stderr (progress)', text: stderr },
      { where: 'stdout, interrupted', text: cut.stdout },
      { where: 'stderr, interrupted', text: cut.stderr },
      ...files.map((f) => ({ where: f.slice(out.length + 1), text: readFileSync(f, 'utf8') })),
    ];
    let transforms = 0;
    const hits: string[] = [];
    const table = new Map<string, Map<string, number>>();
    for (const s of secrets) {
      const ts = [...transformsOf(s), ...moreTransformsOf(s)];
      transforms += ts.length;
      for (const h of haystacks) {
        // Every view a reader or a renderer may decode the text to (issue 31).
        const views = readerViews(h.text).map((v) => [v, v.toLowerCase()] as const);
        const row = table.get(h.where) ?? table.set(h.where, new Map()).get(h.where)!;
        for (const t of ts) {
          const hit = views.some(([v, lower]) => t.test(v, lower));
          row.set(t.name, (row.get(t.name) ?? 0) + (hit ? 1 : 0));
          if (hit) hits.push(`${h.where}: ${t.name} of a secret of ${s.length} chars`);
        }
      }
    }
    const bytes = haystacks.reduce((n, h) => n + h.text.length, 0);
    const shown = haystacks.filter((h) => !h.where.includes('tsx-'));
    const cols = [
      'exact, any case',
      'base64(key)',
      'base64url(key)',
      'base64(key:)',
      'hex, lower case',
      'hex, upper case',
      'reversed',
      'one character removed',
    ];
    console.log([
      'channel × transform (hits over every secret)',
      `${'channel'.padEnd(44)} ${cols.map((c) => c.slice(0, 10).padStart(10)).join(' ')}  all ${transforms / secrets.length}`,
      ...shown.map((h) => `${h.where.slice(0, 44).padEnd(44)} ${cols.map((c) => String(table.get(h.where)?.get(c) ?? 0).padStart(10)).join(' ')}  ${[...(table.get(h.where)?.values() ?? [])].reduce((a, b) => a + b, 0)}`),
    ].join('\n'));
    console.log(`careless target echoed ${echoed} credentials (raw, base64, base64url, Basic, hex both cases, reversed, into error codes); secret search: ${haystacks.length} channels (${files.length} files, ${files.length - shown.length + 4} of them tsx cache files; 4 streams), ${bytes} bytes; ${secrets.length} secrets, ${transforms} transforms tried; hits: ${hits.length}`);
    if (hits.length) console.log(hits.slice(0, 20).join('\n'));
    expect(files.some((f) => f.endsWith('report.html')) && files.some((f) => f.endsWith('junit.xml')) && files.some((f) => f.endsWith('summary.md')) && files.some((f) => f.endsWith('step-summary.md')) && files.some((f) => f.endsWith('results.ndjson'))).toBe(true);
    expect(stdout).toMatch(/::(error|warning|notice)/);
    expect(hits).toEqual([]);
  }, 400_000);

  it('error messages: a profile error and a preflight error quoting a body that echoes the key carry no secret (zero hits)', async () => {
    const dir = join(work, 'errors');
    mkdirSync(dir, { recursive: true });
    const base = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'examples', 'profile.json'), 'utf8'));
    const keys = Object.fromEntries(Object.keys(base.keys).map((
      k,
      i,
    ) => [k, `${k.includes('live') ? 'pt_live_sk_' : 'pt_test_sk_'}Planted${i}K3yValue0123456789abcdef`]));
    const secrets = [...Object.values(keys), 'whsec_PlantedSigningSecret0123456789ab', 'ctl_PlantedControlToken0123456789abcd'];
    const withSecrets = (extra: (p: any) => void) => {
      const p = structuredClone(base);
      p.keys = { ...keys };
      p.webhooks.public_url = 'http://127.0.0.1:4020';
      p.webhooks.endpoints.forEach((e: any) => (e.secret = secrets[secrets.length - 2]));
      p.control.token = secrets[secrets.length - 1];
      extra(p);
      return p;
    };
    // A paste slip: the Live key pasted as a field name (and its field left empty) is a profile error naming the field.
    const slipped = join(dir, 'slipped.json');
    writeFileSync(
      slipped,
      JSON.stringify(withSecrets((p) => { p.keys[keys.other_live!] = ''; delete p.keys.other_live; })),
      { mode: 0o600 },
    );
    // A target answering every request 200 text/plain, echoing the credential in several forms: the preflight quotes the body.
    let echoed = 0;
    const echo = createServer((req, res) => {
      const token = (req.headers.authorization ?? '').split(/\s+/).pop() ?? '';
      echoed++;
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`${token} ${b64(token)} ${hex(token)} ${[...token].reverse().join('')}`);
    });
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    const echoing = join(dir, 'echoing.json');
    writeFileSync(echoing, JSON.stringify(withSecrets((p) => (p.base_url = `http://127.0.0.1:${(echo.address() as { port: number }).port}`))), { mode: 0o600 });
    const cli = async (profileFile: string) => {
      const child = spawn(process.execPath, [BIN, 'run', '--profile', profileFile, '--area', 'auth', '--report', join(dir, 'report')], { stdio: ['ignore', 'pipe', 'pipe'] });
      let text = '';
      child.stdout.on('data', (d) => (text += d));
      child.stderr.on('data', (d) => (text += d));
      const code = await new Promise<number | null>((r) => child.once('exit', r));
      return { code, text };
    };
    const profileError = await cli(slipped);
    const preflightError = await cli(echoing);
    echo.close();
    // Not vacuous: each is the HarnessError line of its kind (exit 2 profile, exit 3 target), the body quoted.
    expect(profileError.code, profileError.text).toBe(2);
    expect(profileError.text).toMatch(/keys\.[^:]*: is not a profile field/);
    expect(preflightError.code, preflightError.text).toBe(3);
    expect(preflightError.text).toMatch(/not JSON \(".+"\)/);
    expect(echoed).toBeGreaterThan(0);
    const hits: string[] = [];
    for (const [where, text] of [['profile error', profileError.text], ['preflight error', preflightError.text]] as const) {
      for (const secret of secrets) for (const t of transformsOf(secret)) if (t.test(text, text.toLowerCase())) hits.push(`${where}: ${t.name}`);
    }
    console.log(`error messages: profile error (exit ${profileError.code}), preflight error quoting an echoing body (exit ${preflightError.code}); ${secrets.length} secrets × transforms; hits: ${hits.length}`);
    expect(hits).toEqual([]);
  }, 120_000);
});

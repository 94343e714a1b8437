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
import { startReference, type RunningReference } from '../../reference/index.ts';
import { freePort } from '../../targets/embedded.ts';
import { transformsOf } from './transforms.ts';

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

describe('no secret leaves a run, in any form', () => {
  it('plants keys, signing secrets, the control token and a base_url password; a failing run embeds them; zero hits', async () => {
    const sinkPort = await freePort();
    reference = await startReference({ port: 0, faults: ['basic-scheme-accepted'], webhookBaseUrl: `http://127.0.0.1:${sinkPort}`, timeScale: 2000 });
    const upstream = reference.url;
    let echoed = 0;
    proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k))) as Record<string, string>;
        const up = await request(`${upstream}${req.url}`, { method: req.method as 'GET', headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
        let text = await up.body.text();
        const auth = req.headers.authorization ?? '';
        if (up.statusCode === 401 && auth) {
          const token = auth.split(/\s+/).pop() ?? '';
          const body = JSON.parse(text);
          body.error.message = `rejected credential ${auth} (decoded: ${Buffer.from(token, 'base64').toString('latin1')}; upper: ${token.toUpperCase()})`;
          text = JSON.stringify(body);
          echoed++;
        }
        const out: Record<string, string> = { 'content-type': String(up.headers['content-type'] ?? 'application/json'), 'x-echo-authorization': auth };
        for (const k of ['www-authenticate', 'request-id', 'location', 'retry-after']) if (up.headers[k] !== undefined) out[k] = String(up.headers[k]);
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

    const child = spawn(process.execPath, [BIN, 'run', '--profile', profileFile, '--rule', 'AUTH-MALFORMED-KEY', '--rule', 'AUTH-UNKNOWN-KEY', '--rule', 'HOOK-SIGNATURE-VALID', '--seed', '1', '--runs', '30', '--report', join(out, 'report')], {
      env: { ...process.env, TMPDIR: tmp, TMP: tmp, TEMP: tmp },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((r) => child.once('exit', r));

    // The run must really have failed on the planted fault, with a counterexample (else the search proves nothing).
    const report = JSON.parse(readFileSync(join(out, 'report', 'report.json'), 'utf8'));
    const malformed = report.rules.find((r: any) => r.id === 'AUTH-MALFORMED-KEY');
    expect(code, stderr).toBe(1);
    expect(malformed.status).toBe('fail');
    expect(JSON.stringify(malformed)).toMatch(/basic scheme|Basic/);
    expect(echoed, 'the careless target echoed credentials').toBeGreaterThan(10);
    // The transcript of the failing rule holds the echoing answers (so the search below is not vacuous).
    expect(JSON.stringify(report)).toContain('rejected credential');

    const secrets = [...Object.values(profile.keys), ...profile.webhooks.endpoints.map((e) => e.secret), profile.control.token, PASSWORD];
    const files = filesUnder(out);
    const haystacks = [
      { where: 'stdout', text: stdout },
      { where: 'stderr', text: stderr },
      ...files.map((f) => ({ where: f.slice(out.length + 1), text: readFileSync(f, 'latin1') })),
    ];
    let transforms = 0;
    const hits: string[] = [];
    for (const s of secrets) {
      const ts = transformsOf(s);
      transforms += ts.length;
      for (const h of haystacks) {
        const lower = h.text.toLowerCase();
        for (const t of ts) if (t.test(h.text, lower)) hits.push(`${h.where}: ${t.name} of a secret of ${s.length} chars`);
      }
    }
    const bytes = haystacks.reduce((n, h) => n + h.text.length, 0);
    const named = files.filter((f) => !f.includes(`${join('tmp', 'tsx-')}`)).map((f) => `${f.slice(out.length + 1)} ${statSync(f).size} B`);
    console.log(`careless target echoed ${echoed} credentials; secret search: ${files.length} files (${named.join(', ')}, + ${files.length - named.length} tsx cache files) and 2 streams (stdout ${stdout.length} B, stderr ${stderr.length} B), ${bytes} bytes in all; ${secrets.length} secrets, ${transforms} transforms tried; hits: ${hits.length}`);
    if (hits.length) console.log(hits.slice(0, 20).join('\n'));
    expect(files.some((f) => f.endsWith('report.html')) && files.some((f) => f.endsWith('junit.xml')) && files.some((f) => f.endsWith('summary.md'))).toBe(true);
    expect(hits).toEqual([]);
  }, 240_000);
});

/**
 * Logs of any size reload (issues 11 and 21): a log over 600 MB (mostly junk lines with 64 KiB bodies,
 * the shape a flooded sink left before junk was kept apart), a few valid deliveries and a torn last
 * line, reloaded by a child process in bounded memory (RSS growth < 200 MB); and the shape a redirect
 * flood left before hits were bounded (strangers' hits with 64 KiB bodies) with one 300 MB line.
 * Prints time and peak RSS.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { signPayload } from '../../service/sink/index.ts';
import { paymentEvent, SECRETS } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'hps-reload-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const VALID = 50;
const TARGET_BYTES = 620 * 1024 * 1024;
/**
 * The child's heap is capped (128 MB of old space): a reload that held what it read dies of it. Its
 * peak is the kernel's VmHWM (reload-child.ts): getrusage's maxRSS, used before, carried the vitest
 * fork's own ~300 MB across exec and read as growth of 217-287 MB in loaded CI rehearsals.
 */
const CHILD = ['--expose-gc', '--max-old-space-size=128', '--import', 'tsx', join(import.meta.dirname, 'reload-child.ts')];

function deliveryLine(seq: number, body: Buffer, problem: string | null, path: string): string {
  const t = Math.floor(Date.now() / 1000);
  const delivery = {
    seq, receivedAt: Date.now(), decidedAt: Date.now(), method: 'POST', url: path, path, httpVersion: '1.1',
    peer: { address: '127.0.0.1', port: 1 }, headers: { 'service-signature': signPayload(SECRETS.testAll, t, body) }, repeatedHeaders: [],
    body: body.toString('base64'), bodySha256: null, bodySize: body.length, bodyTruncated: false,
    event: null, signature: null, signedWithSecretOf: null, endpoint: null, routingProblems: [], attempt: null, planProblem: null,
    problem, answer: { kind: 'status', status: problem ? 400 : 200 },
  };
  return `${JSON.stringify({ line: 'delivery', delivery })}\n`;
}

describe('reloading a large log', () => {
  it('streams a 600+ MB log line by line, skips and counts the torn last line, in bounded memory', () => {
    const file = join(dir, 'big.jsonl');
    const fd = openSync(file, 'w', 0o600);
    const made = performance.now();
    for (let seq = 1; seq <= VALID; seq++) writeSync(fd, deliveryLine(seq, paymentEvent().body, null, '/hooks/test-all'));
    const junk = Buffer.from(deliveryLine(VALID + 1, Buffer.alloc(64 * 1024, 0x61), 'unknown_path', '/junk').repeat(64));
    let junkLines = 0;
    while (statSync(file).size < TARGET_BYTES) {
      writeSync(fd, junk);
      junkLines += 64;
    }
    writeSync(fd, '{"line":"delivery","delivery":{"seq":99999,"torn'); // a crash mid-write
    closeSync(fd);
    const size = statSync(file).size;
    const makeMs = performance.now() - made;

    const out = execFileSync(
      process.execPath,
      [...CHILD, file],
      { encoding: 'utf8', maxBuffer: 1 << 20 },
    );
    const r = JSON.parse(out.trim().split('\n').at(-1)!);
    const mb = (n: number) => (n / 2 ** 20).toFixed(0);
    const growth = (Math.max(r.maxRss, r.sampledPeak) - r.rssBefore) / 2 ** 20;
    console.log(
      `reload: ${mb(size)} MB log (${VALID} deliveries, ${junkLines} junk lines, torn tail; written in ${(makeMs / 1000).toFixed(1)} s) ` +
        `reloaded in ${(r.ms / 1000).toFixed(1)} s; RSS before ${mb(r.rssBefore)} MB, peak ${mb(Math.max(r.maxRss, r.sampledPeak))} MB (growth ${growth.toFixed(0)} MB); stats ${JSON.stringify(r.stats)}; ` +
        `peaks ${JSON.stringify(r.peaks)}`,
    );
    expect(size).toBeGreaterThan(600 * 1024 * 1024);
    expect(r.stats).toMatchObject({ deliveries: VALID, rejected: junkLines, skippedLogLines: 1 });
    expect(r.lastSeq).toBe(VALID);
    expect(growth).toBeLessThan(200);
  }, 180_000);

  it('an older flooded log (strangers\' redirect hits with 64 KiB bodies, one 300 MB line) reloads in bounded memory', () => {
    const file = join(dir, 'hits.jsonl');
    const fd = openSync(file, 'w', 0o600);
    for (let seq = 1; seq <= VALID; seq++) writeSync(fd, deliveryLine(seq, paymentEvent().body, null, '/hooks/test-all'));
    const hit = (n: number) => ({ n, receivedAt: Date.now(), method: 'POST', url: `/_sink/redirect-target/t${n}`, token: `t${n}`, forSeq: null, peer: {}, headers: {}, body: Buffer.alloc(64 * 1024, 0x61).toString('base64'), bodySha256: '', bodySize: 65_536 });
    const hits = Array.from({ length: 64 }, (_, i) => `${JSON.stringify({ line: 'redirect_hit', hit: hit(i + 1) })}\n`).join('');
    let hitLines = 0;
    while (statSync(file).size < 320 * 1024 * 1024) {
      writeSync(fd, hits);
      hitLines += 64;
    }
    const huge = Buffer.alloc(16 * 1024 * 1024, 0x41);
    writeSync(fd, '{"line":"delivery","delivery":{"seq":1,"body":"');
    for (let i = 0; i < 19; i++) writeSync(fd, huge);
    writeSync(fd, '"}}\n');
    closeSync(fd);
    const size = statSync(file).size;
    const out = execFileSync(process.execPath, [...CHILD, file], { encoding: 'utf8', maxBuffer: 1 << 20 });
    const r = JSON.parse(out.trim().split('\n').at(-1)!);
    const growth = (Math.max(r.maxRss, r.sampledPeak) - r.rssBefore) / 2 ** 20;
    console.log(`reload: ${(size / 2 ** 20).toFixed(0)} MB log (${VALID} deliveries, ${hitLines} strangers' hit lines with 64 KiB bodies, one ${(19 * 16)} MB line) reloaded in ${(r.ms / 1000).toFixed(1)} s; RSS growth ${growth.toFixed(0)} MB; stats ${JSON.stringify(r.stats)}`);
    console.log(`reload peaks ${JSON.stringify(r.peaks)}`);
    expect(r.stats).toMatchObject({ deliveries: VALID, redirectHits: 0, skippedLogLines: hitLines + 1 });
    expect(growth).toBeLessThan(200);
  }, 180_000);
});

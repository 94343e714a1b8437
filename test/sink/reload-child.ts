/**
 * Child process of reload-large.test.ts: reloads the log named in argv[2] through startSink and
 * prints one JSON line with the time taken, RSS before and the process's peak RSS: VmHWM, the kernel's
 * high-water mark of this process's own memory. Not getrusage's maxRSS: Linux carries the forking
 * parent's peak across exec into it (a child of a 400 MB process reports maxRSS 404 MB with 39 MB
 * resident), and a vitest fork that ran many files is ~300 MB: two CI rehearsals failed on "growth"
 * of 217-287 MB that was the parent's, while this process's heap peaked at 30 MB.
 */
import { readFileSync } from 'node:fs';
import { startSink } from '../../service/sink/index.ts';
import { ENDPOINTS } from './helpers.ts';

const logFile = process.argv[2]!;
globalThis.gc?.();
const rssBefore = process.memoryUsage().rss;
let sampledPeak = rssBefore;
const peaks = { heapUsed: 0, external: 0, arrayBuffers: 0 };
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  sampledPeak = Math.max(sampledPeak, m.rss);
  for (const k of ['heapUsed', 'external', 'arrayBuffers'] as const) peaks[k] = Math.max(peaks[k], m[k]);
}, 25);
const started = performance.now();
const sink = await startSink({ listen: '127.0.0.1:0', endpoints: ENDPOINTS, logFile, fsync: false });
const ms = performance.now() - started;
clearInterval(sampler);
const stats = sink.stats();
const seqs = sink.deliveries().filter((d) => d.problem === null).map((d) => d.seq);
await sink.close();
/** VmHWM in bytes; 0 where /proc is not there (the sampled peak then stands alone). */
function highWaterMark(): number {
  try {
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return hwm ? Number(hwm[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
const maxRss = highWaterMark();
console.log(JSON.stringify({ ms, rssBefore, sampledPeak, maxRss, stats, lastSeq: seqs.at(-1), peaks }));

/**
 * Child process of reload-large.test.ts: reloads the log named in argv[2] through startSink and
 * prints one JSON line with the time taken, RSS before and the process's peak RSS (maxRSS).
 */
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
const maxRss = process.resourceUsage().maxRSS * 1024;
console.log(JSON.stringify({ ms, rssBefore, sampledPeak, maxRss, stats, lastSeq: seqs.at(-1), peaks }));

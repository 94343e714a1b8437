/**
 * The body of one generator worker thread (see workers.ts): says it is loaded, waits for the
 * common start time, runs its generator (until the window ends or a stop message) and posts the result.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runGenerator, type GeneratorConfig } from './generator.ts';

const port = parentPort!;
/** `{ stop: true }` (the run interrupted): no new request, the result posted with what was done. */
const stop = new AbortController();
port.on('message', (m: { startEpochMs?: number; stop?: boolean }) => {
  if (m.stop) return stop.abort();
  if (m.startEpochMs === undefined) return;
  runGenerator(
    { ...(workerData as GeneratorConfig), startEpochMs: m.startEpochMs },
    (interval) => port.postMessage({ interval }),
    stop.signal,
  ).then(
    (result) => port.postMessage({ ok: true, result }),
    (e: Error) => port.postMessage({ ok: false, message: e.message }),
  );
});
port.postMessage({ ready: true });

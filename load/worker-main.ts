/**
 * The body of one generator worker thread (see workers.ts): says it is loaded, waits for the
 * common start time, runs its generator and posts the result.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runGenerator, type GeneratorConfig } from './generator.ts';

const port = parentPort!;
port.once('message', (m: { startEpochMs: number }) => {
  runGenerator({ ...(workerData as GeneratorConfig), startEpochMs: m.startEpochMs }, (interval) => port.postMessage({ interval })).then(
    (result) => port.postMessage({ ok: true, result }),
    (e: Error) => port.postMessage({ ok: false, message: e.message }),
  );
});
port.postMessage({ ready: true });

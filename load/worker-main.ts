/** The body of one generator worker thread (see workers.ts). */
import { parentPort, workerData } from 'node:worker_threads';
import { runGenerator, type GeneratorConfig } from './generator.ts';

const cfg = workerData as GeneratorConfig;
try {
  parentPort!.postMessage({ ok: true, result: await runGenerator(cfg) });
} catch (e) {
  parentPort!.postMessage({ ok: false, message: (e as Error).message });
}

// Worker-thread side of test/core/target-gate.test.ts: another suite worker that takes the target
// alone, holds it for workerData.holdMs, then opens the gate again, saying each step to its parent.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const gate = await import('../../core/target-gate.ts');
gate.useTargetGate(workerData.buffer);
parentPort.postMessage('waiting');
await gate.holdTargetAlone();
parentPort.postMessage('held');
await new Promise((r) => setTimeout(r, workerData.holdMs));
parentPort.postMessage('releasing');
gate.releaseTarget();

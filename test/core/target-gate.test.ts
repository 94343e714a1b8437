/**
 * core/target-gate.ts across two threads, as the suite workers use it: the holder (a worker thread)
 * waits for the runner's go-ahead and for the requests in flight; while it holds, a request of
 * another thread waits until it lets go.
 */
import { Worker } from 'node:worker_threads';
import { afterEach, expect, test } from 'vitest';
import { newTargetGate, passTargetGate, useTargetGate } from '../../core/target-gate.ts';

const HOLD_MS = 400;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let worker: Worker | undefined;
afterEach(async () => {
  useTargetGate(undefined);
  await worker?.terminate();
});

test('the holder waits for its turn and for requests in flight; a request waits while it holds', async () => {
  const gate = newTargetGate();
  useTargetGate(gate.buffer);
  const inFlight = await passTargetGate(); // a request of this thread on the wire
  const said: string[] = [];
  worker = new Worker(new URL('./target-gate-holder.mjs', import.meta.url), { workerData: { buffer: gate.buffer, holdMs: HOLD_MS } });
  const next = (word: string) => new Promise<void>((done) => worker!.on('message', (m) => m === word && done()));
  worker.on('message', (m: string) => said.push(m));
  const held = next('held');
  await next('waiting');
  await sleep(300);
  expect(said, 'no turn before the runner allows it').not.toContain('held');
  gate.allowHolding();
  await sleep(300);
  expect(said, 'not while a request of another thread is on the wire').not.toContain('held');
  inFlight.leave();
  await held;
  const pass = await passTargetGate();
  expect(said, 'a request of another thread waits until the holder lets go').toContain('releasing');
  expect(pass.waitedMs).toBeGreaterThan(HOLD_MS / 2);
  pass.leave();
}, 60_000);

test('without a gate (a single process, no run), a request goes at once', async () => {
  useTargetGate(undefined);
  const pass = await passTargetGate();
  expect(pass.waitedMs).toBe(0);
  pass.leave();
});

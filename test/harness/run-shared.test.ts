/**
 * runShared (service/harness/worker/run-scoped.ts): what several tests of a run share is made once, and a making
 * that failed is not inherited. A blip that broke the listing batch's creates once made every
 * listing rule ERROR, their reruns included, since they all got the same rejected promise (seen in
 * test/field/blip.test.ts under three concurrent `npm test`s).
 */
import { describe, expect, it } from 'vitest';
import { enterRun, runShared } from '../../service/harness/worker/run-scoped.ts';

describe('runShared', () => {
  it('makes once per run, shares it, and starts afresh with a new run', async () => {
    enterRun(`run-a-${Math.random()}`);
    const shared = runShared<number>();
    let made = 0;
    const make = async () => ++made;
    expect(await shared.get(make)).toBe(1);
    expect(await shared.get(make)).toBe(1);
    enterRun(`run-b-${Math.random()}`);
    expect(await shared.get(make)).toBe(2);
  });

  it('forgets a making that failed: the next use (a rerun after a blip) makes it again', async () => {
    enterRun(`run-c-${Math.random()}`);
    const shared = runShared<string>();
    let calls = 0;
    const make = async () => {
      calls += 1;
      if (calls === 1) throw new Error('UND_ERR_SOCKET: the connection was reset');
      return 'batch';
    };
    await expect(shared.get(make)).rejects.toThrow('reset');
    await expect(shared.get(make)).resolves.toBe('batch');
    expect(calls).toBe(2);
  });
});

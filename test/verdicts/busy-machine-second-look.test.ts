/**
 * A busy machine must not hide a planted fault. A retry late by no more than the suite's own process
 * stood still after it was due is not judged (no false alarm against a target timed by a starved
 * machine), so a stall could hide a sender late by design: on CI, `retry-backoff-doubled` (every gap
 * doubled: the 6 h retry 5.4 s late at time_scale 4000 against a 3 s tolerance) once passed
 * HOOK-RETRY-PUNCTUAL because the process had stalled 2.4 s or more in the 15 s before the retry,
 * wherever in those 15 s. Now only stalls between when the retry was due and when it arrived
 * excuse it, and where they did, a second ladder is looked at.
 *
 * Here the stall is planted where it excuses the first ladder for certain: 3.5 s of blocked loop
 * starting 6 s after the 7th attempt reached /hooks/test-paid (the doubled 6 h retry is due 5.4 s
 * after it and comes 10.8 s after it), in this process, where the embedded reference and sink run.
 */
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { runOnce } from '../../service/mutation/runners.ts';

const block = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end) { /* the loop stands still */ }
};

describe('a stall does not hide a late sender', () => {
  const emit = http.Server.prototype.emit;
  afterEach(() => {
    http.Server.prototype.emit = emit;
  });

  it('retry-backoff-doubled is caught by HOOK-RETRY-PUNCTUAL on a second ladder when a stall excused the first', async () => {
    let paidAttempts = 0;
    let blocked = 0;
    http.Server.prototype.emit = function (this: http.Server, event: string, ...args: unknown[]) {
      const req = args[0] as http.IncomingMessage | undefined;
      if (event === 'request' && req?.url?.startsWith('/hooks/test-paid') && ++paidAttempts === 7) {
        setTimeout(() => {
          block(3_500);
          blocked++;
        }, 6_000);
      }
      return Reflect.apply(emit, this, [event, ...args]) as boolean;
    } as typeof emit;
    const res = await runOnce('session', { rules: ['HOOK-RETRY-PUNCTUAL'], faults: ['retry-backoff-doubled'], seed: 20261121, runs: 25 });
    expect(blocked).toBe(1);
    const rule = res.report?.rules.find((r) => r.id === 'HOOK-RETRY-PUNCTUAL');
    expect(rule?.status, JSON.stringify(rule?.evidence)).toBe('warn');
    expect(Object.keys(rule?.observed ?? {})).toContain('gaps_ms_second_look');
    expect(JSON.stringify(rule?.evidence)).toContain('second ladder');
  }, 150_000);
});

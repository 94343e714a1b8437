/**
 * A retry read before the close of the attempt it follows (merchant/client/identity.ts,
 * letPreviousSettle). A client that gives up on a held read closes that connection and sends the
 * same read again; a busy process may read the retry first. Seen on CI: the retry came 3 ms before
 * the close was seen and was taken for a new read, and the clean example client FAILed
 * CLIENT-RETRY-TRANSIENT. The close is seen within a few turns of the loop; identity waits for them.
 */
import { describe, expect, it } from 'vitest';
import { letPreviousSettle, operationIdentity } from '../../merchant/client/identity.ts';
import type { RecordedRequest } from '../../merchant/client/recorder.ts';

const PATH = '/v1/payments/pay_1';

function held(): RecordedRequest {
  return {
    seq: 1, at: '', arrivedMs: 0, method: 'GET', path: PATH, kind: 'read',
    identity: 'GET /v1/payments/pay_1 @1', body: '', injected: 'timeout',
  };
}

const head = { kind: 'read' as const, method: 'GET', path: PATH, key: undefined, seq: 2 };

describe('a retry read before its attempt\'s close is seen', () => {
  it('is the same operation once the close, seen a turn later, is let in', async () => {
    const first = held();
    // The close of the first connection, handled on the loop's next turn (as the 'close' event would be).
    setImmediate(() => (first.answeredMs = 2187));
    expect(operationIdentity(head, first)).toBe('GET /v1/payments/pay_1 @2'); // taken at once: a new read (the false FAIL)
    await letPreviousSettle(head, first);
    expect(operationIdentity(head, first)).toBe(first.identity);
  });

  it('a read sent while the first is really still in flight stays a read of its own, after a bounded wait', async () => {
    const first = held();
    let turns = 0;
    const count = () => setImmediate(() => (turns++, turns < 100 && count()));
    count();
    await letPreviousSettle(head, first);
    expect(turns).toBeLessThan(10);
    expect(operationIdentity(head, first)).toBe('GET /v1/payments/pay_1 @2');
  });

  it('does not wait for another path or a settled previous request', async () => {
    const other = { ...held(), path: '/v1/payments/pay_2' };
    let turned = false;
    setImmediate(() => (turned = true));
    await letPreviousSettle(head, other);
    await letPreviousSettle(head, { ...held(), answeredMs: 5 });
    await letPreviousSettle(head, undefined);
    expect(turned).toBe(false);
  });
});

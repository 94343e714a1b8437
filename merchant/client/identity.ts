/**
 * What one operation is, from the wire alone (issue: time windows are never identity). A create is
 * its Idempotency-Key (Rules 1: the spec's own identity of a create); a create without one is an
 * operation of its own. A read or a cancel is retried only by the client's very next request: the
 * same method and path right after an attempt that failed (no answer, 429, 5xx), with no other
 * request of that client in between and none while the failed one was in flight. A request on that
 * path after anything else is a new operation, however soon it comes: the next flow's list is never
 * taken for a retry of this one. (An identical read sent right after the failure with nothing in
 * between is its retry: neither the wire nor the service can tell the two apart.)
 */
import { endedInFailure, type RecordedRequest } from './recorder.ts';
import type { OperationKind } from './schedule.ts';

export interface RequestHead {
  kind: OperationKind;
  method: string;
  path: string;
  /** The Idempotency-Key header, if any. */
  key: string | undefined;
  /** The request's number in the client's sequence (names an operation of its own). */
  seq: number;
}

/**
 * The identity of `head`, given the client's previous request (of any kind; undefined for its
 * first). Same identity = the same logical operation (RecordedRequest.identity).
 */
export function operationIdentity(head: RequestHead, previous: RecordedRequest | undefined): string {
  if (head.kind === 'create') return head.key === undefined ? `create without key #${head.seq}` : `create key=${head.key}`;
  const retry = previous !== undefined && previous.method === head.method && previous.path === head.path && previous.answeredMs !== undefined && endedInFailure(previous);
  return retry ? previous.identity : `${head.method} ${head.path} @${head.seq}`;
}

/** Loop turns within which a connection the client closed before it sent the next request is seen closed. */
const CLOSE_SEEN_TURNS = 4;

/**
 * Before `head`'s identity is taken: when the client's previous request, on the same method and
 * path, is still unanswered, a few turns of the event loop (never a time window), so that its end
 * is known if the client ended it first. A client that gives up on an attempt closes its connection
 * before it sends the retry, but a busy process may read the retry before it sees that close: the
 * retry was then taken for a new read sent "while the first was still unanswered" (a false FAIL
 * of CLIENT-RETRY-TRANSIENT on CI, 3 ms apart).
 */
export async function letPreviousSettle(
  head: Pick<RequestHead, 'method' | 'path'>,
  previous: RecordedRequest | undefined,
): Promise<void> {
  if (previous === undefined || previous.method !== head.method || previous.path !== head.path) return;
  for (let turn = 0; turn < CLOSE_SEEN_TURNS; turn++) {
    if (previous.answeredMs !== undefined) return;
    await new Promise<void>((r) => setImmediate(r));
  }
}

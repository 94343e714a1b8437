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

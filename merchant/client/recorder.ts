/** One request the client under test made, as the chaos server saw and answered it. */
import type { Injection, OperationKind } from './schedule.ts';

export interface RecordedRequest {
  seq: number;
  /** Arrival, ISO time. */
  at: string;
  /** ms since the chaos server started, at arrival. */
  arrivedMs: number;
  /** ms since start when the answer was finished (or the connection dropped). */
  answeredMs?: number;
  method: string;
  path: string;
  kind: OperationKind;
  /**
   * Same identity = the same logical operation. A create is identified by its Idempotency-Key (the
   * spec's own identity of a create; a create without one is an operation of its own). A read or a
   * cancel is retried only by the client's very next request on the same method and path after a
   * failed attempt (identity.ts); anything in between makes a later request a new operation.
   */
  identity: string;
  idempotencyKey?: string;
  body: string;
  /** The failure the client met: planted by the chaos server, or (source 'service') the upstream's own answer a proxy relayed. */
  injected?: Injection;
  /** Absent: the chaos server planted the failure; 'service': the service answered so (the proxy relayed it). */
  source?: 'service';
  /**
   * The proxy's upstream itself failed this exchange (refused, reset, timed out, or a 5xx that is not the API's error envelope; or no
   * answer yet when the client gave up): never evidence against the client. The rules it would have exercised name it as not tried.
   */
  upstreamFailure?: string;
  /** Its client had two requests in flight at once (a proxy's traffic): which later read is this one's retry cannot be told from the wire. */
  parallelClient?: boolean;
  /** The Retry-After announced with an injected 429, seconds. */
  retryAfterS?: number;
  /** An injected time-out: the client closed the connection itself after this many ms (absent: it waited out the hold). */
  clientGaveUpAfterMs?: number;
  /** The status the client received (undefined: the connection was dropped). */
  status?: number;
  /** The reference server's status when the request was forwarded. */
  upstreamStatus?: number;
  /** Payment id in the reference server's answer (creates). */
  paymentId?: string;
  errorCode?: string;
  answerBody?: string;
}

export const MAX_RECORDED = 5000;

/** Whether the client saw this attempt fail (no answer, 429 or 5xx): a later request of the same operation may be its retry. */
export function endedInFailure(r: RecordedRequest): boolean {
  return r.status === undefined || r.status === 429 || r.status >= 500 || r.errorCode === 'idempotency_in_progress';
}

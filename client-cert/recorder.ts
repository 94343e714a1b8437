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
  /** Same identity = the same logical operation: create by body, read and cancel by method and path. */
  identity: string;
  idempotencyKey?: string;
  body: string;
  injected?: Injection;
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

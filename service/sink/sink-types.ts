/** The sink's public option and handle types. */
import type { DeliveryFilter } from './delivery-filter.ts';
import type { WaitForOptions } from './delivery-store.ts';
import type { RingLimits } from './rejected-ring.ts';
import type { Delivery, RedirectHit, SinkEndpoint, SinkStats } from './types.ts';
import type { SinkErrorCode } from '../../core/error-codes.ts';

export interface SinkOptions {
  /** "host:port" ("[::1]:0" for IPv6); port 0 picks a free port. */
  listen: string;
  endpoints: SinkEndpoint[];
  /** The JSONL log; created if absent, reloaded if present. */
  logFile: string;
  /** How the target reaches the sink (redirect Locations point there). Default: `url`. */
  publicUrl?: string;
  /** Largest body read, in bytes; larger ones are answered 413. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Deliveries kept (the log's included); past it requests are answered 503 and counted as dropped. Default 20 000. */
  maxDeliveries?: number;
  /** Raw body bytes all stored deliveries may hold together (the log's included); past it, 503 as for maxDeliveries. Default 128 MiB. */
  maxStoredBodyBytes?: number;
  /** How long a `timeout:<N>` answer is held before a 200, in ms. Default 12 000 (past the spec's 10 s). */
  holdMs?: number;
  /** Signature timestamp tolerance in seconds; null or Infinity turns the check off. Default 300. */
  toleranceSeconds?: number | null;
  /**
   * The `/_sink/` query API always requires `Authorization: Bearer <queryToken>`; when absent a random
   * token is generated (RunningSink.queryToken). A host other than loopback needs it given explicitly.
   */
  queryToken?: string;
  /** Limits of the rejected-request rings (rejected-ring.ts). Default 1 000 junk, 5 000 evidence entries, 16 MiB of evidence bodies. */
  rejectedRing?: Partial<RingLimits>;
  /** A request head must arrive within this many ms. Default 10 000. */
  headersTimeoutMs?: number;
  /** A whole request must arrive within this many ms. Default 30 000. */
  requestTimeoutMs?: number;
  /** fdatasync after every log line. Default true. */
  fsync?: boolean;
}

export interface RunningSink {
  /** Where this process reaches the sink, e.g. `http://127.0.0.1:40123`. */
  url: string;
  port: number;
  /** Where the target reaches the sink. */
  publicUrl: string;
  /** The address actually bound, e.g. `0.0.0.0:40123` or `[::1]:40123`. */
  boundAddress: string;
  /** The bearer token of the query API. */
  queryToken: string;
  logFile: string;
  deliveries(filter?: DeliveryFilter): Delivery[];
  /** Resolves with every matching delivery once there are `count`; rejects with SinkWaitTimeoutError. */
  waitFor(filter: DeliveryFilter, options: WaitForOptions): Promise<Delivery[]>;
  redirectHits(): RedirectHit[];
  stats(): SinkStats;
  /** Stops listening and destroys open connections (held answers included); idempotent. */
  close(): Promise<void>;
}

/** Bad SinkOptions or a failed listen: harness trouble, not a conformance failure. */
export class SinkError extends Error {
  constructor(
    readonly code: Extract<SinkErrorCode, 'SINK_BAD_OPTIONS' | 'SINK_LISTEN_FAILED' | 'SINK_LOG'>,
    message: string,
  ) {
    super(message);
    this.name = 'SinkError';
  }
}


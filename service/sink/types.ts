/**
 * The records the sink keeps. A Delivery is one HTTP request that reached the sink outside `/_sink/`,
 * whatever it was (a signed event, junk, a wrong path). The same JSON shape is held in memory, written
 * to the log and served by the query API, so suites in this process and in others read the same thing.
 */
import type { SignatureVerdict } from './verify-signature.ts';

/** One webhook endpoint the sink serves (docs/profile.md `webhooks.endpoints[]`). */
export interface SinkEndpoint {
  /** Request path the target posts to, e.g. `/hooks/test-all`. Must not start with `/_sink`. */
  path: string;
  livemode: boolean;
  /** Subscribed event types, or every type. */
  events: '*' | string[];
  /** The endpoint's signing secret (`whsec_...`). Never logged nor served. */
  secret: string;
  /** Default true. */
  enabled?: boolean;
}

/** An endpoint as recorded with a delivery: everything but the secret. */
export interface EndpointSummary {
  path: string;
  livemode: boolean;
  events: '*' | string[];
  enabled: boolean;
}

/** The fields of the body read when it is a JSON object with a string `id`. */
export interface DeliveryEvent {
  id: string;
  type: string | null;
  livemode: boolean | null;
  /** `data.object.id` (the Payment id of a payment event). */
  paymentId: string | null;
  /** `data.object.metadata.sink` when it is a string. */
  sinkMarker: string | null;
}

/** What the sink answered, decided and logged before anything was sent. */
export type RecordedAnswer =
  | {
      kind: 'status';
      status: number;
      /** Present on 3xx answers: a recorded redirect target that must never be hit. */
      location?: string;
      redirectToken?: string;
    }
  | { kind: 'redirect'; status: 302; location: string; redirectToken: string }
  | { kind: 'timeout'; holdMs: number }
  | { kind: 'reset' }
  /** The peer went away before the request was complete: nothing was answered. */
  | { kind: 'none' };

/** How a held ('timeout') answer ended; appended to the log as its own line. */
export interface HoldSettlement {
  how: 'answered_after_hold' | 'peer_closed' | 'sink_closed';
  /** Epoch ms, sub-ms precision. */
  at: number;
  /** Milliseconds since `receivedAt`: for `peer_closed`, how long the target waited. */
  afterMs: number;
}

export type DeliveryProblem =
  | 'unknown_path'
  | 'method_not_post'
  | 'body_too_large'
  | 'request_aborted'
  | 'bad_signature'
  | 'body_not_json'
  | 'body_not_event'
  | 'log_write_failed';

export type RoutingProblem = 'endpoint_disabled' | 'livemode_mismatch' | 'event_type_not_subscribed';

export interface Delivery {
  /** 1, 2, 3 ... in arrival order, continued across restarts on the same log. */
  seq: number;
  /** Arrival of the request head, epoch ms with sub-ms precision (performance.timeOrigin + now()). */
  receivedAt: number;
  /** How late the sink's event loop ran around the arrival, ms, when it did (receivedAt may be that much late). */
  loopLagMs?: number;
  /** The longest stall of the sink's event loop over the 15 s before the arrival, ms, when there was one. */
  stallMs?: number;
  /**
   * The longest stalls of the sink's event loop over the 15 s before the arrival: [start, end] ms
   * relative to `receivedAt` (≤ 0), oldest first, at most 32, when there were any (stall-spans.ts).
   */
  stalls?: [number, number][];
  /** When more stalls than `stalls` holds: a length none of those left out exceeded, ms. */
  stallFloorMs?: number;
  /** When the answer was decided (the whole body had arrived), same clock. */
  decidedAt: number;
  method: string;
  /** The request target as sent. */
  url: string;
  /** `url` without its query. */
  path: string;
  httpVersion: string;
  peer: { address: string | null; port: number | null };
  /** As received, names lowercased; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  /** Names of headers that appeared more than once. */
  repeatedHeaders: string[];
  /** The raw body, base64 ('' when it was over the cap). */
  body: string;
  /** sha256 hex of the raw body; null when it was over the cap. */
  bodySha256: string | null;
  /** Bytes received (for an oversize body, at least this many were sent). */
  bodySize: number;
  bodyTruncated: boolean;
  event: DeliveryEvent | null;
  /** Checked with the matched endpoint's secret; null when no endpoint matched. */
  signature: SignatureVerdict | null;
  /** When the signature did not match: the endpoint whose secret it does match, if any. */
  signedWithSecretOf: string | null;
  endpoint: EndpointSummary | null;
  /** Deliveries the target should not have made to this endpoint (recorded, answered as planned). */
  routingProblems: RoutingProblem[];
  /** 1-based count of requests carrying this event id at this path, this one included. */
  attempt: number | null;
  /** A `metadata.sink` marker that could not be parsed (answered as a plain 200). */
  planProblem: string | null;
  /** Why the sink rejected the request; null when it was a verified event. */
  problem: DeliveryProblem | null;
  answer: RecordedAnswer;
  /** Only for held answers, once they ended. */
  settled?: HoldSettlement;
}

/**
 * A request to a `/_sink/redirect-target/<token>` with a token the sink handed out: a target that
 * followed a redirect. Hits with other tokens are only counted (SinkStats.unknownRedirectHits).
 */
export interface RedirectHit {
  /** 1, 2, 3 ... */
  n: number;
  receivedAt: number;
  method: string;
  url: string;
  token: string;
  /** The delivery whose answer carried this token. */
  forSeq: number | null;
  /** The path of that delivery's endpoint (hits are kept in a ring per endpoint). */
  endpoint?: string;
  peer: { address: string | null; port: number | null };
  headers: Record<string, string>;
  /** Always '' (bodies are not kept); the size and sha256 of what was sent are. */
  body: string;
  bodySha256: string;
  bodySize: number;
}

export interface SinkStats {
  deliveries: number;
  /** Valid deliveries refused with 503 because `maxDeliveries` or `maxStoredBodyBytes` was reached (not logged). */
  dropped: number;
  /** Rejected requests (unknown path, not POST, bad signature, oversize, aborted): counted apart, kept in a capped ring, not logged. */
  rejected: number;
  /** Hits on a redirect target with a token the sink handed out (the last 100 per endpoint are kept). */
  redirectHits: number;
  /** Hits on a redirect target with any other token: a stranger's, counted only (not stored, not logged). */
  unknownRedirectHits: number;
  /** Connections whose bytes were not HTTP the server could parse (not logged). */
  clientErrors: number;
  /** Lines of a reloaded log that could not be read (e.g. torn by a crash). */
  skippedLogLines: number;
}

/**
 * The sink's request handling, apart from listening (server.ts): for every request it records the
 * raw bytes, headers and arrival time, verifies the signature with the endpoint's secret (spec
 * "Signature"), and answers as the Payment's `metadata.sink` marker asks (answer-plan.ts). Valid
 * deliveries are appended to the log before the answer and count toward the cap; rejected requests
 * go to the store's capped ring and never block a valid delivery. `/_sink/` is the query API, and
 * the redirect targets (a hit with a token of ours is kept bodiless in a ring per endpoint; any other is counted only).
 * Whatever arrives, it answers or drops the connection; it never throws.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { parseAnswerPlan, plannedAnswer, type PlannedAnswer } from './answer-plan.ts';
import type { DeliveryLog, LoadedLog } from './delivery-log.ts';
import { startLoopLagMonitor } from './loop-lag.ts';
import { DeliveryStore, isRejected } from './delivery-store.ts';
import { readEventFields } from './event-fields.ts';
import {
  nowMs, pathOf, queryOf, readBody, readHead, resetSocket, sha256, summary, type BodyResult, type RequestHead,
} from './http-helpers.ts';
import type { ResolvedOptions } from './options.ts';
import { handleQueryRequest, QUERY_PREFIX } from './query-api.ts';
import { sendJson } from './send-json.ts';
import type {
  Delivery,
  DeliveryEvent,
  DeliveryProblem,
  HoldSettlement,
  RecordedAnswer,
  RedirectHit,
  RoutingProblem,
  SinkEndpoint,
  SinkStats,
} from './types.ts';
import { verifySignature, type SignatureVerdict } from './verify-signature.ts';

export const REDIRECT_TARGET_PREFIX = `${QUERY_PREFIX}/redirect-target/`;
/** A redirect hit's body is read (to say its size and sha256) up to this, never kept. */
const MAX_REDIRECT_HIT_BODY = 64 * 1024;
const OVERSIZE_DRAIN_MS = 2_000;

/** What the body and the signature say about one request. */
interface Inspection {
  endpoint: SinkEndpoint | undefined;
  raw: Buffer;
  event: DeliveryEvent | null;
  marker: unknown;
  bodyProblem: DeliveryProblem | null;
  signature: SignatureVerdict | null;
  signedWithSecretOf: string | null;
}

export class SinkApp {
  readonly server: Server;
  readonly store: DeliveryStore;
  private readonly counters = { dropped: 0, clientErrors: 0 };
  private readonly holds = new Set<() => void>(); // each settles one held answer as 'sink_closed'
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly skippedLogLines: number;
  private readonly lag = startLoopLagMonitor();
  /** Where the target reaches the sink (set once listening). */
  publicUrl = '';

  constructor(private readonly config: ResolvedOptions, private readonly log: DeliveryLog, loaded: LoadedLog) {
    this.store = new DeliveryStore(loaded, config.rejectedRing);
    this.skippedLogLines = loaded.skippedLines;
    this.server = createServer(
      {
        headersTimeout: config.headersTimeoutMs,
        requestTimeout: config.requestTimeoutMs,
        connectionsCheckingInterval: Math.min(1_000, config.headersTimeoutMs),
      },
      (req, res) => {
        try {
          this.onRequest(req, res);
        } catch {
          res.destroy();
        }
      },
    );
    this.server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => this.onClientError(error, socket));
    // After listening, server errors concern single connections; they are handled per request.
    this.server.on('error', () => {});
  }

  stats(): SinkStats {
    return {
      deliveries: this.store.size,
      dropped: this.counters.dropped,
      rejected: this.store.rejectedCount,
      redirectHits: this.store.hitCounts.known,
      unknownRedirectHits: this.store.hitCounts.unknown,
      clientErrors: this.counters.clientErrors,
      skippedLogLines: this.skippedLogLines,
    };
  }

  /** Settles held answers, cancels timers, rejects waiters, closes every connection and the log. */
  async close(): Promise<void> {
    this.lag.stop();
    for (const settleClosed of [...this.holds]) settleClosed();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.store.rejectWaiters();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
    this.appendQuietly({ line: 'stop', at: nowMs(), pid: process.pid });
    this.log.close();
  }

  appendQuietly(line: Parameters<DeliveryLog['append']>[0]): void {
    try {
      this.log.append(line);
    } catch {
      // The record stays in memory; nothing more can be done about a failing disk here.
    }
  }

  private onClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    this.counters.clientErrors++;
    const status =
      error.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 ' +
        'Request Timeout' : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const receivedAt = nowMs();
    const path = pathOf(req.url ?? '');
    req.on('error', () => {});
    res.on('error', () => {});
    // The sink's own query path (polled by the rules) needs no clock record: only deliveries are timed.
    if (path === QUERY_PREFIX || path.startsWith(`${QUERY_PREFIX}/`)) return this.onSinkPath(req, res, readHead(req, receivedAt));
    const loop = { lagMs: this.lag.recentLagMs(), stallMs: this.lag.stallMs(), stallSpans: this.lag.stallSpans() };
    const head = readHead(req, receivedAt, loop);
    readBody(req, this.config.maxBodyBytes)
      .then((body) => this.onDelivery(req, res, head, body))
      .catch(() => res.destroy());
  }

  private onSinkPath(req: IncomingMessage, res: ServerResponse, head: RequestHead): void {
    if (head.path.startsWith(REDIRECT_TARGET_PREFIX)) {
      readBody(req, MAX_REDIRECT_HIT_BODY)
        .then((body) => this.onRedirectHit(head, body, res))
        .catch(() => res.destroy());
      return;
    }
    const query = new URLSearchParams(queryOf(head.url));
    handleQueryRequest(req, res, head.path, query, { store: this.store, stats: () => this.stats(), queryToken: this.config.queryToken });
  }

  private inspect(req: IncomingMessage, head: RequestHead, bodyResult: BodyResult): Inspection {
    const endpoint = this.config.endpoints.get(head.path);
    const raw = bodyResult.kind === 'too_large' ? Buffer.alloc(0) : bodyResult.body;
    const out: Inspection = { endpoint, raw, event: null, marker: undefined, bodyProblem: null, signature: null, signedWithSecretOf: null };
    if (bodyResult.kind !== 'complete') return out;
    // What the body says, read whatever the path (a misrouted event is evidence too).
    const fields = readEventFields(raw);
    if (fields.ok) {
      // The plan this endpoint answers by: its own `sink@<path>` marker, else the Payment's `sink`.
      out.marker = fields.markerAt(head.path);
      out.event = { ...fields.event, sinkMarker: typeof out.marker === 'string' ? out.marker : null };
    } else {
      out.bodyProblem = fields.problem;
    }
    // Signature (spec "Signature" 1-2): the endpoint's secret over `<t>.` + the raw bytes.
    if (endpoint) {
      const header = req.headers['service-signature'];
      out.signature = verifySignature({
        header: typeof header === 'string' ? header : undefined,
        rawBody: raw,
        secrets: [endpoint.secret],
        toleranceSeconds: this.config.toleranceSeconds,
      });
      if (out.signature.problem === 'no_matching_signature') out.signedWithSecretOf = this.secretOwner(header, raw, endpoint);
    }
    return out;
  }

  /** Rejections come first, in this order; a rejected request is answered 400 (413 when oversize). */
  private problemOf(head: RequestHead, bodyResult: BodyResult, x: Inspection): DeliveryProblem | null {
    if (bodyResult.kind === 'aborted') return 'request_aborted';
    if (bodyResult.kind === 'too_large') return 'body_too_large';
    if (!x.endpoint) return 'unknown_path';
    if (head.method !== 'POST') return 'method_not_post';
    if (x.signature?.valid !== true) return 'bad_signature';
    return x.bodyProblem;
  }

  private routingOf(
    x: Inspection,
    attempt: number | null,
  ): { planned: PlannedAnswer; planProblem: string | null; routingProblems: RoutingProblem[] } {
    const routingProblems: RoutingProblem[] = [];
    if (!x.endpoint || !x.event || attempt === null) return {
      planned: { kind: 'status', status: 200 },
      planProblem: null,
      routingProblems,
    };
    const plan = parseAnswerPlan(x.marker);
    if (x.endpoint.enabled === false) routingProblems.push('endpoint_disabled');
    if (x.event.livemode !== x.endpoint.livemode) routingProblems.push('livemode_mismatch');
    if (x.endpoint.events !== '*' && !x.endpoint.events.includes(x.event.type ?? '')) routingProblems.push('event_type_not_subscribed');
    return { planned: plannedAnswer(plan.plan, attempt), planProblem: plan.problem ?? null, routingProblems };
  }

  private onDelivery(req: IncomingMessage, res: ServerResponse, head: RequestHead, bodyResult: BodyResult): void {
    const x = this.inspect(req, head, bodyResult);
    const problem = this.problemOf(head, bodyResult, x);
    // Only valid deliveries count toward the caps: junk never blocks the target's real traffic.
    if ((problem === null || !isRejectedProblem(problem)) && this.storeIsFull(x.raw.length)) {
      this.counters.dropped++;
      sendJson(res, 503, { error: 'sink_full' }, { connection: 'close' });
      return;
    }
    const attempt = x.event ? this.store.nextAttempt(head.path, x.event.id) : null;
    const { planned, planProblem, routingProblems } = this.routingOf(x, attempt);
    const answer: RecordedAnswer =
      problem === 'request_aborted' ? { kind: 'none' } : problem === 'body_too_large' ? {
        kind: 'status',
        status: 413,
      } : problem !== null ? { kind: 'status', status: 400 } : this.recordedAnswer(planned);
    const delivery: Delivery = {
      seq: this.store.nextSeq(),
      ...head,
      decidedAt: nowMs(),
      body: x.raw.toString('base64'),
      bodySha256: bodyResult.kind === 'too_large' ? null : sha256(x.raw),
      bodySize: bodyResult.kind === 'too_large' ? bodyResult.size : x.raw.length,
      bodyTruncated: bodyResult.kind === 'too_large',
      event: x.event,
      signature: x.signature,
      signedWithSecretOf: x.signedWithSecretOf,
      endpoint: x.endpoint ? summary(x.endpoint) : null,
      routingProblems,
      attempt,
      planProblem,
      problem,
      answer,
    };
    this.admit(delivery);
    this.perform(req, res, delivery, delivery.answer);
  }

  /** Whether one more valid delivery with this many body bytes would pass a cap (count or body bytes). */
  private storeIsFull(bodyBytes: number): boolean {
    return this.store.size >= this.config.maxDeliveries || this.store.storedBodyBytes + bodyBytes > this.config.maxStoredBodyBytes;
  }

  /** A valid delivery reaches the disk before its answer leaves; a rejected one only the ring. */
  private admit(delivery: Delivery): void {
    if (!isRejected(delivery)) {
      try {
        this.log.append({ line: 'delivery', delivery });
      } catch {
        delivery.problem = 'log_write_failed';
        delivery.answer = { kind: 'status', status: 500 };
      }
    }
    this.store.add(delivery);
  }

  private perform(req: IncomingMessage, res: ServerResponse, delivery: Delivery, answer: RecordedAnswer): void {
    const seqHeader = { 'x-sink-seq': delivery.seq };
    switch (answer.kind) {
      case 'none':
        res.destroy();
        return;
      case 'reset':
        resetSocket(req.socket);
        return;
      case 'redirect':
        sendJson(res, answer.status, { redirect: answer.location, seq: delivery.seq }, { ...seqHeader, location: answer.location });
        return;
      case 'timeout':
        this.hold(req, res, delivery, answer.holdMs);
        return;
      case 'status':
        this.answerStatus(req, res, delivery, answer.status, answer.location);
    }
  }

  private answerStatus(req: IncomingMessage, res: ServerResponse, delivery: Delivery, status: number, location: string | undefined): void {
    const headers: Record<string, string | number> = { 'x-sink-seq': delivery.seq };
    if (location) headers.location = location;
    if (delivery.problem === 'body_too_large') headers.connection = 'close';
    const body =
      delivery.problem !== null ? {
        error: delivery.problem,
        seq: delivery.seq,
      } : status < 300 ? { received: true, seq: delivery.seq } : { planned_failure: status, seq: delivery.seq };
    sendJson(res, status, body, headers);
    if (delivery.problem === 'body_too_large') this.drainThenDrop(req);
  }

  // `timeout:<N>`: say nothing for holdMs (past the target's 10 s time-out), then 200 if the
  // connection is still open. How it ended is appended to the log.
  private hold(req: IncomingMessage, res: ServerResponse, delivery: Delivery, holdMs: number): void {
    let done = false;
    const settle = (how: HoldSettlement['how']): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      this.holds.delete(onSinkClose);
      const at = nowMs();
      const settled: HoldSettlement = { how, at, afterMs: at - delivery.receivedAt };
      this.store.settle(delivery.seq, settled);
      this.appendQuietly({ line: 'settled', seq: delivery.seq, settled });
    };
    const onSinkClose = () => settle('sink_closed');
    const timer = setTimeout(() => {
      if (res.destroyed || req.socket.destroyed) return settle('peer_closed');
      settle('answered_after_hold');
      sendJson(res, 200, { received: true, seq: delivery.seq, heldMs: holdMs }, { 'x-sink-seq': delivery.seq });
    }, holdMs);
    this.holds.add(onSinkClose);
    res.on('close', () => {
      if (!res.writableFinished) settle('peer_closed');
    });
  }

  // A token the sink never handed out is a stranger's: counted, answered 404, nothing stored or
  // logged. A token of ours: the hit joins its endpoint's ring (redirect-hits.ts), body not kept.
  private onRedirectHit(head: RequestHead, bodyResult: BodyResult, res: ServerResponse): void {
    const close: Record<string, string> = bodyResult.kind === 'complete' ? {} : { connection: 'close' };
    const token = head.path.slice(REDIRECT_TARGET_PREFIX.length);
    const owner = this.store.tokenOwner(token);
    if (!owner) {
      this.store.addRedirectHit(null);
      sendJson(res, 404, { error: 'unknown_redirect_token' }, close);
      return;
    }
    const raw = bodyResult.kind === 'too_large' ? Buffer.alloc(0) : bodyResult.body;
    const hit: RedirectHit = {
      n: this.store.nextHitNumber(),
      receivedAt: head.receivedAt,
      method: head.method,
      url: head.url,
      token,
      forSeq: owner.seq,
      endpoint: owner.path,
      peer: head.peer,
      headers: head.headers,
      body: '',
      bodySha256: sha256(raw),
      bodySize: bodyResult.kind === 'too_large' ? bodyResult.size : raw.length,
    };
    if (this.store.shouldLogHit(token)) this.appendQuietly({ line: 'redirect_hit', hit });
    this.store.addRedirectHit(hit);
    sendJson(res, 200, { recorded: true, n: hit.n }, close);
  }

  private recordedAnswer(planned: PlannedAnswer): RecordedAnswer {
    switch (planned.kind) {
      case 'status':
        // A planned 3xx also points somewhere recorded: following it is detectable too.
        if (planned.status >= 300 && planned.status < 400) return { kind: 'status', status: planned.status, ...this.redirectTarget() };
        return { kind: 'status', status: planned.status };
      case 'redirect':
        return { kind: 'redirect', status: 302, ...this.redirectTarget() };
      case 'timeout':
        return { kind: 'timeout', holdMs: this.config.holdMs };
      case 'slow':
        // Held like a time-out, but answered 200 inside the target's 10 s: it must count as acknowledged.
        return { kind: 'timeout', holdMs: planned.holdMs };
      case 'reset':
        return { kind: 'reset' };
    }
  }

  private redirectTarget(): { location: string; redirectToken: string } {
    const redirectToken = randomBytes(12).toString('base64url');
    return { location: `${this.publicUrl}${REDIRECT_TARGET_PREFIX}${redirectToken}`, redirectToken };
  }

  /** The path of another endpoint whose secret the signature matches (wrong-secret evidence). */
  private secretOwner(header: string | string[] | undefined, raw: Buffer, endpoint: SinkEndpoint): string | null {
    if (typeof header !== 'string') return null;
    for (const other of this.config.endpoints.values()) {
      if (other === endpoint || other.secret === endpoint.secret) continue;
      if (verifySignature({ header, rawBody: raw, secrets: [other.secret], toleranceSeconds: null }).valid) return other.path;
    }
    return null;
  }

  private drainThenDrop(req: IncomingMessage): void {
    req.resume();
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      req.socket.destroy();
    }, OVERSIZE_DRAIN_MS);
    this.timers.add(timer);
    req.socket.once('close', () => {
      clearTimeout(timer);
      this.timers.delete(timer);
    });
  }
}

function isRejectedProblem(problem: DeliveryProblem): boolean {
  return isRejected({ problem } as Delivery);
}

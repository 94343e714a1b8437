/**
 * What the validating proxy keeps of the traffic, bounded for a day of it: per client (an API
 * key, by fingerprint) the previous request, so a read's retry is told from the wire alone
 * (identity.ts); a log for the client judge that holds the first ALWAYS_KEPT requests and, after
 * them, only what the client rules judge (a failure, a POST answered 4xx, a create without a key,
 * the attempts of an operation already kept and the request right after a failure), at most
 * MAX_KEPT; and per ambient rule (core/ambient.ts) how many answers it checked and its first findings.
 */
import type { RuleId } from '../../catalogue/index.ts';
import type { Finding } from '../../core/evidence.ts';
import { operationIdentity } from './identity.ts';
import { JUDGE_QUEUE_BOUND, type QueueBound } from './judge-queue.ts';
import type { ProxyMetrics } from './proxy-metrics.ts';
import { endedInFailure, type RecordedRequest } from './recorder.ts';
import type { OperationKind } from './schedule.ts';

const ALWAYS_KEPT = 1000;
export const MAX_KEPT = 20_000;
const FINDINGS_KEPT_PER_RULE = 10;
/** Distinct clients followed one by one; beyond, the rest share one state (their reads' retries are then not provable and not failed). */
const MAX_CLIENTS = 1000;

interface ClientState {
  previous?: RecordedRequest;
  /** Keep this client's next request (it follows a failure: a retry, or what came instead). */
  keepNext: boolean;
  inFlight: number;
  /** Two of its requests were ever in flight at once. */
  parallel: boolean;
}

export class ProxyTraffic {
  readonly log: RecordedRequest[] = [];
  exchanges = 0;
  /** Requests the client judge did not keep (MAX_KEPT reached). */
  dropped = 0;
  /** Exchanges the upstream answered (in the API's envelope when a 5xx), and those it failed itself, with the first of them. */
  answered = 0;
  upstreamFailed = 0;
  firstUpstreamFailure?: string;
  /** Exchanges the judging queue turned away (judge-queue.ts): the response rules did not see them. Set at the end. */
  notJudged: { count: number; bound: QueueBound } = { count: 0, bound: JUDGE_QUEUE_BOUND };
  readonly checked = new Map<RuleId, number>();
  readonly findings = new Map<RuleId, { count: number; kept: Finding[] }>();
  /** `--metrics-port` / `--out prometheus-rw`: counted as they settle. */
  metrics?: ProxyMetrics;
  private readonly clients = new Map<string, ClientState>();
  private readonly kept = new Set<RecordedRequest>();
  private readonly keptIdentities = new Set<string>();

  get clientCount(): number {
    return this.clients.size;
  }

  get findingCount(): number {
    let n = 0;
    for (const f of this.findings.values()) n += f.count;
    return n;
  }

  /** The identity of a request arriving from `client`, from that client's previous request. */
  identify(client: string, head: { kind: OperationKind; method: string; path: string; key: string | undefined; seq: number }): string {
    const state = this.stateOf(client);
    const own = operationIdentity(head, state.previous);
    // A retry takes its operation's identity as it is (already this client's); a new operation is named with its client.
    return own === state.previous?.identity ? own : `${client} ${own}`;
  }

  /** The client's previous request (identity.ts: letPreviousSettle). */
  previousOf(client: string): RecordedRequest | undefined {
    return this.stateOf(client).previous;
  }

  /** A request has arrived (its answer is filled in later): it becomes the client's previous one. */
  arrived(client: string, rec: RecordedRequest): void {
    this.exchanges++;
    const state = this.stateOf(client);
    state.previous = rec;
    state.inFlight++;
    if (state.inFlight > 1) state.parallel = true;
    if (this.log.length < ALWAYS_KEPT || state.keepNext || this.keptIdentities.has(rec.identity)) this.keep(rec);
    state.keepNext = false;
  }

  /** Its answer (or the lack of one) is known: kept when a client rule judges it. */
  settled(client: string, rec: RecordedRequest): void {
    const state = this.stateOf(client);
    state.inFlight = Math.max(0, state.inFlight - 1);
    this.metrics?.settled(rec);
    if (rec.upstreamFailure === undefined) this.answered++;
    else if (this.upstreamFailed++ === 0) this.firstUpstreamFailure = `#${rec.seq} ${rec.method} ${rec.path.split('?')[0]}: ` +
      rec.upstreamFailure;
    if (state.parallel) rec.parallelClient = true;
    const judged = endedInFailure(rec) || (rec.method === 'POST' && rec.status !== undefined && rec.status >= 400 && rec.status < 500) || (rec.kind === 'create' && rec.idempotencyKey === undefined);
    if (!judged) return;
    this.keep(rec);
    if (endedInFailure(rec)) state.keepNext = true;
  }

  ambient(rule: RuleId, finding?: Finding): void {
    if (!finding) return void this.checked.set(rule, (this.checked.get(rule) ?? 0) + 1);
    const f = this.findings.get(rule) ?? { count: 0, kept: [] };
    f.count++;
    this.metrics?.finding(rule);
    if (f.kept.length < FINDINGS_KEPT_PER_RULE) f.kept.push(finding);
    this.findings.set(rule, f);
  }

  /** The kept requests in arrival order, for the client judge. */
  judged(): RecordedRequest[] {
    return [...this.log].sort((a, b) => a.seq - b.seq);
  }

  private keep(rec: RecordedRequest): void {
    if (this.kept.has(rec)) return;
    if (this.log.length >= MAX_KEPT) return void this.dropped++;
    this.kept.add(rec);
    this.keptIdentities.add(rec.identity);
    this.log.push(rec);
  }

  private stateOf(client: string): ClientState {
    const name = this.clients.has(client) || this.clients.size < MAX_CLIENTS ? client : '(other clients)';
    let s = this.clients.get(name);
    if (!s) this.clients.set(name, (s = { keepNext: false, inFlight: 0, parallel: false }));
    return s;
  }
}

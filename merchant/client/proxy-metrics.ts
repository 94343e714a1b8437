/**
 * The proxy's Prometheus metrics (`proxy --metrics-port`, `--out prometheus-rw`): the exchanges
 * relayed by operation and status, their latency as the proxy saw it (arrival to answer), and the
 * ambient findings on the service's answers by rule. Served and pushed by core/metrics-publish.ts.
 */
import { Counter, Histogram, Registry } from 'prom-client';
import { LATENCY_BUCKETS_S } from '../../core/metrics-publish.ts';
import type { RecordedRequest } from './recorder.ts';

export class ProxyMetrics {
  readonly registry = new Registry();
  private readonly exchanges = new Counter({
    name: 'hps_proxy_exchanges_total',
    help: 'Exchanges through the proxy, by operation (create, read, cancel, other) and the status relayed (none: the upstream failed)',
    labelNames: ['operation', 'status'] as const,
    registers: [this.registry],
  });
  private readonly duration = new Histogram({
    name: 'hps_proxy_exchange_duration_seconds',
    help: 'From a request\'s arrival at the proxy to its answer from the upstream, by operation',
    labelNames: ['operation'] as const,
    buckets: [...LATENCY_BUCKETS_S],
    registers: [this.registry],
  });
  private readonly findings = new Counter({
    name: 'hps_proxy_findings_total',
    help: 'Findings of the response rules on the service\'s answers, by rule id',
    labelNames: ['rule'] as const,
    registers: [this.registry],
  });

  constructor() {
    this.registry.setDefaultLabels({ tool: 'hps-conformance' });
  }

  settled(rec: RecordedRequest): void {
    const status = rec.upstreamFailure === undefined && rec.status !== undefined ? String(rec.status) : 'none';
    this.exchanges.inc({ operation: rec.kind, status });
    if (rec.answeredMs !== undefined) this.duration.observe({ operation: rec.kind }, Math.max(0, rec.answeredMs - rec.arrivedMs) / 1000);
  }

  finding(rule: string): void {
    this.findings.inc({ rule });
  }
}

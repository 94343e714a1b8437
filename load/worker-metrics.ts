/**
 * In a generator (worker thread): the run's Prometheus metrics, counted where load.json's figures
 * are (generator.ts's Recorder, measured window only), in the thread's own prom-client registry;
 * its samples (getMetricsAsJSON, cumulative) go to the main thread with each interval and with the
 * result, where load/metrics.ts sums the threads (prom-client's AggregatorRegistry).
 */
import { Counter, Histogram, Registry, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import { LATENCY_BUCKETS_S } from '../core/metrics-publish.ts';
import type { Op } from './scenarios.ts';


export type MetricFamilies = MetricObjectWithValues<MetricValue<string>>[];

/** What a generator posts: its cumulative samples; `final` with the result (nothing after it counts). */
export interface WorkerMetricsSnapshot {
  worker: string;
  final: boolean;
  families: MetricFamilies;
}

export class WorkerMetrics {
  private readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'hps_load_requests_total',
    help: 'Answers to the requests sent in the measured window, by operation and HTTP status',
    labelNames: ['operation', 'status'] as const,
    registers: [this.registry],
  });
  private readonly failures = new Counter({
    name: 'hps_load_request_failures_total',
    help: 'Requests sent in the measured window that got no answer, by operation and kind (timeout, connection, other)',
    labelNames: ['operation', 'kind'] as const,
    registers: [this.registry],
  });
  private readonly duration = new Histogram({
    name: 'hps_load_request_duration_seconds',
    help: 'Latency of the answered requests of the measured window (open model: from the due time), by operation',
    labelNames: ['operation'] as const,
    buckets: [...LATENCY_BUCKETS_S],
    registers: [this.registry],
  });

  constructor(
    private readonly worker: string,
    labels: { run_id: string; scenario: string },
  ) {
    this.registry.setDefaultLabels({ ...labels, tool: 'hps-conformance' });
  }

  answer(op: Op, status: number, ms: number): void {
    this.requests.inc({ operation: op, status: String(status) });
    this.duration.observe({ operation: op }, ms / 1000);
  }

  failure(op: Op, kind: 'timeout' | 'connection' | 'other'): void {
    this.failures.inc({ operation: op, kind });
  }

  async snapshot(final: boolean): Promise<WorkerMetricsSnapshot> {
    return { worker: this.worker, final, families: await this.registry.getMetricsAsJSON() };
  }
}

/**
 * The main thread's side of the load's Prometheus metrics: the generators' cumulative samples
 * (worker-metrics.ts) summed by prom-client's AggregatorRegistry, and what only the end knows
 * (the checks and thresholds of load.json), in one registry that core/metrics-publish.ts serves
 * (`--metrics-port`) and pushes (`--out prometheus-rw`). docs/load.md lists every name.
 */
import { AggregatorRegistry, Gauge, Registry } from 'prom-client';
import { MetricsPublisher, type MetricsOutputs } from '../core/metrics-publish.ts';
import { redactText } from '../core/redact.ts';
import type { LoadReport } from './report.ts';
import type { WorkerMetricsSnapshot } from './worker-metrics.ts';

/** A label value from a flag (a threshold's text): redacted, printable, at most 120 characters. */
function labelValue(s: string, secrets: readonly string[]): string {
  return redactText(s, secrets).replace(/[\x00-\x1f\x7f]/g, '?').slice(0, 120);
}

export class LoadMetrics {
  private readonly workers = new Map<string, WorkerMetricsSnapshot>();
  private readonly own = new Registry();
  private readonly checks = new Gauge({
    name: 'hps_load_checks',
    help: 'Each check of load.json at the end of the run: 1 passed, 0 failed (a skipped check is absent)',
    labelNames: ['check'] as const,
    registers: [this.own],
  });
  private readonly thresholds = new Gauge({
    name: 'hps_load_thresholds',
    help: 'Each threshold of load.json at the end of the run: 1 passed, 0 failed (one that is off is absent)',
    labelNames: ['threshold'] as const,
    registers: [this.own],
  });
  private readonly verdict = new Gauge({
    name: 'hps_load_run_passed',
    help: 'The run\'s verdict at its end: 1 passed (exit 0), 0 not',
    registers: [this.own],
  });

  private readonly labels: Record<string, string>;

  constructor(labels: { run_id: string; scenario: string }) {
    this.labels = { ...labels, tool: 'hps-conformance' };
    this.own.setDefaultLabels(this.labels);
  }

  /** A generator's samples (cumulative: the latest replaces the one before; nothing after its final one). */
  fromWorker(s: WorkerMetricsSnapshot | undefined): void {
    if (!s || this.workers.get(s.worker)?.final) return;
    this.workers.set(s.worker, s);
  }

  /** The run's end: its checks, thresholds and verdict. */
  fromReport(report: LoadReport, secrets: readonly string[]): void {
    for (const c of report.checks) if (c.status !== 'skip') this.checks.set({ check: c.id }, c.status === 'pass' ? 1 : 0);
    for (const t of report.thresholds) {
      if (t.status !== 'off') this.thresholds.set({ threshold: labelValue(t.id, secrets) }, t.status === 'pass' ? 1 : 0);
    }
    this.verdict.set(report.exit_code === 0 ? 1 : 0);
  }

  /** Every sample so far, in one registry. */
  registry(): Registry {
    const summed = AggregatorRegistry.aggregate<Registry['contentType']>([...this.workers.values()].map((w) => w.families));
    const merged = Registry.merge([summed, this.own]);
    merged.setDefaultLabels(this.labels);
    return merged;
  }
}

/** The load's metrics while it runs (undefined: neither --metrics-port nor --out prometheus-rw). */
export interface LoadMetricsRun {
  metrics: LoadMetrics;
  /** The end: the report's checks and thresholds, the last push, the endpoint held `--metrics-hold` then closed. */
  end(report: LoadReport, secrets: readonly string[]): Promise<void>;
  /** A run that failed before its report: the endpoint closed, no hold. */
  close(): Promise<void>;
}

export async function startLoadMetrics(
  o: MetricsOutputs & { holdS: number },
  labels: { run_id: string; scenario: string },
  say: (line: string) => void,
): Promise<LoadMetricsRun | undefined> {
  const metrics = new LoadMetrics(labels);
  const publisher = await MetricsPublisher.start(() => metrics.registry(), o, say);
  if (!publisher) return undefined;
  let ended = false;
  return {
    metrics,
    async end(report, secrets) {
      ended = true;
      try {
        metrics.fromReport(report, secrets);
      } catch (e) {
        say(`metrics: the checks and thresholds could not be published (${(e as Error).message}); load.json has them`);
      }
      await publisher.stop(o.holdS * 1000);
    },
    async close() {
      if (!ended) await publisher.stop();
    },
  };
}

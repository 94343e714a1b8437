/**
 * `--metrics-port N` and `--out prometheus-rw=URL` (`load` and `proxy`): the figures published
 * while the command runs. A prom-client registry (what the command builds: load/metrics.ts,
 * merchant/client/proxy-metrics.ts) is served as Prometheus text on 127.0.0.1 only, and pushed
 * to a remote-write receiver every PUSH_INTERVAL_MS and once at the end (core/remote-write.ts).
 *
 * Bounded, and never in the way of the command: a push has a deadline (PUSH_DEADLINE_MS); one is
 * in flight at most, a tick that finds one still going is skipped (counted); the queue of unsent
 * samples is that one WriteRequest: a failed push is dropped, not retried, and the next carries
 * the cumulative counters again, so a receiver that was down loses resolution, never counts; a
 * push carries at most MAX_SERIES series. A receiver that is down is one line when it first
 * fails and one line at the end with the count. Nothing here changes a verdict or an exit status.
 */
import type { Registry, RegistryContentType } from 'prom-client';
import { HarnessError } from './errors.ts';
import { inertLine } from './inert.ts';
import { listenLoopback, type LoopbackServer } from './loopback-server.ts';
import { redactText } from './redact.ts';
import { encodeWriteRequest, pushWriteRequest, timeSeriesOf } from './remote-write.ts';

export const PUSH_INTERVAL_MS = 5000;
export const PUSH_DEADLINE_MS = 2000;
export const MAX_SERIES = 10_000;

/** Latency buckets in seconds: 1, 1.5, 2, 3, 5, 7 per decade, 0.1 ms to 10 s (a bucket is at most 1.67× the one below). */
export const LATENCY_BUCKETS_S: readonly number[] = [
  0.0001, 0.00015, 0.0002, 0.0003, 0.0005, 0.0007,
  0.001, 0.0015, 0.002, 0.003, 0.005, 0.007,
  0.01, 0.015, 0.02, 0.03, 0.05, 0.07,
  0.1, 0.15, 0.2, 0.3, 0.5, 0.7,
  1, 1.5, 2, 3, 5, 7,
  10,
];

export interface MetricsOutputs {
  /** `--metrics-port N` (0: a free one, printed). */
  port?: number;
  /** `--out prometheus-rw=URL`. */
  remoteWrite?: string;
}

/** `--out prometheus-rw=URL`: an http(s) URL without user-info (a credential would be printed and sent in clear). */
export function remoteWriteUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new HarnessError(
      'HPS_ERR_USAGE',
      `--out prometheus-rw=${JSON.stringify(value)}: must be an http(s) URL (a remote-write receiver)`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new HarnessError('HPS_ERR_USAGE', `--out prometheus-rw: must be an http(s) URL, not ${url.protocol}`);
  }
  if (url.username || url.password) throw new HarnessError('HPS_ERR_USAGE', '--out prometheus-rw: no user-info in the URL (put the ' +
    'receiver behind a loopback proxy that adds its credentials)');
  return url.href;
}

/** Where a URL is, for a printed line: origin and path, never a query. */
const shown = (url: string): string => {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
};

export class MetricsPublisher {
  pushes = 0;
  failed = 0;
  skipped = 0;
  droppedSeries = 0;
  private inFlight: Promise<void> | null = null;
  private timer: NodeJS.Timeout | undefined;
  private lastFailure = '';

  private constructor(
    private readonly registry: () => Registry<RegistryContentType>,
    private readonly url: string | undefined,
    private readonly server: LoopbackServer | undefined,
    private readonly say: (line: string) => void,
  ) {}

  /** Starts what `o` asks for (null: nothing asked); the endpoint's URL and the receiver are printed with `say`. */
  static async start(
    registry: () => Registry<RegistryContentType>,
    o: MetricsOutputs,
    say: (line: string) => void,
  ): Promise<MetricsPublisher | null> {
    if (o.port === undefined && o.remoteWrite === undefined) return null;
    const server = o.port === undefined ? undefined : await listenLoopback(async (req, res) => {
      if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') return void res.writeHead(404).end();
      const reg = registry();
      const body = await reg.metrics();
      res.writeHead(200, { 'content-type': reg.contentType }).end(body);
    }, o.port).catch((e: unknown) => {
      throw new HarnessError('HPS_ERR_USAGE', `--metrics-port ${o.port}: cannot listen on 127.0.0.1 (${(e as Error).message})`);
    });
    const p = new MetricsPublisher(registry, o.remoteWrite, server, (l) => say(inertLine(redactText(l))));
    if (server) p.say(`metrics: ${server.url}/metrics (Prometheus text, while the command runs)`);
    if (o.remoteWrite) {
      p.say(`metrics: remote write to ${shown(o.remoteWrite)} every ${PUSH_INTERVAL_MS / 1000} s and at the end`);
      p.timer = setInterval(() => p.tick(), PUSH_INTERVAL_MS);
      p.timer.unref();
    }
    return p;
  }

  /** The endpoint's URL (`http://127.0.0.1:PORT`), when there is one. */
  get endpoint(): string | undefined {
    return this.server?.url;
  }

  private tick(): void {
    if (this.inFlight) {
      this.skipped++;
      return;
    }
    this.inFlight = this.push().finally(() => (this.inFlight = null));
  }

  /** One push; never throws (a failure of the metrics is a line and a count, never the command's). */
  private async push(): Promise<void> {
    if (!this.url) return;
    this.pushes++;
    let error: string | undefined;
    try {
      let series = timeSeriesOf(await this.registry().getMetricsAsJSON(), Date.now());
      if (series.length > MAX_SERIES) {
        this.droppedSeries += series.length - MAX_SERIES;
        series = series.slice(0, MAX_SERIES);
      }
      error = await pushWriteRequest(this.url, encodeWriteRequest(series), PUSH_DEADLINE_MS);
    } catch (e) {
      error = `not encoded: ${(e as Error).message}`;
    }
    if (error === undefined) return;
    if (this.failed++ === 0) this.say(`metrics: remote write to ${shown(this.url)} failed (${error}); the run goes on, failures are ` +
      'counted');
    this.lastFailure = error;
  }

  /** The last push (awaited, within its deadline), then the endpoint closes after `holdMs` (a last scrape's time). */
  async stop(holdMs = 0): Promise<void> {
    clearInterval(this.timer);
    await this.inFlight;
    if (this.url) await this.push();
    if (this.url && this.failed) this.say(`metrics: ${this.failed} of ${this.pushes} remote-write pushes to ${shown(this.url)} failed ` +
      `(the last: ${this.lastFailure})${this.skipped ? `; ${this.skipped} skipped, the one before still in flight` : ''}`);
    if (this.droppedSeries) this.say(`metrics: ${this.droppedSeries} series over the bound of ${MAX_SERIES} a push were not sent`);
    if (this.server && holdMs > 0) await new Promise((r) => setTimeout(r, holdMs));
    await this.server?.close();
  }
}

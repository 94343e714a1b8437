/**
 * The webhook sink (docs/design.md "The webhook sink"): an HTTP server the target delivers events to.
 * startSink checks the options, reloads the log (streamed), builds the request handling (app.ts)
 * and listens; the query API under `/_sink/` always needs the bearer token, and an address other
 * than loopback is refused unless the token was given explicitly.
 */
import type { AddressInfo } from 'node:net';
import { SinkApp } from './app.ts';
import { DeliveryLogError, openDeliveryLog, type ReloadLimits } from './delivery-log.ts';
import { nowMs, summary, urlHost } from './http-helpers.ts';
import { resolveOptions, type ResolvedOptions } from './options.ts';
import { SinkError, type RunningSink, type SinkOptions } from './sink-types.ts';

export { SinkError, type RunningSink, type SinkOptions } from './sink-types.ts';

export async function startSink(options: SinkOptions): Promise<RunningSink> {
  const config = resolveOptions(options);
  let opened;
  try {
    opened = await openDeliveryLog(config.logFile, { sync: config.fsync, limits: reloadLimits(config) });
  } catch (error) {
    throw new SinkError('SINK_LOG', error instanceof DeliveryLogError ? error.message : `${config.logFile}: ${(error as Error).message}`);
  }
  const app = new SinkApp(config, opened.log, opened.loaded);
  try {
    await listen(app, config.host, config.port);
  } catch (error) {
    opened.log.close();
    throw new SinkError('SINK_LISTEN_FAILED', `cannot listen on ${options.listen}: ${(error as Error).message}`);
  }
  const bound = app.server.address() as AddressInfo;
  const url = `http://${urlHost(config.host)}:${bound.port}`;
  app.publicUrl = (config.publicUrl ?? url).replace(/\/+$/, '');
  app.appendQuietly({ line: 'start', at: nowMs(), pid: process.pid, endpoints: [...config.endpoints.values()].map(summary) });
  let closing: Promise<void> | undefined;
  return {
    url,
    port: bound.port,
    publicUrl: app.publicUrl,
    boundAddress: bound.family === 'IPv6' ? `[${bound.address}]:${bound.port}` : `${bound.address}:${bound.port}`,
    queryToken: config.queryToken,
    logFile: config.logFile,
    deliveries: (filter) => app.store.deliveries(filter),
    waitFor: (filter, waitOptions) => app.store.waitFor(filter, waitOptions),
    redirectHits: () => app.store.redirectHits(),
    stats: () => app.stats(),
    close: () => (closing ??= app.close()),
  };
}

function listen(app: SinkApp, host: string, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    app.server.once('error', reject);
    app.server.listen({ host, port }, () => {
      app.server.off('error', reject);
      resolve();
    });
  });
}

/** A reload keeps what the running sink would: the same caps, and one line of at most a whole delivery (body as base64 + a head). */
function reloadLimits(config: ResolvedOptions): ReloadLimits {
  return {
    maxDeliveries: config.maxDeliveries,
    maxStoredBodyBytes: config.maxStoredBodyBytes,
    maxLineBytes: Math.ceil((config.maxBodyBytes * 4) / 3) + MAX_LINE_OVERHEAD_BYTES,
    rejectedRing: config.rejectedRing,
  };
}

/** A log line besides the body: the head (node caps it at 16 KiB, JSON-escaped up to 6×) and the record's fields. */
const MAX_LINE_OVERHEAD_BYTES = 256 * 1024;

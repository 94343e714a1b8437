/** `proxy`: the validating proxy (merchant/client/proxy-run.ts): relays and judges a merchant application's live traffic. */
import { HarnessError } from '../core/errors.ts';
import { remoteWriteUrl, type MetricsOutputs } from '../core/metrics-publish.ts';
import { durationOption } from '../load/options.ts';
import { runProxy } from '../merchant/client/proxy-run.ts';
import { DEFAULT_HAR_MAX_BYTES } from '../merchant/client/har.ts';
import { intOption, type Options } from './options.ts';
import { sidePolicyOf } from './receiver-command.ts';

/** A day of traffic and more: a week at most. */
const MAX_DURATION_S = 7 * 24 * 3600;

/** --har-max-mb: 0 (no bound) to 1 TiB; default DEFAULT_HAR_MAX_BYTES. */
function harMaxBytes(o: Options): number {
  const mb = intOption(o, 'har-max-mb', 0, 1024 * 1024);
  return mb === undefined ? DEFAULT_HAR_MAX_BYTES : mb * 1024 * 1024;
}

/** --metrics-port N, --out prometheus-rw=URL (core/metrics-publish.ts). */
function metricsOf(o: Options): { metrics?: MetricsOutputs } {
  const port = intOption(o, 'metrics-port', 0, 65535);
  const out = o.out as string | undefined;
  const m = out === undefined ? undefined : /^prometheus-rw=(.+)$/.exec(out);
  if (out !== undefined && !m) throw new HarnessError('HPS_ERR_USAGE', `--out ${JSON.stringify(out)}: must be prometheus-rw=URL`);
  const remoteWrite = m ? remoteWriteUrl(m[1]!) : undefined;
  if (port === undefined && remoteWrite === undefined) return {};
  return { metrics: { ...(port !== undefined ? { port } : {}), ...(remoteWrite ? { remoteWrite } : {}) } };
}

export async function proxyCommand(o: Options): Promise<number> {
  const upstream = o.upstream as string | undefined;
  if (upstream !== undefined && !/^https?:\/\/[^\s/]+/i.test(upstream)) throw new HarnessError(
    'HPS_ERR_USAGE',
    `--upstream ${JSON.stringify(upstream)}: must be an http(s) URL (the service's base URL)`,
  );
  const report = o.report as string | undefined;
  if (!report) throw new HarnessError(
    'HPS_ERR_USAGE',
    'proxy needs --report DIR (report.json, service/report.json and traffic.har go there)',
  );
  const durationS = durationOption(o, 'duration', 1, MAX_DURATION_S);
  const { exitCode } = await runProxy({
    upstream, port: intOption(o, 'port', 0, 65535), durationMs: durationS === undefined ? undefined : durationS * 1000,
    run: o.run as string | undefined, reportDir: report, policy: sidePolicyOf(o), harMaxBytes: harMaxBytes(o), ...metricsOf(o),
  });
  return exitCode;
}

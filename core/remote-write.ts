/**
 * Prometheus remote write (protocol 1.0): the registry's samples as a WriteRequest, encoded by
 * protobufjs from Prometheus's own message definitions (prompb/remote.proto and types.proto, the
 * fields a sender fills: labels and samples) and compressed by snappyjs (block format), POSTed
 * with a deadline. Nothing here is a hand-written encoder.
 */
import protobuf from 'protobufjs';
import { compress } from 'snappyjs';
import { request } from './undici.ts';
import type { MetricObjectWithValues, MetricValue } from 'prom-client';

const PROTO = `syntax = "proto3";
package prometheus;
message WriteRequest { repeated TimeSeries timeseries = 1; reserved 2; reserved 3; }
message TimeSeries { repeated Label labels = 1; repeated Sample samples = 2; }
message Label { string name = 1; string value = 2; }
message Sample { double value = 1; int64 timestamp = 2; }`;

/** The protocol's version header (1.0 of the spec sends zero, one, zero); built from its parts, never read as the package's version. */
const PROTOCOL_VERSION = [0, 1, 0].join('.');

const WriteRequest = protobuf.parse(PROTO).root.lookupType('prometheus.WriteRequest');

interface Series {
  labels: { name: string; value: string }[];
  samples: { value: number; timestamp: number }[];
}

/** A label value as Prometheus writes it: `le` and `quantile` as numbers (+Inf), the rest as text. */
function labelText(v: unknown): string {
  if (v === Infinity || v === '+Inf') return '+Inf';
  return String(v);
}

/** One series per value of every family, `__name__` first and the other labels sorted (as the protocol asks), one sample at `at`. */
export function timeSeriesOf(families: readonly MetricObjectWithValues<MetricValue<string>>[], at: number): Series[] {
  const out: Series[] = [];
  for (const f of families) {
    for (const v of f.values) {
      const name = (v as { metricName?: string }).metricName ?? f.name;
      const labels = Object.entries(v.labels)
        .filter(([, value]) => value !== undefined)
        .map(([k, value]) => ({ name: k, value: labelText(value) }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const samples = [{ value: v.value, timestamp: Math.round(at) }];
      out.push({ labels: [{ name: '__name__', value: name }, ...labels], samples });
    }
  }
  return out;
}

/** The WriteRequest's body: protobuf, then snappy (block format). */
export function encodeWriteRequest(series: Series[]): Uint8Array {
  const message = WriteRequest.create({ timeseries: series });
  return compress(WriteRequest.encode(message).finish());
}

/** One POST; resolves with the error (one line) or undefined. Never throws; never takes longer than `deadlineMs`. */
export async function pushWriteRequest(url: string, body: Uint8Array, deadlineMs: number): Promise<string | undefined> {
  try {
    const res = await request(url, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/x-protobuf',
        'content-encoding': 'snappy',
        'x-prometheus-remote-write-version': PROTOCOL_VERSION,
        'user-agent': 'hps-conformance',
      },
      signal: AbortSignal.timeout(deadlineMs),
      headersTimeout: deadlineMs,
      bodyTimeout: deadlineMs,
    });
    const text = (await res.body.text()).slice(0, 200);
    if (res.statusCode >= 200 && res.statusCode < 300) return undefined;
    return `answered ${res.statusCode}${text ? `: ${text.replace(/\s+/g, ' ').trim()}` : ''}`;
  } catch (e) {
    const err = e as { name?: string; code?: string; message?: string; cause?: { code?: string } };
    if (err.name === 'TimeoutError' || err.name === 'AbortError') return `no answer within ${deadlineMs} ms`;
    return err.cause?.code ?? err.code ?? err.message ?? 'failed';
  }
}

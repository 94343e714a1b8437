/**
 * Latency histograms: HdrHistogram (hdr-histogram-js, pinned), values in microseconds,
 * 3 significant digits, 1 µs to 1 h. The raw histogram travels encoded in the standard
 * compressed base64 form ("HISTFAAA…"), so results of workers, shards and runs merge
 * exactly (counts add per bucket) and other HdrHistogram tools can read them.
 */
import { inflateSync } from 'node:zlib';
import * as hdr from 'hdr-histogram-js';
import type { Percentiles } from '../catalogue/report/load-model.ts';

export type Histogram = hdr.Histogram;

const HIGHEST_US = 3_600_000_000;

/** A fresh latency histogram; `digits` 2 for the per-second series (smaller), 3 otherwise. */
export function newHistogram(digits: 2 | 3 = 3): Histogram {
  return hdr.build({
    bitBucketSize: 32,
    lowestDiscernibleValue: 1,
    highestTrackableValue: HIGHEST_US,
    numberOfSignificantValueDigits: digits,
    useWebAssembly: false,
  });
}

/** Records a latency given in milliseconds (clamped into the trackable range). */
export function recordMs(h: Histogram, ms: number): void {
  const us = Math.round(ms * 1000);
  h.recordValue(us < 1 ? 1 : us > HIGHEST_US ? HIGHEST_US : us);
}

export function encode(h: Histogram): string {
  return hdr.encodeIntoCompressedBase64(h);
}

export function decode(base64: string): Histogram {
  return hdr.decodeFromCompressedBase64(base64, 32, false);
}

/** The most an encoded histogram of this tool takes (a few KB in practice), encoded and inflated. */
const MAX_ENCODED_CHARS = 1024 * 1024;
const MAX_INFLATED_BYTES = 4 * 1024 * 1024;
const V2_COMPRESSED = 0x1c849304;
const V2 = 0x1c849303;

/**
 * `decode` for a histogram read from a file someone else wrote: first checked to be one this tool
 * writes (V2 compressed, 1 µs to 1 h, 2 or 3 digits), its size bounded before and after inflating,
 * so a hostile string costs bounded memory; throws an Error saying what is wrong.
 */
export function decodeUntrusted(base64: unknown): Histogram {
  if (typeof base64 !== 'string' || base64.length > MAX_ENCODED_CHARS) throw new Error('not an encoded histogram of at most 1 MiB');
  const buf = Buffer.from(base64.trim(), 'base64');
  if (buf.length < 8 || (buf.readInt32BE(0) & ~0xf0) !== V2_COMPRESSED) throw new Error('not a compressed V2 HdrHistogram');
  let inner: Buffer;
  try {
    inner = inflateSync(buf.subarray(8, 8 + Math.max(0, buf.readInt32BE(4))), { maxOutputLength: MAX_INFLATED_BYTES });
  } catch (e) {
    throw new Error(`its compressed body does not inflate within ${MAX_INFLATED_BYTES} bytes (${(e as Error).message})`);
  }
  if (inner.length < 40 || (inner.readInt32BE(0) & ~0xf0) !== V2) throw new Error('not a V2 HdrHistogram');
  const digits = inner.readInt32BE(12);
  if ((digits !== 2 && digits !== 3) || inner.readBigInt64BE(16) !== 1n || inner.readBigInt64BE(24) !== BigInt(HIGHEST_US)) {
    throw new Error('not a histogram this tool writes (1 µs to 1 h, 2 or 3 significant digits)');
  }
  return decode(base64);
}

/** One histogram holding every count of `encoded` (an empty list gives an empty histogram). */
export function mergeEncoded(encoded: readonly string[], digits: 2 | 3 = 3): Histogram {
  const out = newHistogram(digits);
  for (const e of encoded) {
    const h = decode(e);
    out.add(h);
    h.destroy();
  }
  return out;
}

const ms = (us: number): number => Math.round(us) / 1000;

/** The highest percentile a distribution goes to: 99.9999% (six nines, 10^6 on the plotter's axis). */
const MAX_DECADES = 6;
/** Points per decade of 1/(1-p): 0%, 10.9%, 20.6% … 90%, 91.1% … 99% … */
const STEPS_PER_DECADE = 20;

/**
 * Latency by percentile, as the HdrHistogram plotter draws it: points [percentile %, ms] at even
 * steps of log10(1/(1-p)) from 0% up to the highest percentile the count resolves (1 − 1/count,
 * at most 99.9999%), the last point there being the largest latency when the count is at most 10^6.
 * Bounded: at most 6 × 20 + 2 points, whatever the count. An empty histogram gives none.
 */
export function distributionOf(h: Histogram): [number, number][] {
  const n = h.totalCount;
  if (n === 0) return [];
  const top = Math.min(MAX_DECADES, Math.log10(n));
  const pct = (x: number): number => Math.round((1 - 10 ** -x) * 1e8) / 1e6;
  const out: [number, number][] = [];
  for (let i = 0; i / STEPS_PER_DECADE < top; i += 1) {
    const p = pct(i / STEPS_PER_DECADE);
    out.push([p, ms(h.getValueAtPercentile(p))]);
  }
  const last = pct(top);
  if (out.at(-1)?.[0] !== last) out.push([last, ms(h.getValueAtPercentile(top < MAX_DECADES ? 100 : last))]);
  return out;
}

/** Percentiles in milliseconds (µs resolution; HDR's values, i.e. within 0.1% of the truth). */
export function percentilesOf(h: Histogram): Percentiles {
  const n = h.totalCount;
  if (n === 0) return { count: 0, min: 0, mean: 0, p50: 0, p90: 0, p97_5: 0, p99: 0, p99_9: 0, p99_99: 0, max: 0 };
  return {
    count: n,
    // Bucket-equivalent min and max (not the exact recorded ones, which a decoded or merged
    // histogram no longer knows): a merge then reports exactly what one histogram would.
    min: ms(h.getValueAtPercentile(0)),
    mean: Math.round(h.mean) / 1000,
    p50: ms(h.getValueAtPercentile(50)),
    p90: ms(h.getValueAtPercentile(90)),
    p97_5: ms(h.getValueAtPercentile(97.5)),
    p99: ms(h.getValueAtPercentile(99)),
    p99_9: ms(h.getValueAtPercentile(99.9)),
    p99_99: ms(h.getValueAtPercentile(99.99)),
    max: ms(h.getValueAtPercentile(100)),
  };
}

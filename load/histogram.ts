/**
 * Latency histograms: HdrHistogram (hdr-histogram-js, pinned), values in microseconds,
 * 3 significant digits, 1 µs to 1 h. The raw histogram travels encoded in the standard
 * compressed base64 form ("HISTFAAA…"), so results of workers, shards and runs merge
 * exactly (counts add per bucket) and other HdrHistogram tools can read them.
 */
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

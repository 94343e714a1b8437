/**
 * The part of autocannon 8's programmatic API the load scripts use (the package ships no
 * types and @types/autocannon is not a dependency). Shapes follow autocannon's README, "API".
 */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    type Context = Record<string, unknown>;

    /** One entry of `requests`; each connection loops over the array. */
    interface RequestSpec {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      /** Gets a copy of the request and the connection's context; returns the request to send. */
      setupRequest?: (request: RequestSpec, context: Context) => RequestSpec | null | undefined;
      /** Called with every complete response of this request, before the instance's `response` event. */
      onResponse?: (status: number, body: string, context: Context, headers: Record<string, string | string[]>) => void;
    }

    interface Options {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      amount?: number;
      maxOverallRequests?: number;
      overallRate?: number;
      /** Seconds to wait for a response. */
      timeout?: number;
      pipelining?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      requests?: RequestSpec[];
      initialContext?: Context;
      sampleInt?: number;
      excludeErrorStats?: boolean;
      title?: string;
    }

    /** hdr-histogram-percentiles-obj shape. */
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total?: number;
      p2_5: number;
      p50: number;
      p75: number;
      p90: number;
      p97_5: number;
      p99: number;
      p99_9: number;
      [key: string]: number | undefined;
    }

    interface Result {
      url: string;
      connections: number;
      duration: number;
      start: Date;
      finish: Date;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      resets: number;
      '1xx': number;
      '2xx': number;
      '3xx': number;
      '4xx': number;
      '5xx': number;
      statusCodeStats: Record<string, { count: number }>;
      latency: Histogram & { totalCount: number };
      requests: Histogram & { sent: number };
      throughput: Histogram;
    }

    interface Instance extends EventEmitter, PromiseLike<Result> {
      stop(): void;
      catch(onrejected: (reason: unknown) => unknown): Promise<unknown>;
    }
  }

  function autocannon(opts: autocannon.Options): autocannon.Instance;
  export = autocannon;
}

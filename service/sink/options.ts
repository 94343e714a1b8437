/** SinkOptions checked and filled with defaults (every problem is a SinkError naming the option). */
import { randomBytes } from 'node:crypto';
import { RING_DEFAULTS, type RingLimits } from './rejected-ring.ts';
import { isLoopbackHost } from './http-helpers.ts';
import { QUERY_PREFIX } from './query-api.ts';
import type { SinkEndpoint } from './types.ts';
import { DEFAULT_TOLERANCE_SECONDS } from './verify-signature.ts';
import { SinkError, type SinkOptions } from './sink-types.ts';

/** Raw body bytes the stored deliveries may hold together (base64 in memory: 4/3 of it). */
export const DEFAULT_MAX_STORED_BODY_BYTES = 128 * 1024 * 1024;

export interface ResolvedOptions {
  host: string;
  port: number;
  endpoints: Map<string, SinkEndpoint>;
  logFile: string;
  publicUrl: string | undefined;
  maxBodyBytes: number;
  maxDeliveries: number;
  maxStoredBodyBytes: number;
  rejectedRing: RingLimits;
  holdMs: number;
  toleranceSeconds: number | null;
  queryToken: string;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  fsync: boolean;
}

function fail(message: string): never {
  throw new SinkError('SINK_BAD_OPTIONS', message);
}

function positive(name: keyof SinkOptions, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) fail(`${name} must be a positive number`);
  return value;
}

function listenAddress(listen: string | undefined): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]+)):([0-9]{1,5})$/.exec(listen ?? '');
  if (!m) fail(`listen must be "host:port", got ${JSON.stringify(listen)}`);
  const host = (m?.[1] ?? m?.[2]) as string;
  const port = Number(m?.[3]);
  if (port > 65_535) fail(`listen port ${port} is over 65535`);
  return { host, port };
}

/** The endpoints by path, each checked (a path of its own, outside the query API; a secret; livemode; events). */
function endpointsByPath(list: readonly SinkEndpoint[]): Map<string, SinkEndpoint> {
  const endpoints = new Map<string, SinkEndpoint>();
  for (const [i, endpoint] of list.entries()) {
    const where = `endpoints[${i}]`;
    if (typeof endpoint?.path !== 'string' || !endpoint.path.startsWith('/') || /[?#\s]/.test(endpoint.path)) {
      fail(`${where}.path must be a path starting with "/" (no query, no spaces)`);
    }
    if (endpoint.path === QUERY_PREFIX || endpoint.path.startsWith(`${QUERY_PREFIX}/`)) {
      fail(`${where}.path must not be under ${QUERY_PREFIX}/ (the sink's own API)`);
    }
    if (endpoints.has(endpoint.path)) fail(`${where}.path ${endpoint.path} is listed twice`);
    if (typeof endpoint.secret !== 'string' || endpoint.secret === '') fail(`${where}.secret must be a non-empty string`);
    if (typeof endpoint.livemode !== 'boolean') fail(`${where}.livemode must be a boolean`);
    if (endpoint.events !== '*' && !(Array.isArray(endpoint.events) && endpoint.events.every((e) => typeof e === 'string'))) {
      fail(`${where}.events must be "*" or an array of event types`);
    }
    endpoints.set(endpoint.path, endpoint);
  }
  return endpoints;
}

/** The query token given (at least 16 characters) or a fresh one; only loopback may go without one. */
function queryTokenFor(given: string | undefined, host: string): string {
  const queryToken = given ?? randomBytes(24).toString('base64url');
  if (given !== undefined && given.length < 16) fail('queryToken must be at least 16 characters');
  if (given === undefined && !isLoopbackHost(host)) {
    fail(`refusing to listen on ${host} (not loopback) without a query token: anyone could read the deliveries (give --query-token or ` +
      `webhooks.query_token)`);
  }
  return queryToken;
}

export function resolveOptions(options: SinkOptions): ResolvedOptions {
  const { host, port } = listenAddress(options.listen);
  if (typeof options.logFile !== 'string' || options.logFile === '') fail('logFile is required');
  if (!Array.isArray(options.endpoints)) fail('endpoints must be an array');
  const endpoints = endpointsByPath(options.endpoints);

  const tolerance = options.toleranceSeconds;
  if (tolerance !== undefined && tolerance !== null && !(tolerance >= 0)) fail('toleranceSeconds must be >= 0, null or Infinity');
  const headersTimeoutMs = positive('headersTimeoutMs', options.headersTimeoutMs, 10_000);
  const requestTimeoutMs = positive('requestTimeoutMs', options.requestTimeoutMs, 30_000);
  if (requestTimeoutMs < headersTimeoutMs) fail('requestTimeoutMs must be at least headersTimeoutMs');
  const queryToken = queryTokenFor(options.queryToken, host);

  return {
    host,
    port,
    endpoints,
    logFile: options.logFile,
    publicUrl: options.publicUrl,
    maxBodyBytes: positive('maxBodyBytes', options.maxBodyBytes, 1024 * 1024),
    maxDeliveries: positive('maxDeliveries', options.maxDeliveries, 20_000),
    maxStoredBodyBytes: positive('maxStoredBodyBytes', options.maxStoredBodyBytes, DEFAULT_MAX_STORED_BODY_BYTES),
    holdMs: positive('holdMs', options.holdMs, 12_000),
    toleranceSeconds: tolerance === undefined ? DEFAULT_TOLERANCE_SECONDS : tolerance,
    queryToken,
    rejectedRing: {
      junkEntries: positive('rejectedRing', options.rejectedRing?.junkEntries, RING_DEFAULTS.junkEntries),
      evidenceEntries: positive('rejectedRing', options.rejectedRing?.evidenceEntries, RING_DEFAULTS.evidenceEntries),
      evidenceBodyBytes: positive('rejectedRing', options.rejectedRing?.evidenceBodyBytes, RING_DEFAULTS.evidenceBodyBytes),
    },
    headersTimeoutMs,
    requestTimeoutMs,
    fsync: options.fsync ?? true,
  };
}

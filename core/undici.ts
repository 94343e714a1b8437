/**
 * The parts of undici the project uses, loaded from their own modules rather than from undici's
 * index. The index also loads fetch, WebSocket, EventSource, the cache stores, the mock agents and
 * every interceptor: ~130 ms of CPU in each thread that imports it (the run's main thread and each
 * suite worker, every CLI process), ~55 ms for these. undici is pinned by package-lock.json; a
 * change of its layout fails every test that sends a request (test/core/undici.test.ts checks the
 * shapes). Types come from undici's own declarations.
 */
import type * as Undici from 'undici';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

const Dispatcher = require('undici/lib/dispatcher/dispatcher.js') as { prototype: object };
const api = require('undici/lib/api/index.js') as Record<string, (this: Undici.Dispatcher, ...args: unknown[]) => unknown>;
const util = require('undici/lib/core/util.js') as { parseOrigin(url: unknown): URL; parseURL(url: unknown): URL };
const { getGlobalDispatcher } = require('undici/lib/global.js') as { getGlobalDispatcher(): Undici.Dispatcher };
const { InvalidArgumentError } = require('undici/lib/core/errors.js') as { InvalidArgumentError: new (message: string) => Error };

// What undici's index does: a dispatcher's request(), stream(), pipeline()... methods.
Object.assign(Dispatcher.prototype, api);

export const Agent = require('undici/lib/dispatcher/agent.js') as typeof Undici.Agent;
export const Client = require('undici/lib/dispatcher/client.js') as typeof Undici.Client;
export const Pool = require('undici/lib/dispatcher/pool.js') as typeof Undici.Pool;
export const EnvHttpProxyAgent = require('undici/lib/dispatcher/env-http-proxy-agent.js') as typeof Undici.EnvHttpProxyAgent;

interface RequestOptions { path?: string; dispatcher?: Undici.Dispatcher; agent?: unknown; method?: string; body?: unknown }

/** undici's top-level `request(url, options)`: the URL split into origin and path, sent through `options.dispatcher` or the global one. */
export const request = ((url: string | URL, opts?: RequestOptions) => {
  if (!url || (typeof url !== 'string' && typeof url !== 'object')) throw new InvalidArgumentError('invalid url');
  if (opts != null && typeof opts !== 'object') throw new InvalidArgumentError('invalid opts');
  let target: URL;
  if (opts?.path != null) {
    if (typeof opts.path !== 'string') throw new InvalidArgumentError('invalid opts.path');
    target = new URL(util.parseOrigin(url).origin + (opts.path.startsWith('/') ? opts.path : `/${opts.path}`));
  } else {
    opts ??= typeof url === 'object' ? (url as object) : {};
    target = util.parseURL(url);
  }
  if (opts.agent) throw new InvalidArgumentError('unsupported opts.agent. Did you mean opts.client?');
  const dispatcher = opts.dispatcher ?? getGlobalDispatcher();
  return api['request']!.call(dispatcher, {
    ...opts,
    origin: target.origin,
    path: target.search ? `${target.pathname}${target.search}` : target.pathname,
    method: opts.method || (opts.body ? 'PUT' : 'GET'),
  });
}) as unknown as typeof Undici.request;

export type { Dispatcher } from 'undici';

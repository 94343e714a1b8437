/**
 * The routes of v1 (spec, Endpoints) and the wrong methods on them, as data, for the routing and
 * auth suites. Unknown routes and other version prefixes are generated
 * (service/generators/unknown-route-path.ts, service/generators/other-version-prefix.ts).
 *
 * A route is a path template of the operations table with the methods bound to it:
 *
 *   /payments                                 GET POST
 *   /payments/{id}                            GET
 *   /payments/{id}/cancel                     POST
 *   /test_helpers/payments/{id}/succeed       POST
 *   /test_helpers/payments/{id}/cancel        POST
 */
import { OPERATIONS, type Operation } from '../../catalogue/schemas/index.ts';

/** The methods the suite asserts on (HEAD and OPTIONS are only observed). */
export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type Method = (typeof METHODS)[number];

export interface Route {
  /** Template relative to /v1, e.g. `/payments/{id}`. */
  template: string;
  methods: readonly string[];
  operations: readonly Operation[];
  testOnly: boolean;
}

export const ROUTES: readonly Route[] = [...new Set(OPERATIONS.map((o) => o.path))].map((template) => {
  const operations = OPERATIONS.filter((o) => o.path === template);
  return { template, methods: operations.map((o) => o.method), operations, testOnly: operations.some((o) => o.testOnly) };
});

/** The route's path under `prefix` for a Payment id (encoded once). */
export function routePath(route: Route, id: string, prefix = '/v1'): string {
  return prefix + route.template.replace('{id}', encodeURIComponent(id));
}

/** Every (route, wrong method) pair: the methods of METHODS the route does not bind. */
export const WRONG_METHODS: ReadonlyArray<{ route: Route; method: Method }> = ROUTES.flatMap((route) =>
  METHODS.filter((m) => !route.methods.includes(m)).map((method) => ({ route, method })),
);

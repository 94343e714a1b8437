/**
 * The routing and versioning areas' fixed tables (catalogue/case-table.ts): unknown routes, every
 * wrong method on every route, and the six operations under other version prefixes. `{id}` in a
 * row's path stands for the test's own PENDING Payment.
 */
import type { CaseTable } from '../../../catalogue/case-table.ts';
import { OPERATIONS, type Operation } from '../../../catalogue/schemas/index.ts';
import { WRONG_METHODS, type Method, type Route } from '../routes.ts';

/** A request line of an unknown route. */
export interface UnknownRouteRow {
  readonly method: 'GET' | 'POST';
  /** Under /v1; `{id}` is the test's PENDING Payment. */
  readonly path: string;
}

/** ROUTE-UNKNOWN-404: another resource, a sub-resource or helper that does not exist, a collection of helpers. */
export const UNKNOWN_ROUTE_CASES: CaseTable<UnknownRouteRow> = {
  rule: 'ROUTE-UNKNOWN-404',
  name: 'unknown routes',
  // Offline and manually recorded payments are not part of v1: the paths a service would give them too.
  rows: () => [
    '/v1/refunds', '/v1/payments/{id}/refund', '/v1/test_helpers/payments/{id}/reverse', '/v1/test_helpers/payments',
    '/v1/offline_payments', '/v1/manual_payments',
  ]
    .flatMap((path) => (['GET', 'POST'] as const).map((method) => ({ method, path }))),
  title: (r) => `${r.method} ${r.path}${r.method === 'POST' ? ' with a valid create body' : ''} answers 404 not_found`,
};

/** A method a route does not bind. */
export interface WrongMethodRow {
  readonly route: Route;
  readonly method: Method;
}

/** ROUTE-WRONG-METHOD-405: every method of GET, POST, PUT, PATCH, DELETE a route does not bind. */
export const WRONG_METHOD_CASES: CaseTable<WrongMethodRow> = {
  rule: 'ROUTE-WRONG-METHOD-405',
  name: 'wrong methods on each route',
  rows: () => WRONG_METHODS,
  title: (r) => `${r.method} /v1${r.route.template} answers 405 method_not_allowed`,
};

/** ROUTE-ALLOW-HEADER: the same wrong methods; each 405 names the route's methods. */
export const ALLOW_HEADER_CASES: CaseTable<WrongMethodRow> = {
  rule: 'ROUTE-ALLOW-HEADER',
  name: 'wrong methods on each route',
  rows: () => WRONG_METHODS,
  title: (r) => `${r.method} /v1${r.route.template}: a 405 carries Allow naming ${r.route.methods.join(', ')}`,
};

/** An operation under another version prefix. */
export interface VersionRow {
  readonly prefix: string;
  readonly op: Operation;
}

/** VERS-UNKNOWN-VERSION-404: the six operations under /v2, /v0 and /V1. */
export const OTHER_VERSION_CASES: CaseTable<VersionRow> = {
  rule: 'VERS-UNKNOWN-VERSION-404',
  name: 'operations under other version prefixes',
  rows: () => ['/v2', '/v0', '/V1'].flatMap((prefix) => OPERATIONS.map((op) => ({ prefix, op }))),
  title: (r) => `${r.op.operationId} under ${r.prefix} instead of /v1 answers 404 not_found`,
};

export const ROUTES_VERSIONS_CASE_TABLES: ReadonlyArray<CaseTable<any>> = [
  UNKNOWN_ROUTE_CASES,
  WRONG_METHOD_CASES,
  ALLOW_HEADER_CASES,
  OTHER_VERSION_CASES,
];

/**
 * Planted faults of the routing area (spec, Endpoints › Rules, Rule 8), each a realistic bug in
 * the route and method steps of reference/app.ts.
 */

export const ROUTING_FAULTS = {
  'unknown-route-answers-payment-not-found':
    'The catch-all 404 reuses the resource code: an unknown route answers 404 payment_not_found instead of not_found.',
  'route-prefix-match':
    'Routes are matched by prefix: a path with extra segments after a known route (`/payments/{id}/refund`, `/payments/{id}/cancel/x`) is served by that route.',
  'wrong-method-answers-404':
    'The method is part of route matching: a known route called with a method it does not bind answers 404 not_found instead of 405.',
  'delete-payment-cancels':
    'DELETE /payments/{id} is wired to cancelPayment (an undocumented alias): it cancels the Payment instead of answering 405.',
  'no-allow-header-on-405':
    '405 method_not_allowed answers carry no Allow header.',
} as const satisfies Readonly<Record<string, string>>;

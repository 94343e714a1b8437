/**
 * Negative controls: not bugs of the service, but what stock infrastructure in
 * front of a conformant one does to probes that step outside ordinary HTTP.
 * The suite must raise nothing against them (no FAIL, WARN, ERROR or FLAKY):
 * those answers are observed, never judged by the rules about API answers.
 */

export const INFRASTRUCTURE_CONTROLS = {
  'front-node-default-limits':
    'Malformed or oversized requests are answered the way a plain node:http server does by default (an empty 400 or 431, then the connection closes), not with the error envelope.',
  'front-html-errors':
    'A front end in the way of nginx\'s defaults: TRACE answered 405 and an Authorization header over 8 KiB answered 400 "Request Header Or Cookie Too Large", both as text/html.',
} as const satisfies Readonly<Record<string, string>>;

/**
 * The one table of the tool's errors: every error it raises or prints has a stable code here, a
 * one-line meaning, what it leads to and the exit status it leads to, if any. Every error class
 * takes its code from this table (test/architecture/error-codes.test.ts scans for it), and
 * docs/errors.md is generated from it (`npm run docs:errors`, cli/write-errors-doc.ts).
 *
 * A leaf: it imports nothing, so every folder may import it, the webhook sink included (which
 * imports nothing else of the suite; test/architecture/import-directions.test.ts, LEAF_FILES).
 * The reference implementations' own errors (references/service/, references/receiver/, docs/examples/) are the
 * API's answers of the code under test, not the tool's errors: they are not in this table.
 */

/** Exit statuses, one meaning each (README, "What the output means"; docs/certify-a-service.md). */
export const EXIT = {
  conformant: 0, notConformant: 1, usage: 2, target: 3, requireUnmet: 4, reportFallback: 5, incomplete: 6,
  interrupted: 130, terminated: 143,
} as const;

export const EXIT_MEANING: Readonly<Record<keyof typeof EXIT, string>> = {
  conformant: 'conformant (the merchant side: the program certified)',
  notConformant: 'not conformant: a MUST rule failed, or --strict / --min-must-coverage failed the verdict',
  usage: 'bad usage or bad profile (one line naming the field), or an internal error',
  target: 'the target could not be reached or answered garbage',
  requireUnmet: 'no MUST rule failed, but a class --require names is not conformant or was not tested',
  reportFallback: 'the report directory failed during the run (the results went to a fallback directory, named on stderr)',
  incomplete: 'incomplete: nothing failed, but a testable MUST rule did not run or was not proven',
  interrupted: 'interrupted by SIGINT (the results so far written, marked partial)',
  terminated: 'interrupted by SIGTERM (the results so far written, marked partial)',
};

export type ErrorFamily = 'harness' | 'target' | 'rule' | 'load' | 'sink' | 'internal';

export interface ErrorCodeEntry {
  readonly family: ErrorFamily;
  /** What happened, in one line. */
  readonly meaning: string;
  /** What it leads to: the error class that carries it, and the outcome (a rule status, a count, a message). */
  readonly leadsTo: string;
  /** The exit status it leads to when it ends the command; null when it does not end it by itself. */
  readonly exit: number | null;
}

export const ERROR_CODES = {
  HPS_ERR_USAGE: {
    family: 'harness',
    meaning: 'bad usage: an option, an argument or a file named on the command line is wrong',
    leadsTo: 'HarnessError: one line, the command ends',
    exit: EXIT.usage,
  },
  HPS_ERR_PROFILE: {
    family: 'harness',
    meaning: 'the profile is not valid (syntax, schema, a field out of range): one line naming the field',
    leadsTo: 'HarnessError: one line per problem, the command ends',
    exit: EXIT.usage,
  },
  HPS_ERR_PROFILE_ENV: {
    family: 'harness',
    meaning: 'a ${VAR} of the profile, or a --key-env variable, is not set',
    leadsTo: 'HarnessError: one line naming the variable',
    exit: EXIT.usage,
  },
  HPS_ERR_PROFILE_KEY: {
    family: 'harness',
    meaning: 'a profile key the service does not take as the profile says it should (wrong, rotated, other environment); for `proxy`, ' +
      'HPS_API_KEY refused by --upstream',
    leadsTo: 'HarnessError at the preflight, naming the field (or HPS_API_KEY)',
    exit: EXIT.usage,
  },
  HPS_ERR_KEY_REJECTED: {
    family: 'harness',
    meaning: 'a profile key refused during the run (rotated, revoked)',
    leadsTo: 'TransportError: the tests using it end as ERROR; HarnessError when it ends the command',
    exit: EXIT.usage,
  },
  HPS_ERR_SINK: {
    family: 'harness',
    meaning: 'the webhook sink could not start (bad options, listen failed, its log unusable)',
    leadsTo: 'HarnessError: one line, the command ends',
    exit: EXIT.usage,
  },
  HPS_ERR_SUITE: {
    family: 'harness',
    meaning: 'a suite file could not be loaded or the suite session failed',
    leadsTo: 'HarnessError: one line, the command ends',
    exit: EXIT.usage,
  },
  HPS_ERR_REPORT: {
    family: 'harness',
    meaning: 'a report could not be read (size, depth, schema) or written anywhere',
    leadsTo: 'HarnessError: one line with the path or JSON path',
    exit: EXIT.usage,
  },
  HPS_ERR_TARGET_UNREACHABLE: {
    family: 'target',
    meaning: 'the target did not answer (refused, reset, DNS, TLS)',
    leadsTo: 'TransportError: the rule test ERROR; HarnessError at the preflight',
    exit: EXIT.target,
  },
  HPS_ERR_TARGET_REFUSED: {
    family: 'target',
    meaning: 'the connection was refused (ECONNREFUSED): nothing listens at the base URL\'s host and port; check the URL and ' +
      'that the service is up',
    leadsTo: 'HarnessError at the preflight; in a rule test, HPS_ERR_TARGET_UNREACHABLE with the same line',
    exit: EXIT.target,
  },
  HPS_ERR_TLS_SELF_SIGNED: {
    family: 'target',
    meaning: 'the target\'s TLS certificate is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT, SELF_SIGNED_CERT_IN_CHAIN): give it, or ' +
      'its CA, with --ca FILE (or network.ca)',
    leadsTo: 'HarnessError at the preflight; in a rule test, HPS_ERR_TARGET_UNREACHABLE with the same line',
    exit: EXIT.target,
  },
  HPS_ERR_TLS_UNKNOWN_CA: {
    family: 'target',
    meaning: 'the target\'s TLS certificate is issued by a CA not trusted here (UNABLE_TO_VERIFY_LEAF_SIGNATURE, ' +
      'UNABLE_TO_GET_ISSUER_CERT_LOCALLY): give that CA with --ca FILE (or network.ca)',
    leadsTo: 'HarnessError at the preflight; in a rule test, HPS_ERR_TARGET_UNREACHABLE with the same line',
    exit: EXIT.target,
  },
  HPS_ERR_TLS_EXPIRED: {
    family: 'target',
    meaning: 'the target\'s TLS certificate has expired or is not valid yet (CERT_HAS_EXPIRED, CERT_NOT_YET_VALID): renew it at ' +
      'the target (no option accepts it), or check the clock',
    leadsTo: 'HarnessError at the preflight; in a rule test, HPS_ERR_TARGET_UNREACHABLE with the same line',
    exit: EXIT.target,
  },
  HPS_ERR_TLS_HOSTNAME: {
    family: 'target',
    meaning: 'the target\'s TLS certificate does not name the base URL\'s host (ERR_TLS_CERT_ALTNAME_INVALID): use a host name ' +
      'it names in the URL (--base-url, base_url)',
    leadsTo: 'HarnessError at the preflight; in a rule test, HPS_ERR_TARGET_UNREACHABLE with the same line',
    exit: EXIT.target,
  },
  HPS_ERR_TLS_CLIENT_CERT: {
    family: 'target',
    meaning: 'the target refused the TLS handshake with an alert, as one requiring a client certificate does (TLS 1.2; over TLS ' +
      '1.3 the refusal comes after the handshake: "other side closed"): --client-cert FILE --client-key FILE',
    leadsTo: 'HarnessError at the preflight; in a rule test, HPS_ERR_TARGET_UNREACHABLE with the same line',
    exit: EXIT.target,
  },
  HPS_ERR_PROXY_REFUSED: {
    family: 'target',
    meaning: 'the HTTP proxy of HTTPS_PROXY refused the CONNECT tunnel to the target (answered other than 200): add the target\'s ' +
      'host to NO_PROXY, or have the proxy allow it',
    leadsTo: 'HarnessError at the preflight; in a rule test, HPS_ERR_TARGET_UNREACHABLE with the same line',
    exit: EXIT.target,
  },
  HPS_ERR_TARGET_GARBAGE: {
    family: 'target',
    meaning: 'the target answered with broken HTTP framing or an unusable answer',
    leadsTo: 'TransportError: the rule test ERROR; HarnessError at the preflight',
    exit: EXIT.target,
  },
  HPS_ERR_TARGET_TIMEOUT: {
    family: 'target',
    meaning: 'no complete answer within the request deadline (head and body)',
    leadsTo: 'TransportError with the figures: the rule test ERROR',
    exit: EXIT.target,
  },
  HPS_ERR_TARGET_OVERSIZE: {
    family: 'target',
    meaning: 'an answer body over the cap (probes.max_response_bytes), declared or received',
    leadsTo: 'TransportError with the figures: the rule test ERROR',
    exit: EXIT.target,
  },
  HPS_ERR_TARGET_THROTTLED: {
    family: 'target',
    meaning: 'the target kept answering 429 past the back-pressure budget',
    leadsTo: 'TransportError: the rule test ERROR',
    exit: EXIT.target,
  },
  HPS_ERR_TARGET_NOT_API: {
    family: 'target',
    meaning: 'a base URL where no /v1 route answers like the API',
    leadsTo: 'HarnessError at the preflight',
    exit: EXIT.target,
  },
  HPS_ERR_INTERNAL: {
    family: 'internal',
    meaning: 'a bug of the tool: a broken invariant, thrown as a plain Error',
    leadsTo: 'printed as `internal error: …` (HPS_DEBUG=1 prints the stack)',
    exit: EXIT.usage,
  },
  HPS_RULE_MISMATCH: {
    family: 'rule',
    meaning: 'a check of a rule test found the target answering otherwise than the rule says',
    leadsTo: 'Mismatch (SetupRefused when the setup was refused): the rule FAIL (MUST), WARN (SHOULD) or INFO',
    exit: null,
  },
  HPS_RULE_SKIPPED: {
    family: 'rule',
    meaning: 'a rule test could not be decided with this profile or target and skipped itself',
    leadsTo: 'SkipRule: the rule SKIP with its reason',
    exit: null,
  },
  HPS_RULE_TIMEOUT: {
    family: 'rule',
    meaning: 'a rule test ran past its time limit',
    leadsTo: 'RuleTimeout: the rule ERROR, "incomplete"',
    exit: null,
  },
  HPS_TIMEOUT: {
    family: 'load',
    meaning: 'load: no complete answer within the request deadline (connecting included)',
    leadsTo: 'ConnectionError: counted by kind in load.json, the connection reopened',
    exit: null,
  },
  HPS_PROTOCOL: {
    family: 'load',
    meaning: 'load: an answer that is not valid HTTP/1.1 (status line, framing, chunking, bytes after the answer)',
    leadsTo: 'ConnectionError: counted by kind in load.json, the connection reopened',
    exit: null,
  },
  HPS_BODY_TOO_LARGE: {
    family: 'load',
    meaning: 'load: an answer head or body over its cap (64 KiB head, 1 MiB body)',
    leadsTo: 'ConnectionError: counted by kind in load.json, the connection reopened',
    exit: null,
  },
  HPS_CONNECTION_CLOSED: {
    family: 'load',
    meaning: 'load: the server (or the generator) closed the connection before the answer was complete',
    leadsTo: 'ConnectionError: counted by kind in load.json, the connection reopened',
    exit: null,
  },
  HPS_BAD_REQUEST: {
    family: 'load',
    meaning: 'load: a request that cannot be sent as given (CR, LF or NUL in a header or path; not plain HTTP)',
    leadsTo: 'ConnectionError: counted by kind in load.json',
    exit: null,
  },
  HPS_BUSY: {
    family: 'load',
    meaning: 'load: a request sent on a connection that already has one in flight (a generator bug)',
    leadsTo: 'ConnectionError: counted by kind in load.json',
    exit: null,
  },
  SINK_BAD_OPTIONS: {
    family: 'sink',
    meaning: 'the webhook sink was given bad options (listen address, endpoints, token)',
    leadsTo: 'SinkError; HPS_ERR_SINK when a run starts the sink',
    exit: EXIT.usage,
  },
  SINK_LISTEN_FAILED: {
    family: 'sink',
    meaning: 'the webhook sink could not listen on its address',
    leadsTo: 'SinkError; HPS_ERR_SINK when a run starts the sink',
    exit: EXIT.usage,
  },
  SINK_LOG: {
    family: 'sink',
    meaning: 'the sink\'s delivery log could not be opened or read (the message names the file)',
    leadsTo: 'SinkError / DeliveryLogError; HPS_ERR_SINK when a run starts the sink',
    exit: EXIT.usage,
  },
  SINK_WAIT_TIMEOUT: {
    family: 'sink',
    meaning: 'fewer deliveries than awaited arrived in time (carries what was seen)',
    leadsTo: 'SinkWaitTimeoutError: the webhook rule test judges what arrived',
    exit: null,
  },
  SINK_CLOSED: {
    family: 'sink',
    meaning: 'the sink was closed while a test waited for deliveries',
    leadsTo: 'SinkClosedError: the waiting rule test ERROR',
    exit: null,
  },
  SINK_QUERY_FAILED: {
    family: 'sink',
    meaning: 'the sink\'s query API could not be queried (unreachable, or not 200 JSON)',
    leadsTo: 'SinkClientError: the waiting rule test ERROR',
    exit: null,
  },
} as const satisfies Record<string, ErrorCodeEntry>;

export type ErrorCode = keyof typeof ERROR_CODES;
type CodeOfFamily<F extends ErrorFamily> = { [C in ErrorCode]: (typeof ERROR_CODES)[C]['family'] extends F ? C : never }[ErrorCode];
/** HarnessError's codes: the harness's and the target's. */
export type HarnessErrorCode = CodeOfFamily<'harness' | 'target'>;
export type LoadErrorCode = CodeOfFamily<'load'>;
export type SinkErrorCode = CodeOfFamily<'sink'>;

/** The exit status an error code leads to when it ends the command. */
export function exitOf(code: HarnessErrorCode): number {
  return ERROR_CODES[code].exit;
}

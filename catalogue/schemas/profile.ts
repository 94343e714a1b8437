/**
 * JSON Schema of the target profile (docs/profile.md), a public
 * contract: extend with optional fields, never rename or remove one.
 */
import { CLASSES } from '../classes.ts';

const testKey = { type: 'string', pattern: '^pt_test_sk_\\S+$' } as const;
const liveKey = { type: 'string', pattern: '^pt_live_sk_\\S+$' } as const;
const nonEmpty = { type: 'string', minLength: 1 } as const;
const decimal = { type: 'string', pattern: '^[0-9]+(\\.[0-9]{1,2})?$' } as const;
/** Service-side conformance classes (docs/classes.md), the values of `require`. */
const serviceClass = { enum: CLASSES.filter((c) => !c.side).map((c) => c.id) } as const;
const eventType = { enum: ['payment.created', 'payment.paid', 'payment.cancelled', 'payment.reversed', 'endpoint.test'] } as const;

export const profileSchema = {
  $id: 'https://hps-conformance.dev/schemas/Profile.json',
  type: 'object',
  required: ['base_url', 'keys'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    /** Conformance classes the verdict requires (`run --require`, docs/classes.md): the CI gate. */
    require: { type: 'array', items: serviceClass, maxItems: 32, uniqueItems: true },
    base_url: { type: 'string', pattern: '^https?://[^\\s/]+(/[^\\s]*)?$' },
    keys: {
      type: 'object',
      required: ['test'],
      additionalProperties: false,
      properties: {
        test: testKey,
        test_read_only: testKey,
        test_write_only: testKey,
        test_revoked: testKey,
        test_rate_limited: testKey,
        live: liveKey,
        other_test: testKey,
        other_live: liveKey,
        live_not_ready: liveKey,
        live_no_credit: liveKey,
      },
    },
    live_receiving: {
      type: 'object',
      required: ['methods', 'channels'],
      additionalProperties: false,
      properties: {
        methods: { type: 'array', uniqueItems: true, items: { enum: ['BKASH', 'NAGAD'] } },
        channels: { type: 'array', uniqueItems: true, items: { enum: ['SEND_MONEY', 'PAYMENT', 'CASH_IN', 'BANK_TRANSFER'] } },
      },
    },
    fixtures: {
      type: 'object',
      additionalProperties: false,
      properties: {
        customer_id: nonEmpty,
        foreign_customer_id: nonEmpty,
        order: {
          type: 'object',
          required: ['id', 'customer_id', 'remaining_due'],
          additionalProperties: false,
          properties: { id: nonEmpty, customer_id: nonEmpty, remaining_due: decimal },
        },
        cancelled_order_id: nonEmpty,
        foreign_order_id: nonEmpty,
        live_customer_id: nonEmpty,
        live_order_id: nonEmpty,
      },
    },
    webhooks: {
      type: 'object',
      required: ['listen', 'endpoints'],
      additionalProperties: false,
      properties: {
        listen: { type: 'string', pattern: '^[^\\s:]+:[0-9]{1,5}$' },
        public_url: { type: 'string', pattern: '^https?://\\S+$' },
        endpoints: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            required: ['path', 'livemode', 'events', 'secret'],
            additionalProperties: false,
            properties: {
              path: { type: 'string', pattern: '^/\\S*$' },
              livemode: { type: 'boolean' },
              events: { anyOf: [{ const: '*' }, { type: 'array', minItems: 1, items: eventType }] },
              secret: { type: 'string', pattern: '^whsec_\\S+$' },
              enabled: { type: 'boolean' },
            },
          },
        },
        time_scale: { type: 'number', exclusiveMinimum: 0 },
        /** Extension: lateness (ms, real time) allowed after a retry's gap before HOOK-RETRY-PUNCTUAL warns. */
        late_tolerance_ms: { type: 'number', minimum: 0 },
        /** Extension: bearer token of the sink's query API (generated per run when absent; required to listen off loopback). */
        query_token: { type: 'string', minLength: 16 },
      },
    },
    control: {
      type: 'object',
      required: ['url', 'token'],
      additionalProperties: false,
      properties: { url: { type: 'string', pattern: '^https?://\\S+$' }, token: nonEmpty },
    },
    /** Merchant side (`hps-conformance receiver`): the webhook endpoint to certify. */
    receiver: {
      type: 'object',
      required: ['url', 'secret'],
      additionalProperties: false,
      properties: {
        url: { type: 'string', pattern: '^https?://\\S+$' },
        secret: { type: 'string', pattern: '^whsec_\\S+$' },
        /** Test-mode inspection contract (docs/merchant-side.md); without it the processing rules are SKIP. */
        inspect_url: { type: 'string', pattern: '^https?://\\S+$' },
      },
    },
    /** Extension: how the target is reached (docs/profile.md, "Network"): extra headers and mutual TLS. */
    network: {
      type: 'object',
      additionalProperties: false,
      properties: {
        /** Headers sent on every request to base_url's origin (an API gateway's own), never anywhere else. */
        headers: {
          type: 'object',
          maxProperties: 32,
          propertyNames: { pattern: '^[!#$%&\'*+.^_`|~0-9A-Za-z-]{1,256}$' },
          additionalProperties: { type: 'string', maxLength: 8192, pattern: '^[^\\r\\n\\x00]*$' },
        },
        /** Names of headers whose values are secrets (redacted like keys); a value from `${ENV}` is added by the loader. */
        redacted_headers: { type: 'array', maxItems: 32, items: nonEmpty },
        /** Mutual TLS: the client certificate and its private key (PEM files), and the CA bundle trusted for the target (PEM). */
        client_cert: nonEmpty,
        client_key: nonEmpty,
        ca: nonEmpty,
        /** true: this target is reached directly, whatever HTTPS_PROXY / HTTP_PROXY say (the embedded reference sets it). */
        direct: { type: 'boolean' },
      },
    },
    probes: {
      type: 'object',
      additionalProperties: false,
      properties: {
        rate_limit_max_requests: { type: 'integer', minimum: 1, maximum: 100000 },
        live_writes: { type: 'boolean' },
        /** Extension: per-request time-out of the suite's client, ms (default 10000). */
        request_timeout_ms: { type: 'integer', minimum: 100, maximum: 600000 },
        /** Extension: cap on every answer body the suite's client reads, bytes (default 8 MiB); past it: a transport error. */
        max_response_bytes: { type: 'integer', minimum: 1024, maximum: 1073741824 },
        /** Extension: cap on the suite's requests per second per API key (`--max-rps`); default: no cap, paced by 429s. */
        max_rps: { type: 'number', exclusiveMinimum: 0, maximum: 100000 },
        /** Extension: rule tests in flight at once against the target (`--concurrency`, default 8). */
        concurrency: { type: 'integer', minimum: 1, maximum: 64 },
        /** Extension: how long the target may stop answering before the rules left are ERROR, s (default 30). */
        outage_budget_s: { type: 'integer', minimum: 1, maximum: 3600 },
        /** Extension: total time the run may wait out 429s (Retry-After), s (default 900). */
        throttle_budget_s: { type: 'integer', minimum: 1, maximum: 86400 },
      },
    },
  },
} as const;

/** Human wording for the schema's patterns, so a bad profile names the rule broken. */
export const PROFILE_PATTERN_MESSAGES: Record<string, string> = {
  [testKey.pattern]: 'must start with pt_test_sk_',
  [liveKey.pattern]: 'must start with pt_live_sk_',
  [decimal.pattern]: 'must be a decimal string such as "1000.00"',
  '^https?://[^\\s/]+(/[^\\s]*)?$': 'must be an http(s) URL such as http://127.0.0.1:4010',
  '^https?://\\S+$': 'must be an http(s) URL',
  '^[^\\s:]+:[0-9]{1,5}$': 'must be host:port, such as 127.0.0.1:4020',
  '^/\\S*$': 'must be a path starting with /',
  '^whsec_\\S+$': 'must start with whsec_',
  "^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$": 'must be an HTTP header name (letters, digits and !#$%&\'*+.^_`|~-)',
  '^[^\\r\\n\\x00]*$': 'must not contain CR, LF or NUL',
};

export interface Profile {
  require?: string[];
  base_url: string;
  keys: {
    test: string;
    test_read_only?: string;
    test_write_only?: string;
    test_revoked?: string;
    test_rate_limited?: string;
    live?: string;
    other_test?: string;
    other_live?: string;
    live_not_ready?: string;
    live_no_credit?: string;
  };
  live_receiving?: { methods: string[]; channels: string[] };
  fixtures?: {
    customer_id?: string;
    foreign_customer_id?: string;
    order?: { id: string; customer_id: string; remaining_due: string };
    cancelled_order_id?: string;
    foreign_order_id?: string;
    live_customer_id?: string;
    live_order_id?: string;
  };
  webhooks?: {
    listen: string;
    public_url?: string;
    endpoints: WebhookEndpoint[];
    time_scale?: number;
    late_tolerance_ms?: number;
    query_token?: string;
  };
  control?: { url: string; token: string };
  receiver?: { url: string; secret: string; inspect_url?: string };
  network?: ProfileNetwork;
  probes?: {
    rate_limit_max_requests?: number;
    live_writes?: boolean;
    request_timeout_ms?: number;
    max_response_bytes?: number;
    max_rps?: number;
    concurrency?: number;
    outage_budget_s?: number;
    throttle_budget_s?: number;
  };
}

/** How the target is reached: extra headers, which of them are secrets, mutual TLS files. */
export interface ProfileNetwork {
  headers?: Record<string, string>;
  redacted_headers?: string[];
  client_cert?: string;
  client_key?: string;
  ca?: string;
  direct?: boolean;
}

export interface WebhookEndpoint {
  path: string;
  livemode: boolean;
  events: '*' | string[];
  secret: string;
  enabled?: boolean;
}

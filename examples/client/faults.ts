/**
 * Planted faults of the example client, selected by HPS_CLIENT_FAULT=name (comma-separated),
 * each registered with the rule ids `hps-conformance client` must make fail (or warn).
 */
import type { RuleId } from '../../catalogue/index.ts';

export const CLIENT_FAULTS = {
  'new-key-per-retry': {
    description: 'Each attempt of a create generates a fresh Idempotency-Key, so a retry after a lost answer creates a second Payment.',
    breaks: ['CLIENT-SAME-IDEMPOTENCY-KEY', 'CLIENT-NO-DUPLICATE-PAYMENT'],
  },
  'no-idempotency-key': {
    description: 'Creates carry no Idempotency-Key at all (it is optional), so a retry after a lost answer creates a second Payment.',
    breaks: ['CLIENT-CREATE-HAS-KEY', 'CLIENT-SAME-IDEMPOTENCY-KEY', 'CLIENT-NO-DUPLICATE-PAYMENT'],
  },
  'ignores-retry-after': {
    description: 'A 429 is retried after the ordinary 100 ms back-off, not after Retry-After.',
    breaks: ['CLIENT-HONOUR-RETRY-AFTER'],
  },
  'retries-cancel-on-503': {
    description: 'Cancels go through the same retry policy as creates, so a cancel is re-sent after a 503.',
    breaks: ['CLIENT-CANCEL-RETRY-ONLY-429'],
  },
  'retries-400': {
    description: 'Every error status is retried, 400 included.',
    breaks: ['CLIENT-NO-RETRY-4XX'],
  },
  'gives-up-after-first-502': {
    description: '502 is treated as final (only 503 and 504 are retried).',
    breaks: ['RECV-CLIENT-RETRY'],
  },
} as const satisfies Record<string, { description: string; breaks: readonly RuleId[] }>;

export type ClientFaultName = keyof typeof CLIENT_FAULTS;
export const CLIENT_FAULT_NAMES = Object.keys(CLIENT_FAULTS) as ClientFaultName[];

export function clientFaultsFrom(value: string | undefined): ReadonlySet<ClientFaultName> {
  const names = (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const n of names) if (!Object.hasOwn(CLIENT_FAULTS, n)) throw new Error(`unknown client fault ${n} (known: ${CLIENT_FAULT_NAMES.join(', ')})`);
  return new Set(names as ClientFaultName[]);
}

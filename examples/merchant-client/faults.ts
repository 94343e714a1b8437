/**
 * Planted faults of the example client, selected by HPS_CLIENT_FAULT=name (comma-separated).
 * The client declares its defects here (name → what is wrong, in one sentence); which rules
 * `hps-conformance client` must make fail is the suite's business (client-cert/faults.ts). A fault
 * is planted as an override named after the defect beside the decision it breaks (client.ts, steps.ts).
 */

export const CLIENT_FAULTS = {
  'new-key-per-retry':
    'Each attempt of a create generates a fresh Idempotency-Key, so a retry after a lost answer creates a second Payment.',
  'no-idempotency-key':
    'Creates carry no Idempotency-Key at all (it is optional), so a retry after a lost answer creates a second Payment.',
  'ignores-retry-after':
    'A 429 is retried after the ordinary 100 ms back-off, not after Retry-After.',
  'backs-off-1s-ignoring-retry-after':
    'A 429 is retried after a fixed 1 s back-off (the first step of common retry libraries), Retry-After never read.',
  'changes-body-on-retry':
    'Each attempt of a create stamps metadata.attempt with its number, so a retry under the same key is another body (409 idempotency_conflict).',
  'retries-cancel-on-500':
    'A cancel answered 500 internal_error is retried (the error table says "retry"), though a cancel is retried only after a 429.',
  'retries-cancel-on-503':
    'Cancels go through the same retry policy as creates, so a cancel is re-sent after a 503.',
  'retries-400':
    'Every error status is retried, 400 included.',
  'gives-up-after-first-502':
    '502 is treated as final (only 503 and 504 are retried).',
} as const satisfies Readonly<Record<string, string>>;

export type ClientFaultName = keyof typeof CLIENT_FAULTS;
export const CLIENT_FAULT_NAMES = Object.keys(CLIENT_FAULTS) as ClientFaultName[];

export function clientFaultsFrom(value: string | undefined): ReadonlySet<ClientFaultName> {
  const names = (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const n of names) if (!Object.hasOwn(CLIENT_FAULTS, n)) throw new Error(`unknown client fault ${n} (known: ${CLIENT_FAULT_NAMES.join(', ')})`);
  return new Set(names as ClientFaultName[]);
}

/**
 * An independent reading of a createPayment body, written from the spec's rules without the
 * generators' code: which fields break which rule. The generators' own specs use it to check that
 * invalidCreateRequest breaks exactly one field and multiViolationRequest exactly `count`.
 * Not part of the public surface.
 */
import { NON_APP_SCHEMES } from './url-parts.ts';

const AMOUNT = /^(0|[1-9][0-9]{0,16})(\.[0-9]{1,2})?$/;
const METHODS = ['BKASH', 'NAGAD'];
const CHANNELS = ['SEND_MONEY', 'PAYMENT', 'CASH_IN', 'BANK_TRANSFER'];
const KNOWN = [
  'amount', 'description', 'merchant_reference', 'external_id', 'return_url', 'metadata',
  'allowed_methods', 'allowed_channels', 'customer_id', 'order_id', 'context_items',
];

function returnUrlRules(v: string): string[] {
  let url: URL | null = null;
  try {
    url = new URL(v);
  } catch {
    return ['CREATE-RETURN-URL-NOT-HTTPS'];
  }
  const scheme = url.protocol.slice(0, -1);
  if (['javascript', 'data', 'file', 'intent'].includes(scheme)) return ['CREATE-RETURN-URL-FORBIDDEN-SCHEME'];
  if (scheme === 'http') return ['CREATE-RETURN-URL-NOT-HTTPS'];
  if (scheme === 'https' && /^https:\/\/[a-z0-9.-]+(:[0-9]+)?([/?#]|$)/.test(v)) return [];
  if (scheme.length >= 3 && /^[a-z][a-z0-9.-]*:\/\/[a-z0-9-]/.test(v) && !NON_APP_SCHEMES.includes(scheme)) return [];
  return ['BORDERLINE'];
}

function enumListRules(v: unknown, members: string[], rule: string): string[] {
  if (!Array.isArray(v)) return [rule, 'CREATE-WRONG-TYPE'];
  if (v.some((e) => typeof e !== 'string' || !members.includes(e))) return [rule];
  if (v.length === 0 || new Set(v).size !== v.length) return ['BORDERLINE'];
  return [];
}

/** slot -> the rules that slot breaks (a slot that breaks none is absent). */
export function bodyViolations(body: Record<string, unknown>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const put = (slot: string, rules: string[]) => {
    if (rules.length > 0) out[slot] = rules;
  };
  const has = (k: string) => Object.prototype.hasOwnProperty.call(body, k);

  if (!has('amount')) put('amount', ['CREATE-AMOUNT-MISSING']);
  else if (typeof body.amount !== 'string') put('amount', ['CREATE-AMOUNT-NOT-STRING', 'CREATE-WRONG-TYPE']);
  else if (!AMOUNT.test(body.amount) || /^0(\.0+)?$/.test(body.amount)) put('amount', ['CREATE-AMOUNT-INVALID']);

  for (const f of ['description', 'merchant_reference', 'external_id']) {
    if (has(f) && typeof body[f] !== 'string') put(f, ['CREATE-WRONG-TYPE']);
  }
  for (const f of ['customer_id', 'order_id']) {
    if (has(f)) put(f, typeof body[f] === 'string' ? ['NEEDS-FIXTURE'] : ['CREATE-WRONG-TYPE']);
  }
  if (has('return_url')) put('return_url', typeof body.return_url === 'string' ? returnUrlRules(body.return_url) : ['CREATE-WRONG-TYPE']);
  if (has('metadata')) {
    const m = body.metadata;
    if (m === null || typeof m !== 'object' || Array.isArray(m)) put('metadata', ['CREATE-WRONG-TYPE']);
    else {
      const entries = Object.entries(m);
      const rules: string[] = [];
      if (entries.length > 20) rules.push('CREATE-METADATA-TOO-MANY-KEYS');
      if (entries.some(([k]) => k.length > 64)) rules.push('CREATE-METADATA-KEY-TOO-LONG');
      if (entries.some(([, v]) => typeof v === 'string' && v.length > 500)) rules.push('CREATE-METADATA-VALUE-TOO-LONG');
      if (entries.some(([, v]) => typeof v !== 'string')) rules.push('CREATE-METADATA-NOT-STRINGS');
      put('metadata', rules);
    }
  }
  if (has('allowed_methods')) put('allowed_methods', enumListRules(body.allowed_methods, METHODS, 'CREATE-ALLOWED-METHODS-INVALID'));
  if (has('allowed_channels')) put('allowed_channels', enumListRules(body.allowed_channels, CHANNELS, 'CREATE-ALLOWED-CHANNELS-INVALID'));
  if (has('context_items')) put('context_items', ['CREATE-CONTEXT-ITEMS-REJECTED']);
  for (const k of Object.keys(body)) if (!KNOWN.includes(k)) put(k, ['UNKNOWN-FIELD']);
  return out;
}

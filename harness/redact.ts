/**
 * Secrets never reach a report, a log or an error message: API keys, signing
 * secrets and the control token are cut to their prefix and last 4.
 */
const SECRET_SHAPE = /\b(pt_(?:test|live)_sk_|whsec_)([A-Za-z0-9_\-]+)/g;

export function redactSecret(value: string): string {
  const m = /^(pt_(?:test|live)_sk_|whsec_)(.*)$/.exec(value);
  if (m) return `${m[1]}…${m[2]!.slice(-4)}`;
  if (value.length <= 8) return '…';
  return `…${value.slice(-4)}`;
}

/** Redacts key-shaped strings and any extra secret (e.g. a control token) in free text. */
export function redactText(text: string, extraSecrets: readonly string[] = []): string {
  let out = text.replace(SECRET_SHAPE, (_all, prefix: string, rest: string) => `${prefix}…${rest.slice(-4)}`);
  for (const s of extraSecrets) {
    if (s.length >= 6) out = out.split(s).join(redactSecret(s));
  }
  return out;
}

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

export function redactHeaders(headers: Record<string, string>, extraSecrets: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (SECRET_HEADERS.has(k.toLowerCase())) {
      const m = /^(\S+)\s+(.+)$/.exec(v);
      out[k] = m ? `${m[1]} ${redactSecret(m[2]!)}` : redactSecret(v);
    } else {
      out[k] = redactText(v, extraSecrets);
    }
  }
  return out;
}

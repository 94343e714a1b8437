/**
 * The one way a Client is built from a profile: the profile's base URL (or another URL the
 * profile names, e.g. control.url), every secret of the profile to redact, and the profile's
 * bounds on a request (probes.request_timeout_ms, probes.max_response_bytes; defaults otherwise),
 * and, to base_url's origin only, how it is reached (network: headers, mutual TLS).
 */
import { Client, DEFAULT_TIMEOUT_MS, type ClientOptions } from './client.ts';
import { profileSecrets, type Profile } from './profile.ts';

export interface ClientForProfileOptions {
  /** Where to send requests instead of base_url (a URL of the same profile: control.url). */
  baseUrl?: string;
  onExchange?: ClientOptions['onExchange'];
  /** false: a 401 on a profile key is an answer like any other (the preflight judges keys itself). */
  checkKeys?: boolean;
}

function sameOrigin(a: string, b: string): boolean {
  return URL.canParse(a) && URL.canParse(b) && new URL(a).origin === new URL(b).origin;
}

export function clientForProfile(profile: Profile, o: ClientForProfileOptions = {}): Client {
  return new Client({
    baseUrl: o.baseUrl ?? profile.base_url,
    secrets: profileSecrets(profile),
    timeoutMs: profile.probes?.request_timeout_ms ?? DEFAULT_TIMEOUT_MS,
    maxResponseBytes: profile.probes?.max_response_bytes,
    outageBudgetMs: (profile.probes?.outage_budget_s ?? 30) * 1000,
    workingKeys: o.checkKeys === false ? new Map() : new Map(Object.entries(profile.keys).filter(([field, key]) => field !== 'test_revoked' && typeof key === 'string').map(([field, key]) => [key as string, field])),
    ...(o.onExchange ? { onExchange: o.onExchange } : {}),
    // The gateway headers, proxy choice and client certificate are the target's: base_url's origin only.
    ...(profile.network && sameOrigin(o.baseUrl ?? profile.base_url, profile.base_url) ? { network: profile.network } : {}),
  });
}

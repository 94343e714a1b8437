/**
 * One request before anything runs (`run`, `load`): GET /v1/payments?limit=1 with the Test key,
 * through the suite's client (undici: bounded by the profile's deadline and size cap, TLS
 * certificates verified). A target that cannot be reached, or answers something that is not
 * JSON, stops the command with exit 3 (HPS_ERR_TARGET_*) and one line saying which (the body's
 * first characters quoted, redacted here: a target may echo the key).
 */
import { TransportError } from '../core/client.ts';
import { clientForProfile } from '../core/client-for-profile.ts';
import { HarnessError } from '../core/errors.ts';
import { profileSecrets, type Profile } from '../core/profile.ts';
import { redactText, stripUserInfo } from '../core/redact.ts';

export async function preflight(profile: Profile): Promise<void> {
  const client = clientForProfile(profile);
  const target = stripUserInfo(profile.base_url);
  let res;
  try {
    res = await client.listPayments(profile.keys.test, { limit: 1 });
  } catch (e) {
    if (e instanceof TransportError) {
      const how = e.code === 'HPS_ERR_TARGET_UNREACHABLE' ? 'could not be reached' : 'did not answer usably';
      throw new HarnessError(e.code, `target ${target} ${how}: ${e.message}`);
    }
    throw e;
  }
  if (res.json === undefined || typeof res.json !== 'object' || res.json === null) {
    throw new HarnessError('HPS_ERR_TARGET_GARBAGE', `target ${target} answered GET /v1/payments with ${res.status} and a body that is not JSON (${JSON.stringify(redactText(res.text.slice(0, 60), profileSecrets(profile)))})`);
  }
}

/** Hand-written on the built-in fetch, no retry at all (with a key per create and a time-out): nothing is retried. */
import { runScenario } from './scenario.ts';

await runScenario((baseUrl, apiKey) => {
  const call = async (method: string, path: string, body?: unknown, key?: string) => {
    const headers: Record<string, string> = { authorization: `Bearer ${apiKey}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (key) headers['idempotency-key'] = key;
    const res = await fetch(
      `${baseUrl}${path}`,
      { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(2000) },
    );
    if (!res.ok) throw new Error(`answered ${res.status}`);
    return res.json();
  };
  return {
    create: (body, key) => call('POST', '/v1/payments', body, key),
    get: (id) => call('GET', `/v1/payments/${id}`),
    list: (limit) => call('GET', `/v1/payments?limit=${limit}`),
    cancel: (id) => call('POST', `/v1/payments/${id}/cancel`),
  };
});

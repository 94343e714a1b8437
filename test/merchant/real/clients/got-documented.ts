/** got with retry options after the spec's guidance: POST added to the methods, 429/502-504, maxRetryAfter raised above the request time-out; cancels retried on 429 only (no error codes). */
import got from 'got';
import { runScenario } from './scenario.ts';

await runScenario((baseUrl, apiKey) => {
  const http = got.extend({
    headers: { authorization: `Bearer ${apiKey}` },
    timeout: { request: 2000 },
    retry: { limit: 4, methods: ['GET', 'POST'], statusCodes: [429, 502, 503, 504], maxRetryAfter: 60_000 },
  });
  return {
    create: (body, key) => http.post(`${baseUrl}/v1/payments`, { json: body, headers: { 'idempotency-key': key } }).json(),
    get: (id) => http.get(`${baseUrl}/v1/payments/${id}`).json(),
    list: (limit) => http.get(`${baseUrl}/v1/payments?limit=${limit}`).json(),
    cancel: (id) => http.post(`${baseUrl}/v1/payments/${id}/cancel`, { retry: { statusCodes: [429], errorCodes: [] } }).json(),
  };
});

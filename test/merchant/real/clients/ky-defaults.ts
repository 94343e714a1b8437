/** ky with its defaults (retry limit 2, no POST): a create answered 503 is never retried. */
import ky from 'ky';
import { runScenario } from './scenario.ts';

await runScenario((baseUrl, apiKey) => {
  const http = ky.create({ headers: { authorization: `Bearer ${apiKey}` } });
  return {
    create: (body, key) => http.post(`${baseUrl}/v1/payments`, { json: body, headers: { 'idempotency-key': key } }).json(),
    get: (id) => http.get(`${baseUrl}/v1/payments/${id}`).json(),
    list: (limit) => http.get(`${baseUrl}/v1/payments?limit=${limit}`).json(),
    cancel: (id) => http.post(`${baseUrl}/v1/payments/${id}/cancel`).json(),
  };
});

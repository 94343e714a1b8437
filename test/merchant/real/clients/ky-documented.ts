/** ky with retry options after the spec's guidance: POST added, 429/502-504, Retry-After on 429 and 503, retry on its own time-out; cancels retried on a 429 only (shouldRetry answers false for anything else, and undefined for a 429 so ky's own Retry-After handling applies). */
import ky, { isHTTPError } from 'ky';
import { runScenario } from './scenario.ts';

await runScenario((baseUrl, apiKey) => {
  const http = ky.create({
    headers: { authorization: `Bearer ${apiKey}` },
    timeout: 2000,
    retry: {
      limit: 4,
      methods: ['get', 'post'],
      statusCodes: [429, 502, 503, 504],
      afterStatusCodes: [429, 503],
      maxRetryAfter: 60_000,
      retryOnTimeout: true,
    },
  });
  return {
    create: (body, key) => http.post(`${baseUrl}/v1/payments`, { json: body, headers: { 'idempotency-key': key } }).json(),
    get: (id) => http.get(`${baseUrl}/v1/payments/${id}`).json(),
    list: (limit) => http.get(`${baseUrl}/v1/payments?limit=${limit}`).json(),
    cancel: (id) => http.post(
      `${baseUrl}/v1/payments/${id}/cancel`,
      { retry: {
        limit: 4,
        methods: ['post'],
        shouldRetry: ({ error }) => (isHTTPError(error) && error.response.status === 429 ? undefined : false),
      } },
    ).json(),
  };
});

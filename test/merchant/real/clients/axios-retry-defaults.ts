/** axios + axios-retry with its defaults (retries: 3, isNetworkOrIdempotentRequestError): a POST answered 503 is never retried, and any POST meeting a network error is (a cancel too). */
import axios from 'axios';
import axiosRetry from 'axios-retry';
import { runScenario } from './scenario.ts';

await runScenario((baseUrl, apiKey) => {
  const http = axios.create({ baseURL: baseUrl, headers: { authorization: `Bearer ${apiKey}` } });
  axiosRetry(http);
  return {
    create: async (body, key) => (await http.post('/v1/payments', body, { headers: { 'idempotency-key': key } })).data,
    get: async (id) => (await http.get(`/v1/payments/${id}`)).data,
    list: async (limit) => (await http.get(`/v1/payments?limit=${limit}`)).data,
    cancel: async (id) => (await http.post(`/v1/payments/${id}/cancel`)).data,
  };
});

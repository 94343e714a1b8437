/** axios + axios-retry configured after the spec's guidance: creates and reads on resets, time-outs, 429, 502-504; cancels on 429 only; Retry-After honoured by exponentialDelay. */
import axios, { type AxiosError } from 'axios';
import axiosRetry, { exponentialDelay, isNetworkError } from 'axios-retry';
import { runScenario } from './scenario.ts';

const RETRIED = [429, 502, 503, 504];

await runScenario((baseUrl, apiKey) => {
  const http = axios.create({ baseURL: baseUrl, timeout: 2000, headers: { authorization: `Bearer ${apiKey}` } });
  axiosRetry(http, {
    retries: 4,
    shouldResetTimeout: true,
    retryDelay: exponentialDelay,
    retryCondition: (e: AxiosError) => {
      const status = e.response?.status;
      if (/\/cancel$/.test(e.config?.url ?? '')) return status === 429;
      if (status === undefined) return isNetworkError(e) || e.code === 'ECONNABORTED';
      return RETRIED.includes(status);
    },
  });
  return {
    create: async (body, key) => (await http.post('/v1/payments', body, { headers: { 'idempotency-key': key } })).data,
    get: async (id) => (await http.get(`/v1/payments/${id}`)).data,
    list: async (limit) => (await http.get(`/v1/payments?limit=${limit}`)).data,
    cancel: async (id) => (await http.post(`/v1/payments/${id}/cancel`)).data,
  };
});

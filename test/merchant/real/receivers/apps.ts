/**
 * Webhook receivers on real frameworks, as merchants write them, each with its inspection URL:
 *
 *   express-raw-handwritten      express.raw() keeps the bytes; a hand-written HMAC check      conformant
 *   express-json-reserialised    express.json() parses first; the check runs over
 *                                JSON.stringify(req.body): other bytes than were signed         fails RECV-RAW-BODY
 *   fastify-raw-stripe           a Buffer content-type parser; stripe's webhooks.constructEvent
 *                                with the Service-Signature value (same scheme)                conformant
 *   fastify-parsed-stripe        fastify's JSON parser; constructEvent over JSON.stringify(body)  fails RECV-RAW-BODY
 *   express-stores-before-verify express.raw(); the status is stored from the parsed body, then
 *                                the signature is checked and a failure answered 400            fails RECV-REJECTED-NOT-PROCESSED
 */
import express from 'express';
import Fastify from 'fastify';
import Stripe from 'stripe';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Orders, type WebhookEvent } from './orders.ts';
import { verifyServiceSignature } from './verify.ts';

export interface RunningApp {
  url: string;
  inspectUrl: string;
  close(): Promise<void>;
}

export const RECEIVER_APPS = [
  'express-raw-handwritten',
  'express-json-reserialised',
  'fastify-raw-stripe',
  'fastify-parsed-stripe',
  'express-stores-before-verify',
] as const;
export type ReceiverApp = (typeof RECEIVER_APPS)[number];

export function startApp(name: ReceiverApp, secret: string): Promise<RunningApp> {
  switch (name) {
    case 'express-raw-handwritten': return expressApp(secret, 'raw');
    case 'express-json-reserialised': return expressApp(secret, 'json');
    case 'express-stores-before-verify': return expressApp(secret, 'store-first');
    case 'fastify-raw-stripe': return fastifyApp(secret, true);
    case 'fastify-parsed-stripe': return fastifyApp(secret, false);
  }
}

async function expressApp(secret: string, mode: 'raw' | 'json' | 'store-first'): Promise<RunningApp> {
  const orders = new Orders();
  const app = express();
  app.get('/inspect', (_req, res) => void res.json(orders.inspection()));
  if (mode === 'json') {
    app.post('/webhooks', express.json(), (req, res) => {
      const raw = Buffer.from(JSON.stringify(req.body)); // wrong: not the bytes that were signed
      if (!verifyServiceSignature(raw, req.get('service-signature'), secret)) return void res.status(400).json({ error: 'bad signature' });
      orders.handle(req.body as WebhookEvent);
      res.json({ received: true });
    });
  } else {
    app.post('/webhooks', express.raw({ type: 'application/json' }), (req, res) => {
      const raw = req.body as Buffer;
      if (mode === 'store-first') orders.storeStatus(JSON.parse(raw.toString('utf8')) as WebhookEvent); // wrong: state before the check
      if (!verifyServiceSignature(raw, req.get('service-signature'), secret)) return void res.status(400).json({ error: 'bad signature' });
      orders.handle(JSON.parse(raw.toString('utf8')) as WebhookEvent);
      res.json({ received: true });
    });
  }
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: `${base}/webhooks`, inspectUrl: `${base}/inspect`, close: () => new Promise((r) => server.close(() => r())) };
}

async function fastifyApp(secret: string, rawBody: boolean): Promise<RunningApp> {
  const orders = new Orders();
  const stripe = new Stripe('sk_test_unused_for_webhooks');
  const app = Fastify();
  if (rawBody) app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  app.get('/inspect', async () => orders.inspection());
  app.post('/webhooks', async (req, reply) => {
    const payload = rawBody ? (req.body as Buffer) : JSON.stringify(req.body); // the second: not the bytes that were signed
    let event: WebhookEvent;
    try {
      event = stripe.webhooks.constructEvent(payload, String(req.headers['service-signature'] ?? ''), secret) as unknown as WebhookEvent;
    } catch {
      return reply.code(400).send({ error: 'bad signature' });
    }
    orders.handle(event);
    return { received: true };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return { url: `${base}/webhooks`, inspectUrl: `${base}/inspect`, close: () => app.close() };
}

/**
 * Operations that emit events, for the webhooks suites and VERS-EVENT-API-VERSION: a marked
 * Payment and the operations applied to it, each answer kept (data.object must equal it), and the
 * control API that reverses a Payment.
 *
 * Spec: Events › Event types; Control API (PROFILE: optional capability).
 */
import { Client, type ApiResponse } from '../../core/client.ts';
import { profileSecrets } from '../../core/profile.ts';
import type { RuleContext } from '../../service/harness/worker/rule-test.ts';
import { Mismatch } from '../../service/harness/worker/expect.ts';
import { clientForProfile } from '../../core/client-for-profile.ts';

export type Op = 'create' | 'cancel' | 'succeed' | 'helper-cancel' | 'reverse';

/** Operations that emit events (spec table) and the control reversal. */
export const EVENT_OF: Readonly<Record<Op, string>> = {
  create: 'payment.created',
  cancel: 'payment.cancelled',
  succeed: 'payment.paid',
  'helper-cancel': 'payment.cancelled',
  reverse: 'payment.reversed',
};

/** One event the suite caused: which operation, on which Payment, and what the operation answered. */
export interface Emitted {
  op: Op;
  paymentId: string;
  livemode: boolean;
  type: string;
  /** The 201 of create / 200 of the others: what data.object must equal. */
  object: any;
  /** Epoch ms just before the request was sent. */
  sentAt: number;
}

/** A Payment and the events the suite caused on it, in order. */
export interface Story {
  paymentId: string;
  livemode: boolean;
  key: string;
  emitted: Emitted[];
}

/** A control-API client (PROFILE: optional capability, bearer control.token). */
export async function controlRequest(t: RuleContext, method: string, path: string, json?: unknown): Promise<ApiResponse> {
  const control = t.profile.control;
  if (!control) t.skip('profile lacks control');
  const client = clientForProfile(t.profile, { baseUrl: control.url });
  return client.request({ method, path, authorization: `Bearer ${control.token}`, ...(json === undefined ? {} : { json }) });
}

async function send(t: RuleContext, op: Exclude<Op, 'create'>, key: string, id: string): Promise<ApiResponse> {
  switch (op) {
    case 'cancel':
      return t.client.cancelPayment(key, id);
    case 'succeed':
      return t.client.simulateSucceeded(key, id);
    case 'helper-cancel':
      return t.client.simulateCancelled(key, id);
    case 'reverse':
      return controlRequest(t, 'POST', `/payments/${encodeURIComponent(id)}/reverse`);
  }
}

/**
 * Creates a marked Payment (with `sink` in its metadata when given) and applies `ops` in order,
 * each asserted to answer 200 (a setup failure, not this rule's). `body` adds create fields.
 */
export async function tell(
  t: RuleContext,
  o: { ops?: readonly Exclude<Op, 'create'>[]; sink?: string; live?: boolean; body?: Record<string, unknown> } = {},
): Promise<Story> {
  const live = o.live === true;
  const key = live ? t.keys.live! : t.keys.test;
  const extra = (o.body?.metadata ?? {}) as Record<string, string>;
  const metadata = t.metadata({ ...extra, ...(o.sink ? { sink: o.sink } : {}) });
  const sentAt = Date.now();
  const created = await t.createPayment({ amount: live ? '10.00' : '100.00', external_id: t.externalId('hook'), ...o.body, metadata }, key);
  // livemode is the key's environment (what the events must carry), not what the target answered.
  const story: Story = {
    paymentId: created.id,
    livemode: live,
    key,
    emitted: [{ op: 'create', paymentId: created.id, livemode: live, type: EVENT_OF.create, object: created, sentAt }],
  };
  for (const op of o.ops ?? []) {
    const at = Date.now();
    const res = await send(t, op, key, created.id);
    if (res.status !== 200) {
      throw new Mismatch(`setup: ${op} on ${created.id} answered ${res.status} ${res.json?.error?.code ?? ''}, expected 200`, { status: 200 }, { status: res.status, body: res.json ?? res.text.slice(0, 200) });
    }
    story.emitted.push({ op, paymentId: created.id, livemode: live, type: EVENT_OF[op], object: res.json, sentAt: at });
  }
  return story;
}

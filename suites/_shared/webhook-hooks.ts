/**
 * The run's webhook sink and the profile's endpoints, for the webhooks suites and
 * VERS-EVENT-API-VERSION: where an event must go, and whether Live Payments may be created.
 */
import type { WebhookEndpoint } from '../../core/profile.ts';
import type { RuleContext } from '../../service/harness/worker/rule-test.ts';
import { suiteContext } from '../../service/harness/worker/suite-context.ts';
import { sinkClient, type SinkClient } from '../../service/sink/index.ts';

export interface Endpoint extends WebhookEndpoint {
  enabled: boolean;
}

export interface Hooks {
  sink: SinkClient;
  endpoints: Endpoint[];
  /** `webhooks.time_scale` (default 1): the target's retry clock runs this much faster. */
  scale: number;
}

/** The run's sink and the profile's endpoints; SKIP when the run has no sink. */
export function hooks(t: RuleContext): Hooks {
  const w = t.profile.webhooks;
  if (!w) t.skip('profile lacks webhooks');
  if (!t.sinkUrl) t.skip('this run has no webhook sink (the runner starts one when the selection has webhook rules)');
  return {
    sink: sinkClient(t.sinkUrl, { requestTimeoutMs: 10_000, token: suiteContext().sinkToken ?? undefined }),
    endpoints: w.endpoints.map((e) => ({ ...e, enabled: e.enabled !== false })),
    scale: w.time_scale ?? 1,
  };
}

/** Enabled endpoints of that environment subscribed to that type: where an event must go. */
export function subscribers(h: Hooks, livemode: boolean, type: string): Endpoint[] {
  return h.endpoints.filter((e) => e.enabled && e.livemode === livemode && (e.events === '*' || e.events.includes(type)));
}

/** An enabled endpoint of the environment subscribed to every type (the reference point of quiet periods). */
export function allTypesEndpoint(h: Hooks, livemode: boolean): Endpoint | undefined {
  return h.endpoints.find((e) => e.enabled && e.livemode === livemode && e.events === '*');
}

export function endpointAt(h: Hooks, path: string): Endpoint | undefined {
  return h.endpoints.find((e) => e.path === path);
}

/** Whether Live Payments may be created (PROFILE: never unless probes.live_writes). */
export function liveWrites(t: RuleContext): boolean {
  return Boolean(t.keys.live && t.profile.probes?.live_writes === true);
}

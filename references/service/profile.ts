/** The profile JSON the reference writes for the suite (docs/profile.md). */

export interface ProfileEndpoint {
  path: string;
  livemode: boolean;
  events: '*' | string[];
  secret: string;
  enabled?: boolean;
}

export interface ReferenceProfile {
  base_url: string;
  keys: {
    test: string;
    test_read_only: string;
    test_write_only: string;
    test_revoked: string;
    test_rate_limited: string;
    live: string;
    other_test: string;
    other_live: string;
    live_not_ready: string;
    live_no_credit: string;
  };
  live_receiving: { methods: string[]; channels: string[] };
  fixtures: {
    customer_id: string;
    foreign_customer_id: string;
    order: { id: string; customer_id: string; remaining_due: string };
    cancelled_order_id: string;
    foreign_order_id: string;
    live_customer_id: string;
    live_order_id: string;
  };
  webhooks: {
    listen: string;
    public_url: string;
    endpoints: ProfileEndpoint[];
    time_scale: number;
  };
  control: { url: string; token: string };
  probes: { rate_limit_max_requests: number; live_writes: boolean };
}

export type ProfileKeyName = keyof ReferenceProfile['keys'];

/**
 * Every exchange of one test, watched: the ambient checks (core/ambient.ts) and the Payment views
 * (service/harness/worker/payment-views.ts), attributed to the test's rule; probes outside ordinary HTTP (observed
 * only); the Test Payments it created (cancelled when its file ends).
 */
import { checkExchange } from '../../../core/ambient.ts';
import { livemodeOfKey } from '../../../core/api-key.ts';
import { resetClientState, type ApiResponse, type Exchange, type RequestOptions } from '../../../core/client.ts';
import type { Finding, HpsMeta, OutsideHttpAnswer } from '../../../core/evidence.ts';
import { checkPaymentViews, PaymentViews } from './payment-views.ts';
import { onNewRun } from './run-scoped.ts';

const seenRequestIds = new Set<string>();
/** Every Payment view of the run in this worker (service/harness/worker/payment-views.ts). */
const paymentViews = new PaymentViews();
onNewRun(() => {
  seenRequestIds.clear();
  paymentViews.clear();
  resetClientState();
});

/** Ambient findings kept per test and rule (the rest are counted, not stored). */
const AMBIENT_KEPT_PER_RULE = 3;
const OUTSIDE_HTTP_KEPT = 20;

/**
 * Watches every exchange of one test: ambient checks (attributed to this rule
 * and test), probes outside ordinary HTTP (observed only), created Payments
 * (cancelled at the end of the file).
 */
export class ExchangeTracker {
  requests = 0;
  private readonly ambient: Finding[] = [];
  private readonly perRule = new Map<string, number>();
  private readonly checked: Record<string, number> = {};
  constructor(
    private readonly rule: string,
    private readonly title: string,
    private readonly meta: HpsMeta,
    private readonly created: Map<string, string>,
  ) {}

  onExchange(ex: Exchange, res: ApiResponse | undefined, req: RequestOptions): void {
    this.requests++;
    if (req.outsideHttp) return this.observeOutside(req.outsideHttp, ex, res);
    if (!res) return;
    const key = req.authorization === undefined ? req.key ?? undefined : undefined;
    const keyLivemode = livemodeOfKey(key);
    // As sent (core/client.ts wireOf): the option, or the header given as is; the recorded headers are redacted on read.
    const idempotent = req.idempotencyKey !== undefined || (req.headers !== undefined && 'idempotency-key' in req.headers);
    const count = (r: string) => (this.checked[r] = (this.checked[r] ?? 0) + 1);
    const answer = { method: ex.request.method, path: ex.request.path, sentAt: Date.parse(ex.at), answeredAt: Date.now() };
    const input = { method: ex.request.method, path: ex.request.path, keyLivemode, idempotent };
    const findings = checkExchange(input, res, seenRequestIds, count);
    for (const f of [...findings, ...checkPaymentViews(paymentViews, answer, res, count)]) {
      const n = this.perRule.get(f.rule) ?? 0;
      this.perRule.set(f.rule, n + 1);
      if (n < AMBIENT_KEPT_PER_RULE) this.ambient.push({ ...f, source: { rule: this.rule, test: this.title } });
    }
    const createdTest = res.status === 201 && ex.request.method === 'POST' && /^\/v1\/payments$/.test(ex.request.path);
    if (createdTest && res.json?.id && res.json.livemode === false) {
      if (key) this.created.set(res.json.id, key);
    }
  }

  private observeOutside(reason: string, ex: Exchange, res: ApiResponse | undefined): void {
    const list = (this.meta.outsideHttp ??= []);
    if (list.length >= OUTSIDE_HTTP_KEPT) return;
    const contentType = res?.headers['content-type'] ?? null;
    const envelope = res !== undefined && typeof res.json?.error?.code === 'string';
    list.push({
      reason,
      request: `${ex.request.method} ${ex.request.path.slice(0, 80)}`,
      status: res?.status ?? null,
      content_type: contentType,
      answered_by: answeredBy(res, envelope, contentType),
    });
  }

  finish(): void {
    if (this.ambient.length) this.meta.ambient = this.ambient;
    if (Object.keys(this.checked).length) this.meta.ambientChecked = this.checked;
  }
}

/** Who answered a probe outside ordinary HTTP: the service (its Error envelope), the infrastructure (a non-JSON error), or unknown. */
function answeredBy(res: ApiResponse | undefined, envelope: boolean, contentType: string | null): OutsideHttpAnswer['answered_by'] {
  if (!res) return 'no answer';
  if (envelope) return 'service';
  return res.status >= 400 && !/json/i.test(contentType ?? '') ? 'infrastructure' : 'unknown';
}

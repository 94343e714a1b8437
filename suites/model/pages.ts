/**
 * MODEL-SEQUENCES' page walk: listPayments with `created_from` at the sequence's first Payment in
 * the key's business and environment (`created_to` a second after its last) (and `status=` of any status, or none), paged by
 * `starting_after` set to each page's last id (the spec's mechanism; LIST-PAGINATION-COMPLETE),
 * interleaved with the sequence's creates and moves. Other runs and sequences create in the same
 * window, so the model judges what it knows: each of its Payments in the window that matches the
 * filter is listed exactly once, with the model's status; no Payment is listed twice; every listed
 * Payment has the filtered status. A walk that reaches its page bound with has_more still true
 * judges no absence (only what it saw).
 */
import { short } from '../../service/harness/worker/expect.ts';
import { describe, fail, passed, reader, tally, type Cmd, type Handle, type KeyName, type Model, type Real } from './model.ts';

/** Pages a walk reads at most; a walk on from a moved cursor reads fewer (it judges only what it sees). */
const MAX_PAGES = 20;
const CURSOR_PAGES = 5;

interface Walk { readonly seen: Map<string, string>; readonly twice: string[]; readonly complete: boolean; readonly pages: number }

async function walk(r: Real, step: string, key: string, query: Record<string, string>, from?: string, maxPages = MAX_PAGES): Promise<Walk> {
  const seen = new Map<string, string>();
  const twice: string[] = [];
  let after = from;
  for (let page = 1; page <= maxPages; page++) {
    const res = await r.t.client.listPayments(key, { ...query, ...(after === undefined ? {} : { starting_after: after }) });
    if (res.status !== 200 || !Array.isArray(res.json?.data)) {
      fail(r, step, res, `page ${page} answered ${describe(res)}, the model expects 200`, { status: 200 });
    }
    const data = res.json.data as any[];
    for (const p of data) {
      const id = String(p?.id);
      if (seen.has(id)) twice.push(id);
      seen.set(id, String(p?.status));
    }
    if (res.json.has_more !== true || data.length === 0) return { seen, twice, complete: true, pages: page };
    after = String(data[data.length - 1]?.id);
  }
  return { seen, twice, complete: false, pages: maxPages };
}

export class PageCmd implements Cmd {
  /** `key` null: the key that created pN (or A's Test key when that one cannot read). */
  constructor(readonly key: KeyName | null, readonly h: number, readonly status: string | null, readonly limit: number) {}
  check(m: Readonly<Model>): boolean { return m.handles.length > 0; }
  async run(m: Model, r: Real): Promise<void> {
    const keyName = this.key ?? reader(r, m.handles[this.h % m.handles.length]);
    const k = r.keys[keyName]!;
    const mine = m.handles.filter((h): h is Handle & { createdAt: string } => h.scope === k.scope && typeof h.createdAt === 'string');
    if (mine.length === 0) return tally(r, 'pages: no Payment of the model in the key\'s business and environment');
    const times = mine.map((h) => h.createdAt).sort();
    const from = times[0]!;
    // The window ends a second after the sequence's last Payment (whether created_to is inclusive is not shown).
    const last = Date.parse(times[times.length - 1]!);
    const to = Number.isFinite(last) ? new Date(last + 1000).toISOString() : undefined;
    const query = {
      created_from: from, ...(to ? { created_to: to } : {}), limit: String(this.limit), ...(this.status ? { status: this.status } : {}),
    };
    const step = `${this} [${k.scope}, created_from=${from}${to ? `, created_to=${to}` : ''}]`;
    const w = await walk(r, step, k.key, query);
    const problems: string[] = [];
    if (w.twice.length > 0) problems.push(`listed twice: ${short(w.twice)}`);
    if (this.status) {
      const off = [...w.seen].filter(([, s]) => s !== this.status).map(([id, s]) => `${id} ${s}`);
      if (off.length > 0) problems.push(`status=${this.status} listed ${short(off)}`);
    }
    for (const h of mine) {
      const listed = w.seen.get(h.id);
      const matches = this.status === null || h.status === this.status;
      if (listed !== undefined && listed !== h.status) problems.push(`${h.id} listed ${listed}, the model has ${h.status}`);
      else if (listed === undefined && matches && w.complete) problems.push(`${h.id} (${h.status}) not listed`);
      else if (listed !== undefined && !matches) problems.push(`${h.id} (${h.status}) listed under status=${this.status}`);
    }
    if (problems.length > 0) fail(r, step, null, `over ${w.pages} page(s): ${problems.join('; ')}`, { each_once: mine.map((h) => h.id) });
    const kind = w.complete ? 'pages: walked to the end' : 'pages: page bound reached';
    passed(r, `${step} → ${w.pages} page(s), ${w.seen.size} listed`, kind);
  }
  toString(): string { return `pages(${this.key ?? 'own'}, ${this.status ? `status=${this.status}, ` : ''}limit=${this.limit})`; }
}

/**
 * A state change between two reads (LIST-CURSOR-AFTER-CHANGE's kind, inside a sequence): one of the
 * model's PENDING Test Payments is cancelled, then its id is sent as `starting_after` under
 * `status=PENDING`: a cursor is any Payment the key can see, whatever its status now, so the walk
 * goes on (200), lists only PENDING Payments, never the cancelled one, none twice.
 */
export class CursorAfterMoveCmd implements Cmd {
  constructor(readonly h: number) {}
  check(m: Readonly<Model>): boolean { return m.handles.length > 0; }
  async run(m: Model, r: Real): Promise<void> {
    const pending = m.handles.filter((x) => x.status === 'PENDING' && !r.keys[x.key]!.live && typeof x.createdAt === 'string');
    if (pending.length === 0) return tally(r, 'cursor after a move: no PENDING Test Payment');
    const p = pending[this.h % pending.length]!;
    const i = m.handles.indexOf(p);
    const res = await r.t.client.cancelPayment(r.keys[p.key]!.key, p.id);
    const step = `${this} [p${i}=${p.id}]`;
    if (res.status !== 200 || res.json?.status !== 'CANCELLED') {
      fail(r, step, res, `cancel answered ${describe(res)}, the model expects 200 CANCELLED`, { status: 200 });
    }
    p.status = 'CANCELLED';
    const lister = reader(r, p);
    const w = await walk(r, `${step} then status=PENDING&starting_after=${p.id}`, r.keys[lister]!.key,
      { status: 'PENDING', created_from: p.createdAt!, limit: '2' }, p.id, CURSOR_PAGES);
    const problems: string[] = [];
    if (w.twice.length > 0) problems.push(`listed twice: ${short(w.twice)}`);
    const off = [...w.seen].filter(([, st]) => st !== 'PENDING').map(([id, st]) => `${id} ${st}`);
    if (off.length > 0) problems.push(`status=PENDING listed ${short(off)}`);
    if (w.seen.has(p.id)) problems.push(`the cancelled cursor ${p.id} itself was listed`);
    if (problems.length > 0) fail(r, step, null, problems.join('; '), { status: 'PENDING', not: p.id });
    const line = `${step}: cancelled, then status=PENDING after it → ${w.pages} page(s), ${w.seen.size} listed`;
    passed(r, line, 'pages: cursor after its Payment moved');
  }
  toString(): string { return `cursorAfterMove(p${this.h})`; }
}

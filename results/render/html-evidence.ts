/**
 * One piece of evidence as HTML: a mismatch as a structural diff, an exchange pretty-printed with
 * its "copy as curl" line, a counterexample with how far it shrank, a webhook timeline as SVG.
 */
import type { Exchange } from '../../catalogue/report/model.ts';
import { curlOf } from './curl.ts';
import { fragment, html, joinHtml, type Html } from './escape.ts';
import { diffJson, parseJsonBody, prettyJsonHtml, type DiffEntry } from './json-diff.ts';
import type { Evidence, TimelineEvidence } from '../../catalogue/report/model.ts';
import { fmtMs, gapVerdict, timelineSvg } from './timeline-svg.ts';

export interface EvidenceContext {
  ruleId: string;
  /** The rule's reason, printed once above the evidence: a mismatch message equal to it is not repeated. */
  reason?: string;
  baseUrl: string;
}

const short = (v: unknown, max = 160) => {
  if (v === undefined) return '(absent)';
  const s = JSON.stringify(v) ?? String(v);
  return s.length > max ? `${s.slice(0, max)}… (${s.length} chars)` : s;
};

/** The message unless it only repeats the rule's reason. */
function messageOnce(message: string, ctx: EvidenceContext): Html | '' {
  const m = message.startsWith(`${ctx.ruleId}: `) ? message.slice(ctx.ruleId.length + 2) : message;
  if (ctx.reason && (ctx.reason === m || ctx.reason.startsWith(m))) return '';
  return html`<p>${m}</p>`;
}

function diffTable(entries: DiffEntry[], more: number): Html {
  const rows = entries.map((d) => html`<tr class="dk-${d.kind}"><td><code class="path">${d.path}</code></td><td>${short(d.expected)}</td><td>${short(d.actual)}</td></tr>`);
  return html`<table class="diff"><tr><th>differs at</th><th>expected</th><th>actual</th></tr>${rows}${more ? html`<tr><td colspan="3">… and ${more} more path(s)</td></tr>` : ''}</table>`;
}

export function diffHtml(expected: unknown, actual: unknown): Html {
  const { entries, more } = diffJson(expected, actual);
  if (entries.length === 0) return html`<p class="meta">expected and actual are equal: ${short(expected)}</p>`;
  const scalar = (v: unknown) => v === null || typeof v !== 'object';
  if (entries.length === 1 && entries[0]!.path === '$' && !(scalar(expected) && scalar(actual))) {
    // Different in kind (a description of what was expected vs the data seen): no path to point at.
    return html`<div class="cmp"><div><b>expected</b><pre class="json">${prettyJsonHtml(expected)}</pre></div><div><b>actual</b><pre class="json">${prettyJsonHtml(actual)}</pre></div></div>`;
  }
  const paths = new Set(entries.map((e) => e.path));
  const bodies = scalar(expected) && scalar(actual)
    ? ''
    : html`<div class="cmp"><div><b>expected</b><pre class="json">${prettyJsonHtml(
      expected,
      paths,
    )}</pre></div><div><b>actual</b><pre class="json">${prettyJsonHtml(actual, paths)}</pre></div></div>`;
  return html`${diffTable(entries, more)}${bodies}`;
}

function mismatchHtml(e: Extract<Evidence, { kind: 'mismatch' }>, ctx: EvidenceContext): Html {
  const ambient = e.source
    ? html`<p class="ambient-src"><span class="tag" title="An ambient check judges every response the suite received, whichever test sent it">ambient</span> seen in traffic of <a href="${fragment(e.source.rule)}"><code>${e.source.rule}</code></a> (test “${e.source.test}”)</p>`
    : '';
  const msg = e.source ? html`<p>${e.message}</p>` : messageOnce(e.message, ctx);
  const both = e.expected !== undefined && e.actual !== undefined;
  const one = e.expected !== undefined ? ['expected', e.expected] : e.actual !== undefined ? ['actual', e.actual] : undefined;
  const body = both ? diffHtml(
    e.expected,
    e.actual,
  ) : one ? html`<b>${one[0] as string}</b><pre class="json">${prettyJsonHtml(one[1])}</pre>` : '';
  return html`<div class="ev mismatch${e.source ? ' ambient' : ''}">${ambient}${msg}${body}</div>`;
}

function messageText(headers: Record<string, string>, body: string | undefined): Html {
  const h = joinHtml(Object.entries(headers).map(([k, v]) => html`${k}: ${v}`), '\n');
  if (body === undefined || body === '') return h;
  const parsed = parseJsonBody(body);
  return html`${h}\n\n${parsed !== undefined ? prettyJsonHtml(parsed) : body}`;
}

export function exchangeHtml(x: Exchange, baseUrl: string, failing = false): Html {
  const req = html`<b>${x.request.method} ${x.request.path}</b>\n${messageText(x.request.headers, x.request.body)}`;
  const res = x.response ? html`<b>${x.response.status}</b>\n${messageText(
    x.response.headers,
    x.response.body,
  )}` : html`(no answer) ${x.transportError ?? ''}`;
  const curl = curlOf(x, baseUrl);
  return html`<details class="ev exchange${failing ? ' failing' : ''}"${failing ? html` open` : ''}><summary>${failing ? html`<b>the failing exchange</b> ` : ''}exchange #${x.seq}: ${x.request.method} ${x.request.path} → ${x.response?.status ?? 'no answer'} (${x.durationMs} ms)</summary>
<div class="cmp"><div><b class="lbl">request</b><pre>${req}</pre></div><div><b class="lbl">response</b><pre>${res}</pre></div></div>
<div class="curl"><b class="lbl">copy as curl</b> <button type="button" class="copy-btn">copy</button><pre class="copy">${curl.command}</pre>${curl.notes.length ? html`<p class="meta">${joinHtml(curl.notes, ' · ')}</p>` : ''}</div></details>`;
}

function propertyHtml(e: Extract<Evidence, { kind: 'property' }>): Html {
  const parsed = parseJsonBody(e.counterexample);
  const count = e.shrinks !== undefined ? html`<span class="meta"> · shrunk ${e.shrinks} time(s)</span>` : '';
  const shrink = html`${count}${e.shrink_note ? html`<p class="shrink-note"><b>shrinking:</b> ${e.shrink_note}</p>` : ''}`;
  const meta = html`seed ${e.seed} · ${e.runs} runs${e.path ? html` · path ${e.path}` : ''} · replayed: ${e.replayOutcome}`;
  const body = parsed !== undefined ? prettyJsonHtml(parsed) : e.counterexample;
  return html`<div class="ev property"><b>counterexample</b> <span class="meta">${meta}</span>${shrink}\
<pre class="json">${body}</pre></div>`;
}

function timelineHtml(t: TimelineEvidence): Html {
  const rows = t.attempts.map((a, i) => {
    const v = gapVerdict(a, i);
    const expected = a.expected_gap_ms !== undefined ? fmtMs(a.expected_gap_ms) : '—';
    const verdict = v === 'early' ? html`<b>early</b>` : v === 'first' ? 'first' : v;
    return html`<tr class="${v === 'early' ? 'early' : ''}"><td>${i + 1}</td><td>+${fmtMs(a.at_ms)}</td><td>${a.status}</td>\
<td>${i ? fmtMs(a.gap_ms) : '—'}</td><td>${expected}</td><td>${verdict}</td></tr>`;
  });
  return html`<div class="ev timeline"><b>event <code>${t.event_id}</code></b>${t.label ? html` <span class="meta">${t.label}</span>` : ''}<div class="svgwrap">${timelineSvg(t)}</div>
<details><summary>attempts as a table</summary><table class="tests"><tr><th>#</th><th>arrived</th><th>answer</th><th>gap before</th><th>schedule's gap</th><th></th></tr>${rows}</table></details></div>`;
}

export function evidenceHtml(e: Evidence, ctx: EvidenceContext): Html {
  switch (e.kind) {
    case 'mismatch':
      return mismatchHtml(e, ctx);
    case 'exchange':
      return exchangeHtml(e.exchange, ctx.baseUrl, e.failing === true);
    case 'property':
      return propertyHtml(e);
    case 'replay':
      return html`<div class="ev replay"><b>replay</b> <code class="copy">${e.command}</code></div>`;
    case 'note':
      return html`<div class="ev note">${e.message}</div>`;
    case 'timeline':
      return timelineHtml(e);
    default:
      return html`<div class="ev note">unknown evidence: ${short(e, 400)}</div>`;
  }
}

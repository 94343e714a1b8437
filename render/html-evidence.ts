/**
 * One piece of evidence as HTML: a mismatch as a structural diff, an exchange pretty-printed with
 * its "copy as curl" line, a counterexample with how far it shrank, a webhook timeline as SVG.
 */
import type { Exchange } from '../report/model.ts';
import { curlOf } from './curl.ts';
import { esc } from './escape.ts';
import { diffJson, parseJsonBody, prettyJsonHtml, type DiffEntry } from './json-diff.ts';
import type { Evidence, TimelineEvidence } from '../report/model.ts';
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
function messageOnce(message: string, ctx: EvidenceContext): string {
  const m = message.startsWith(`${ctx.ruleId}: `) ? message.slice(ctx.ruleId.length + 2) : message;
  if (ctx.reason && (ctx.reason === m || ctx.reason.startsWith(m))) return '';
  return `<p>${esc(m)}</p>`;
}

function diffTable(entries: DiffEntry[], more: number): string {
  const rows = entries.map((d) => `<tr class="dk-${d.kind}"><td><code class="path">${esc(d.path)}</code></td><td>${esc(short(d.expected))}</td><td>${esc(short(d.actual))}</td></tr>`);
  return `<table class="diff"><tr><th>differs at</th><th>expected</th><th>actual</th></tr>${rows.join('')}${more ? `<tr><td colspan="3">… and ${more} more path(s)</td></tr>` : ''}</table>`;
}

export function diffHtml(expected: unknown, actual: unknown): string {
  const { entries, more } = diffJson(expected, actual);
  if (entries.length === 0) return `<p class="meta">expected and actual are equal: ${esc(short(expected))}</p>`;
  const scalar = (v: unknown) => v === null || typeof v !== 'object';
  if (entries.length === 1 && entries[0]!.path === '$' && !(scalar(expected) && scalar(actual))) {
    // Different in kind (a description of what was expected vs the data seen): no path to point at.
    return `<div class="cmp"><div><b>expected</b><pre class="json">${prettyJsonHtml(expected)}</pre></div><div><b>actual</b><pre class="json">${prettyJsonHtml(actual)}</pre></div></div>`;
  }
  const paths = new Set(entries.map((e) => e.path));
  const bodies = scalar(expected) && scalar(actual)
    ? ''
    : `<div class="cmp"><div><b>expected</b><pre class="json">${prettyJsonHtml(expected, paths)}</pre></div><div><b>actual</b><pre class="json">${prettyJsonHtml(actual, paths)}</pre></div></div>`;
  return `${diffTable(entries, more)}${bodies}`;
}

function mismatchHtml(e: Extract<Evidence, { kind: 'mismatch' }>, ctx: EvidenceContext): string {
  const ambient = e.source
    ? `<p class="ambient-src"><span class="tag" title="An ambient check judges every response the suite received, whichever test sent it">ambient</span> seen in traffic of <a href="#${esc(e.source.rule)}"><code>${esc(e.source.rule)}</code></a> (test “${esc(e.source.test)}”)</p>`
    : '';
  const msg = e.source ? `<p>${esc(e.message)}</p>` : messageOnce(e.message, ctx);
  const both = e.expected !== undefined && e.actual !== undefined;
  const one = e.expected !== undefined ? ['expected', e.expected] : e.actual !== undefined ? ['actual', e.actual] : undefined;
  const body = both ? diffHtml(e.expected, e.actual) : one ? `<b>${one[0]}</b><pre class="json">${prettyJsonHtml(one[1])}</pre>` : '';
  return `<div class="ev mismatch${e.source ? ' ambient' : ''}">${ambient}${msg}${body}</div>`;
}

function messageText(headers: Record<string, string>, body: string | undefined): string {
  const h = Object.entries(headers).map(([k, v]) => `${esc(k)}: ${esc(v)}`).join('\n');
  if (body === undefined || body === '') return h;
  const parsed = parseJsonBody(body);
  return `${h}\n\n${parsed !== undefined ? prettyJsonHtml(parsed) : esc(body)}`;
}

export function exchangeHtml(x: Exchange, baseUrl: string, failing = false): string {
  const req = `<b>${esc(x.request.method)} ${esc(x.request.path)}</b>\n${messageText(x.request.headers, x.request.body)}`;
  const res = x.response ? `<b>${esc(x.response.status)}</b>\n${messageText(x.response.headers, x.response.body)}` : `(no answer) ${esc(x.transportError ?? '')}`;
  const curl = curlOf(x, baseUrl);
  return `<details class="ev exchange${failing ? ' failing' : ''}"${failing ? ' open' : ''}><summary>${failing ? '<b>the failing exchange</b> ' : ''}exchange #${esc(x.seq)}: ${esc(x.request.method)} ${esc(x.request.path)} → ${esc(x.response?.status ?? 'no answer')} (${esc(x.durationMs)} ms)</summary>
<div class="cmp"><div><b class="lbl">request</b><pre>${req}</pre></div><div><b class="lbl">response</b><pre>${res}</pre></div></div>
<div class="curl"><b class="lbl">copy as curl</b> <button type="button" class="copy-btn">copy</button><pre class="copy">${esc(curl.command)}</pre>${curl.notes.length ? `<p class="meta">${curl.notes.map(esc).join(' · ')}</p>` : ''}</div></details>`;
}

function propertyHtml(e: Extract<Evidence, { kind: 'property' }>): string {
  const parsed = parseJsonBody(e.counterexample);
  const count = e.shrinks !== undefined ? `<span class="meta"> · shrunk ${e.shrinks} time(s)</span>` : '';
  const shrink = `${count}${e.shrink_note ? `<p class="shrink-note"><b>shrinking:</b> ${esc(e.shrink_note)}</p>` : ''}`;
  return `<div class="ev property"><b>counterexample</b> <span class="meta">seed ${esc(e.seed)} · ${esc(e.runs)} runs${e.path ? ` · path ${esc(e.path)}` : ''} · replayed: ${esc(e.replayOutcome)}</span>${shrink}<pre class="json">${parsed !== undefined ? prettyJsonHtml(parsed) : esc(e.counterexample)}</pre></div>`;
}

function timelineHtml(t: TimelineEvidence): string {
  const rows = t.attempts.map((a, i) => {
    const v = gapVerdict(a, i);
    return `<tr class="${v === 'early' ? 'early' : ''}"><td>${i + 1}</td><td>+${esc(fmtMs(a.at_ms))}</td><td>${esc(a.status)}</td><td>${i ? esc(fmtMs(a.gap_ms)) : '—'}</td><td>${a.expected_gap_ms !== undefined ? esc(fmtMs(a.expected_gap_ms)) : '—'}</td><td>${v === 'early' ? '<b>early</b>' : v === 'first' ? 'first' : v}</td></tr>`;
  });
  return `<div class="ev timeline"><b>event <code>${esc(t.event_id)}</code></b>${t.label ? ` <span class="meta">${esc(t.label)}</span>` : ''}<div class="svgwrap">${timelineSvg(t)}</div>
<details><summary>attempts as a table</summary><table class="tests"><tr><th>#</th><th>arrived</th><th>answer</th><th>gap before</th><th>schedule's gap</th><th></th></tr>${rows.join('')}</table></details></div>`;
}

export function evidenceHtml(e: Evidence, ctx: EvidenceContext): string {
  switch (e.kind) {
    case 'mismatch':
      return mismatchHtml(e, ctx);
    case 'exchange':
      return exchangeHtml(e.exchange, ctx.baseUrl, e.failing === true);
    case 'property':
      return propertyHtml(e);
    case 'replay':
      return `<div class="ev replay"><b>replay</b> <code class="copy">${esc(e.command)}</code></div>`;
    case 'note':
      return `<div class="ev note">${esc(e.message)}</div>`;
    case 'timeline':
      return timelineHtml(e);
    default:
      return `<div class="ev note">unknown evidence: ${esc(short(e, 400))}</div>`;
  }
}

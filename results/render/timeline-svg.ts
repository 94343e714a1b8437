/**
 * A webhook event's delivery attempts as inline SVG: one dot per attempt (coloured by the
 * receiver's answer), and between dots the measured gap over the schedule's gap, red when the
 * retry came early. Attempts are spaced evenly, not by time: the schedule spans 0 s to 6 h.
 */
import { html, type Html } from './escape.ts';
import type { TimelineEvidence } from '../../catalogue/report/model.ts';

/** Timer granularity: a retry this much before its gap is still on time (suites/webhooks CLOCK_SLACK_MS). */
const EARLY_SLACK_MS = 50;

export function fmtMs(ms: number): string {
  const a = Math.abs(ms);
  if (a < 1000) return `${Math.round(ms)} ms`;
  if (a < 60_000) return `${(ms / 1000).toFixed(a < 10_000 ? 2 : 1)} s`;
  if (a < 3_600_000) return `${(ms / 60_000).toFixed(1)} min`;
  return `${(ms / 3_600_000).toFixed(2)} h`;
}

function statusColour(status: number | string): string {
  const n = typeof status === 'number' ? status : /^\d{3}$/.test(status) ? Number(status) : NaN;
  if (n >= 200 && n < 300) return '#16a34a';
  if (n >= 300 && n < 500) return '#d97706';
  return '#dc2626';
}

export type GapVerdict = 'first' | 'early' | 'on-time' | 'unscheduled';

export function gapVerdict(a: TimelineEvidence['attempts'][number], index: number): GapVerdict {
  if (index === 0) return 'first';
  if (a.expected_gap_ms === undefined) return 'unscheduled';
  return a.gap_ms < a.expected_gap_ms - EARLY_SLACK_MS ? 'early' : 'on-time';
}

export function timelineSvg(t: TimelineEvidence): Html {
  const n = t.attempts.length;
  const step = 110;
  const width = Math.max(160, 40 + (n - 1) * step + 40);
  const y = 44;
  const x = (i: number) => 40 + i * step;
  const parts: Html[] = [];
  t.attempts.forEach((a, i) => {
    if (i > 0) {
      const v = gapVerdict(a, i);
      const colour = v === 'early' ? '#dc2626' : '#64748b';
      parts.push(html`<line x1="${x(i - 1) + 9}" y1="${y}" x2="${x(i) - 9}" y2="${y}" stroke="${colour}" stroke-width="${v === 'early' ? 3 : 2}"/>`);
      parts.push(html`<text x="${(x(i - 1) + x(i)) / 2}" y="${y - 14}" text-anchor="middle" class="gap${v === 'early' ? ' ' +
        'early' : ''}">${fmtMs(a.gap_ms)}</text>`);
      if (a.expected_gap_ms !== undefined) parts.push(html`<text x="${(x(i - 1) + x(i)) / 2}" y="${y + 24}" text-anchor="middle" class="sched">schedule ${fmtMs(a.expected_gap_ms)}</text>`);
    }
    parts.push(html`<circle cx="${x(i)}" cy="${y}" r="8" fill="${statusColour(a.status)}"><title>attempt ${i + 1}: ${a.status} at +${fmtMs(a.at_ms)}</title></circle>`);
    parts.push(html`<text x="${x(i)}" y="${y + 4}" text-anchor="middle" class="n">${i + 1}</text>`);
    parts.push(html`<text x="${x(i)}" y="${y + 42}" text-anchor="middle" class="st">${a.status}</text>`);
  });
  const title = `delivery attempts of ${t.event_id}${t.label ? ` (${t.label})` : ''}`;
  return html`<svg class="timeline" role="img" aria-label="${title}" width="${width}" height="96" viewBox="0 0 ${width} 96" xmlns="http://www.w3.org/2000/svg"><title>${title}</title>${parts}</svg>`;
}

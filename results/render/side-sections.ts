/**
 * The parts of a report page that depend on which side was certified: the headings (a receiver's
 * or client's report is not the service's), why the verdict withholds conformance (report.policy),
 * and the merchant command's exit status and output tail (`client --run`).
 */
import type { Report } from '../../catalogue/report/model.ts';
import { inert } from '../../core/inert.ts';
import { html, type Html } from './escape.ts';
import { md, mdCode } from './md.ts';

/** What `client --run` keeps of the command's output (merchant/client/command.ts). */
const TAIL_BYTES = 64 * 1024;

const HEADING = {
  service: 'Hosted Payment Service API v1 — conformance report',
  receiver: 'Hosted Payment Service API v1 — merchant webhook receiver report',
  client: 'Hosted Payment Service API v1 — merchant API client report',
} as const;

const OBSERVED_HEADING = {
  service: 'What this implementation does where the spec is silent',
  receiver: 'What this receiver does where the spec leaves a receiver free',
  client: 'What this client does where the guidance leaves a client free',
} as const;

export const pageHeading = (r: Report): string => HEADING[r.side ?? 'service'];
export const observedHeading = (r: Report): string => OBSERVED_HEADING[r.side ?? 'service'];

/** "100 runs per property · " for the service side; the merchant side runs no properties. */
export const runsText = (r: Report): string => (r.side === 'receiver' || r.side === 'client' ? '' : `${r.runs} runs per property · `);

/** How many lines of `incomplete_because` a page shows (report.json has them all). */
const MAX_UNPROVEN = 40;

export function policyHtml(r: Report): Html | '' {
  const why = r.policy?.failed_because ?? [];
  const unproven = r.incomplete_because ?? [];
  const policy = why.length ? html`<div class="policy" id="policy"><b>Why the verdict withholds conformance</b><ul>${why.map((w) => html`<li>${w}</li>`)}</ul></div>` : '';
  const incomplete = unproven.length
    ? html`<div class="policy" id="incomplete"><b>Why the verdict is incomplete (nothing failed; not proven yet)</b><ul>${unproven.slice(
      0,
      MAX_UNPROVEN,
    ).map((w) => html`<li>${w}</li>`)}</ul></div>`
    : '';
  return policy || incomplete ? html`${policy}${incomplete}` : '';
}

export function policyMarkdown(r: Report): string[] {
  const why = r.policy?.failed_because ?? [];
  const unproven = (r.incomplete_because ?? []).slice(0, MAX_UNPROVEN);
  return [
    ...(why.length ? ['', '**Why the verdict withholds conformance:**', ...why.map((w) => md`- ${w}`.text)] : []),
    ...(unproven.length ? [
      '',
      '**Why the verdict is incomplete (nothing failed; not proven yet):**',
      ...unproven.map((w) => md`- ${w}`.text),
    ] : []),
  ];
}

export function commandHtml(r: Report): Html | '' {
  const c = r.command;
  if (!c) return '';
  const how = `${c.timed_out ? 'killed at its deadline' : `exit ${c.exit_code ?? 'none (did not start)'}`} ` +
    `after ${(c.duration_ms / 1000).toFixed(1)} s · ${c.output_bytes} bytes of output`;
  const shown = c.output_bytes > TAIL_BYTES ? ` (the last ${TAIL_BYTES / 1024} KiB)` : '';
  const open = c.exit_code !== 0 || c.timed_out;
  return html`<section id="command"><h2>The merchant's command</h2><p><code>${c.line}</code>: ${how}</p>
<details${open ? html` open` : ''}><summary>output${shown}, redacted</summary><pre class="output">${c.output_tail || '(no output)'}</pre></details></section>`;
}

export function commandMarkdown(r: Report): string[] {
  const c = r.command;
  if (!c) return [];
  const fence = '`'.repeat(Math.max(3, ...[...c.output_tail.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  // A fenced block is shown as text (no HTML, no Markdown inside it); the fence outruns any backtick run of the output.
  return [
    '',
    md`**Command** ${mdCode(c.line)}: ${c.timed_out ? 'killed at its ' +
      'deadline' : `exit ${c.exit_code ?? 'none'}`} after ${(c.duration_ms / 1000).toFixed(1)} s`.text,
    '',
    fence,
    inert(c.output_tail.slice(-4096)) || '(no output)',
    fence,
  ];
}

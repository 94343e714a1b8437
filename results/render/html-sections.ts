/**
 * The top of the HTML report, read before any rule: the run and its certificate, failures first
 * with links, a tally per area, and what the implementation does where the spec is silent.
 */
import { certificationStatus } from './certificate.ts';
import { fragment, html, joinHtml, trustedHtml, type Html } from './escape.ts';
import { observedPairs } from './observed.ts';
import { observedHeading } from './side-sections.ts';
import type { CertificateRead, Report, RuleReport, RuleStatus } from '../../catalogue/report/model.ts';

export const STATUSES: readonly RuleStatus[] = ['pass', 'fail', 'warn', 'info', 'skip', 'error', 'flaky'];
const SIDES = { service: 'the API service', receiver: 'a webhook receiver', client: 'an API client' } as const;

export const badge = (s: RuleStatus): Html => html`<span class="badge b-${s}">${String(s).toUpperCase()}</span>`;
export const areaAnchor = (area: string) => `area-${area.replace(/[^A-Za-z0-9_-]/g, '_')}`;

/** Rules with ambient evidence, or a reason counting ambient violations. */
export const hasAmbient = (r: RuleReport) => r.evidence.some((e) => e.kind === 'mismatch' && e.source) || /ambient/.test(r.reason ?? '');

export function certificateHtml(report: Report, cert: CertificateRead | undefined): Html {
  const st = certificationStatus(report, cert);
  const side = report.side ?? 'service';
  const banner = st.certification
    ? html`<p class="cert ok" id="certification">Certification of ${SIDES[side] ?? side}: <b>${cert!.verdict}</b></p>`
    : html`<p class="cert not" id="certification"><b>Not a certification.</b> ${st.reason!.replace(/^not a certification: /, '')}</p>`;
  if (!cert) return banner;
  const rows: Array<[string, string]> = [
    ['tool', `${cert.tool.name} ${cert.tool.version}`],
    ['description document', cert.description_document_version],
    ['base URL', cert.base_url],
    ['seed', String(cert.seed)],
    ['verdict', cert.verdict],
    ['MUST coverage', `${cert.must_coverage.ran} of ${cert.must_coverage.testable} testable (${cert.must_coverage.pct}%)`],
    ['report.json SHA-256', cert.report_sha256],
    ['profile SHA-256 (secrets removed)', cert.profile_sha256 ?? 'none (the merchant side has no profile)'],
    ['classes certified', cert.certified_classes?.length ? cert.certified_classes.join(', ') : 'none'],
    ['signature', cert.signature ? `Ed25519, key ${cert.signature.public_key_sha256}` : 'unsigned'],
  ];
  return html`${banner}<details class="certificate"><summary>certificate.json</summary><table class="kv">${rows.map(([k, v]) => html`<tr><th>${k}</th><td><code>${v}</code></td></tr>`)}</table>
<p class="meta">Check it with <code>hps-conformance verify-certificate DIR --public-key FILE</code> (docs/certificates.md).</p></details>`;
}

function failureItem(r: RuleReport): Html {
  const why = r.reason ?? r.title;
  return html`<li>${badge(r.status)} <a href="${fragment(r.id)}"><code>${r.id}</code></a> <span class="lvl">${r.level}</span> <span class="why">${why.length > 400 ? `${why.slice(0, 400)}…` : why}</span></li>`;
}

export const AMBIENT_NOTE = html`<div class="about" id="about-ambient"><b>“Ambient” findings.</b> Besides its own tests, \
every response the suite receives is checked against the rules that hold for all responses (status codes, headers, error bodies). \
A violation found that way is reported under the rule it breaks, marked <span class="tag">ambient</span>, with the rule and test \
whose traffic produced it when known.</div>`;

export function failuresHtml(report: Report): Html {
  const bad = report.rules.filter((r) => r.status === 'fail' || r.status === 'error' || r.status === 'flaky');
  const warn = report.rules.filter((r) => r.status === 'warn');
  const parts: Html[] = [html`<section id="failures"><h2>Failures first</h2>`];
  if (bad.length) parts.push(html`<ol class="fails">${bad.map(failureItem)}</ol>`);
  else parts.push(html`<p>No rule failed, errored or was flaky.</p>`);
  if (warn.length) parts.push(html`<h3>SHOULD rules not met (warnings)</h3><ol class="fails">${warn.map(failureItem)}</ol>`);
  if (report.rules.some(hasAmbient)) parts.push(AMBIENT_NOTE);
  parts.push(html`</section>`);
  return joinHtml(parts, trustedHtml('\n'));
}

export function tallyHtml(report: Report): Html {
  const areas = [...new Set(report.rules.map((r) => r.area))];
  const rows = areas.map((a) => {
    const rules = report.rules.filter((r) => r.area === a);
    const cells = STATUSES.map((s) => {
      const n = rules.filter((r) => r.status === s).length;
      return html`<td class="${n && (s === 'fail' || s === 'error' || s === 'flaky') ? 'hot' : n ? '' : 'zero'}">${n}</td>`;
    });
    return html`<tr><th><a href="#${areaAnchor(a)}">${a}</a></th>${cells}</tr>`;
  });
  return html`<section id="tally"><h2>Per area</h2><div class="scroll"><table class="tally"><tr><th>area</th>${STATUSES.map((s) => html`<th>${badge(s)}</th>`)}</tr>${rows}</table></div></section>`;
}

export function observedSectionHtml(report: Report): Html | '' {
  const obs = report.rules.filter((r) => r.level === 'OBSERVE' && r.observed && Object.keys(r.observed).length);
  if (!obs.length) return '';
  const items = obs.map((r) => {
    const pairs = observedPairs(r.observed).map(([k, v]) => html`<li><code>${k}</code>: ${v}</li>`);
    return html`<div class="obs"><a href="${fragment(r.id)}"><code>${r.id}</code></a> ${r.title}<ul>${pairs}</ul></div>`;
  });
  return html`<section id="observed"><h2>${observedHeading(report)}</h2>
<p class="meta">OBSERVE rules record behaviour the specification leaves open. They never affect the verdict; compare implementations with <code>hps-conformance report --compare DIR DIR …</code>.</p>
${joinHtml(items, trustedHtml('\n'))}</section>`;
}

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** What the run's own traffic cost as a model client (report.traffic), per area; never part of the verdict. */
export function trafficHtml(report: Report): Html | '' {
  const t = report.traffic;
  if (!t) return '';
  const c = t.total;
  const pace = html`<p class="meta">Pace: ${t.max_rps === null ? 'no cap (paced down by 429s only)' : `at most ${t.max_rps} requests/s ` +
    `per API key`} · ${t.concurrency} rule tests at once per suite worker.</p>`;
  if (c.throttled + c.transport_retries + c.status_retries + c.reruns === 0 && c.outage_wait_ms < 1000) {
    return html`<section id="traffic"><h2>As a model client</h2><p>The target never pushed back: no 429, no retry, no outage.</p>${pace}</section>`;
  }
  const rows = Object.entries(t.areas)
    .filter(([, a]) => a.throttled + a.transport_retries + a.status_retries + a.reruns > 0 || a.outage_wait_ms >= 1000)
    .map(([area, a]) => html`<tr><th>${area}</th><td>${a.throttled}</td><td>${secs(a.throttle_wait_ms)}</td><td>${secs(a.pace_wait_ms)}</td><td>${a.transport_retries}</td><td>${a.status_retries}</td><td>${a.reruns}</td><td>${secs(a.outage_wait_ms)}</td></tr>`);
  return html`<section id="traffic"><h2>As a model client</h2>
<p>The suite handles back-pressure, distance and blips the way the spec's client guidance says (wait <code>Retry-After</code>, retry with the same Idempotency-Key, retry reads after a 502/503/504 or no answer) and never judges them. What that cost:</p>
<div class="scroll"><table class="tally"><tr><th>area</th><th>429s waited out</th><th>Retry-After asked</th><th>waited for the pace</th><th>re-sent after no answer</th><th>re-sent after 502/503/504</th><th>tests run again</th><th>waited for the target</th></tr>${rows}</table></div>
${pace}</section>`;
}

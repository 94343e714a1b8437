/**
 * The top of the HTML report, read before any rule: the run and its certificate, failures first
 * with links, a tally per area, and what the implementation does where the spec is silent.
 */
import { certificationStatus } from './certificate.ts';
import { esc } from './escape.ts';
import { observedPairs } from './observed.ts';
import { observedHeading } from './side-sections.ts';
import type { Certificate, Report, RuleReport, RuleStatus } from '../report/model.ts';

export const STATUSES: readonly RuleStatus[] = ['pass', 'fail', 'warn', 'info', 'skip', 'error', 'flaky'];
const SIDES = { service: 'the API service', receiver: 'a webhook receiver', client: 'an API client' } as const;

export const badge = (s: RuleStatus) => `<span class="badge b-${s}">${s.toUpperCase()}</span>`;
export const areaAnchor = (area: string) => `area-${area.replace(/[^A-Za-z0-9_-]/g, '_')}`;

/** Rules with ambient evidence, or a reason counting ambient violations. */
export const hasAmbient = (r: RuleReport) => r.evidence.some((e) => e.kind === 'mismatch' && e.source) || /ambient/.test(r.reason ?? '');

export function certificateHtml(report: Report, cert: Certificate | undefined): string {
  const st = certificationStatus(report, cert);
  const side = report.side ?? 'service';
  const banner = st.certification
    ? `<p class="cert ok" id="certification">Certification of ${esc(SIDES[side] ?? side)}: <b>${esc(cert!.verdict)}</b></p>`
    : `<p class="cert not" id="certification"><b>Not a certification.</b> ${esc(st.reason!.replace(/^not a certification: /, ''))}</p>`;
  if (!cert) return banner;
  const rows: Array<[string, string]> = [
    ['tool', `${cert.tool.name} ${cert.tool.version}`],
    ['description document', cert.description_document_version],
    ['base URL', cert.base_url],
    ['seed', String(cert.seed)],
    ['verdict', cert.verdict],
    ['MUST coverage', `${cert.must_coverage.ran} of ${cert.must_coverage.testable} testable (${cert.must_coverage.pct}%)`],
    ['report.json SHA-256', cert.report_sha256],
    ['profile SHA-256 (secrets removed)', cert.profile_sha256],
  ];
  return `${banner}<details class="certificate"><summary>certificate.json</summary><table class="kv">${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td><code>${esc(v)}</code></td></tr>`).join('')}</table>
<p class="meta">Check it with <code>hps-conformance verify-certificate DIR</code>.</p></details>`;
}

function failureItem(r: RuleReport): string {
  const why = r.reason ?? r.title;
  return `<li>${badge(r.status)} <a href="#${esc(r.id)}"><code>${esc(r.id)}</code></a> <span class="lvl">${r.level}</span> <span class="why">${esc(why.length > 400 ? `${why.slice(0, 400)}…` : why)}</span></li>`;
}

export const AMBIENT_NOTE = `<div class="about" id="about-ambient"><b>“Ambient” findings.</b> Besides its own tests, every response the suite receives is checked against the rules that hold for all responses (status codes, headers, error bodies). A violation found that way is reported under the rule it breaks, marked <span class="tag">ambient</span>, with the rule and test whose traffic produced it when known.</div>`;

export function failuresHtml(report: Report): string {
  const bad = report.rules.filter((r) => r.status === 'fail' || r.status === 'error' || r.status === 'flaky');
  const warn = report.rules.filter((r) => r.status === 'warn');
  const parts = [`<section id="failures"><h2>Failures first</h2>`];
  if (bad.length) parts.push(`<ol class="fails">${bad.map(failureItem).join('')}</ol>`);
  else parts.push('<p>No rule failed, errored or was flaky.</p>');
  if (warn.length) parts.push(`<h3>SHOULD rules not met (warnings)</h3><ol class="fails">${warn.map(failureItem).join('')}</ol>`);
  if (report.rules.some(hasAmbient)) parts.push(AMBIENT_NOTE);
  parts.push('</section>');
  return parts.join('\n');
}

export function tallyHtml(report: Report): string {
  const areas = [...new Set(report.rules.map((r) => r.area))];
  const rows = areas.map((a) => {
    const rules = report.rules.filter((r) => r.area === a);
    const cells = STATUSES.map((s) => {
      const n = rules.filter((r) => r.status === s).length;
      return `<td class="${n && (s === 'fail' || s === 'error' || s === 'flaky') ? 'hot' : n ? '' : 'zero'}">${n}</td>`;
    });
    return `<tr><th><a href="#${areaAnchor(a)}">${esc(a)}</a></th>${cells.join('')}</tr>`;
  });
  return `<section id="tally"><h2>Per area</h2><div class="scroll"><table class="tally"><tr><th>area</th>${STATUSES.map((s) => `<th>${badge(s)}</th>`).join('')}</tr>${rows.join('')}</table></div></section>`;
}

export function observedSectionHtml(report: Report): string {
  const obs = report.rules.filter((r) => r.level === 'OBSERVE' && r.observed && Object.keys(r.observed).length);
  if (!obs.length) return '';
  const items = obs.map((r) => {
    const pairs = observedPairs(r.observed).map(([k, v]) => `<li><code>${esc(k)}</code>: ${esc(v)}</li>`).join('');
    return `<div class="obs"><a href="#${esc(r.id)}"><code>${esc(r.id)}</code></a> ${esc(r.title)}<ul>${pairs}</ul></div>`;
  });
  return `<section id="observed"><h2>${esc(observedHeading(report))}</h2>
<p class="meta">OBSERVE rules record behaviour the specification leaves open. They never affect the verdict; compare implementations with <code>hps-conformance report --compare DIR DIR …</code>.</p>
${items.join('\n')}</section>`;
}

/**
 * The self-contained HTML conformance report: no external assets, no script
 * needed to read it (a small inline script only filters). Rendered from
 * report.json alone; every value is escaped.
 */
import type { Evidence, Report, RuleReport } from './report-types.ts';

export function esc(s: unknown): string {
  return String(s)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const json = (v: unknown) => esc(JSON.stringify(v, null, 2));

function evidenceHtml(e: Evidence): string {
  switch (e.kind) {
    case 'mismatch':
      return `<div class="ev mismatch"><p>${esc(e.message)}</p>${e.expected !== undefined ? `<div class="cmp"><div><b>expected</b><pre>${json(e.expected)}</pre></div><div><b>actual</b><pre>${json(e.actual)}</pre></div></div>` : ''}</div>`;
    case 'exchange': {
      const x = e.exchange;
      const req = `${x.request.method} ${x.request.path}\n${Object.entries(x.request.headers).map(([k, v]) => `${k}: ${v}`).join('\n')}${x.request.body !== undefined ? `\n\n${x.request.body}` : ''}`;
      const res = x.response ? `${x.response.status}\n${Object.entries(x.response.headers).map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${x.response.body}` : `(no answer) ${x.transportError ?? ''}`;
      return `<details class="ev exchange"><summary>exchange #${x.seq}: ${esc(x.request.method)} ${esc(x.request.path)} → ${esc(x.response?.status ?? 'no answer')} (${x.durationMs} ms)</summary><div class="cmp"><div><b>request</b><pre>${esc(req)}</pre></div><div><b>response</b><pre>${esc(res)}</pre></div></div></details>`;
    }
    case 'property':
      return `<div class="ev property"><b>counterexample</b> (seed ${e.seed}, ${e.runs} runs${e.path ? `, path ${esc(e.path)}` : ''}, replayed: ${esc(e.replayOutcome)})<pre>${esc(e.counterexample)}</pre></div>`;
    case 'replay':
      return `<div class="ev replay"><b>replay</b> <code class="copy">${esc(e.command)}</code></div>`;
    case 'note':
      return `<div class="ev note">${esc(e.message)}</div>`;
  }
}

function ruleRow(r: RuleReport): string {
  const open = ['fail', 'error', 'flaky'].includes(r.status) ? ' open' : '';
  const tests = r.tests.length
    ? `<table class="tests"><tr><th>test</th><th>state</th><th>ms</th><th>requests</th></tr>${r.tests.map((t) => `<tr><td>${esc(t.title)}${t.error ? `<div class="err">${esc(t.error)}</div>` : ''}</td><td class="s-${t.state}">${t.state}</td><td>${t.duration_ms}</td><td>${t.requests}</td></tr>`).join('')}</table>`
    : '';
  return `<details class="rule st-${r.status}" data-status="${r.status}" data-area="${esc(r.area)}" data-level="${r.level}" id="${esc(r.id)}"${open}>
<summary><span class="badge b-${r.status}">${r.status.toUpperCase()}</span> <code>${esc(r.id)}</code> <span class="lvl">${r.level}</span> ${esc(r.title)}</summary>
<div class="body"><p class="meta">Spec: ${esc(r.spec)}${r.reason ? ` · <b>${esc(r.reason)}</b>` : ''}</p>
${r.ruling ? `<p class="ruling">Ruling on a spec gap: ${esc(r.ruling)}</p>` : ''}
${r.observed ? `<div class="ev observed"><b>observed</b><pre>${json(r.observed)}</pre></div>` : ''}
${r.evidence.map(evidenceHtml).join('\n')}
${tests}</div></details>`;
}

interface MutationView {
  faults: number;
  caught: number;
  score: number;
  seed: number;
  duration_ms: number;
  unexercised?: string[];
  results: Array<{ fault: string; description: string; expected: string[]; failed: string[]; caught: boolean }>;
}

/** The mutation score section: which planted faults the suite caught, by which rules. */
function mutationHtml(m: unknown): string {
  const v = m as MutationView;
  if (!v || !Array.isArray(v.results)) return `<section id="mutation"><h2>Mutation score</h2><pre>${json(m)}</pre></section>`;
  const rows = v.results
    .map((r) => `<tr class="${r.caught ? '' : 'missed'}"><td>${r.caught ? 'caught' : '<b>MISSED</b>'}</td><td><code>${esc(r.fault)}</code><div class="meta">${esc(r.description)}</div></td><td>${r.expected.map((x) => `<code>${esc(x)}</code>`).join(' ')}</td><td>${r.failed.map((x) => `<code>${esc(x)}</code>`).join(' ')}</td></tr>`)
    .join('');
  return `<section id="mutation"><h2>Mutation score: ${v.caught}/${v.faults} planted faults caught (${(v.score * 100).toFixed(1)}%)</h2>
<p>Each fault is a realistic bug planted in the reference server; the suite ran against each, scoped to the areas of the rules it declares (seed ${v.seed}, ${(v.duration_ms / 1000).toFixed(0)} s).${v.unexercised?.length ? ` Rules no fault exercises: ${v.unexercised.map(esc).join(', ')}.` : ' Every testable MUST and SHOULD rule is declared by at least one fault.'}</p>
<details><summary>${v.results.length} faults</summary><table class="tests"><tr><th>result</th><th>fault</th><th>expected rules</th><th>rules that failed</th></tr>${rows}</table></details></section>`;
}

export function renderHtml(report: Report): string {
  const s = report.summary;
  const areas = [...new Set(report.rules.map((r) => r.area))];
  const ok = report.verdict === 'conformant';
  const mutation = report.mutation ? mutationHtml(report.mutation) : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>hps-conformance: ${esc(report.verdict)} — ${esc(report.target.base_url)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:1rem 2rem;color:#1d1d1f}
h1{margin:.2rem 0}.verdict{font-size:1.6rem;font-weight:700;padding:.4rem .8rem;border-radius:6px;display:inline-block}
.v-ok{background:#dcfce7;color:#14532d}.v-bad{background:#fee2e2;color:#7f1d1d}
.counts span{margin-right:1rem}.filters{margin:1rem 0;display:flex;gap:1rem;flex-wrap:wrap}
details.rule{border:1px solid #ddd;border-radius:6px;margin:.3rem 0;background:#fff}
details.rule>summary{cursor:pointer;padding:.4rem .6rem}.body{padding:.2rem .8rem .8rem}
.badge{display:inline-block;min-width:3.6rem;text-align:center;border-radius:4px;font-weight:700;font-size:12px;padding:1px 4px}
.b-pass{background:#dcfce7}.b-fail{background:#ef4444;color:#fff}.b-warn{background:#fde68a}.b-info{background:#dbeafe}.b-skip{background:#e5e7eb}.b-error{background:#7c3aed;color:#fff}.b-flaky{background:#fb923c}
.lvl{font-size:11px;color:#555;border:1px solid #ccc;border-radius:3px;padding:0 3px}
pre{background:#f6f8fa;padding:.5rem;overflow:auto;max-height:24rem;white-space:pre-wrap;word-break:break-all}
.cmp{display:grid;grid-template-columns:1fr 1fr;gap:.5rem}.ev{margin:.4rem 0}.ruling{color:#92400e}
.meta{color:#444}.tests{border-collapse:collapse;width:100%;font-size:12px}.tests td,.tests th{border-top:1px solid #eee;padding:2px 4px;text-align:left}
.s-fail{color:#b91c1c;font-weight:700}.err{color:#b91c1c}code.copy{user-select:all;background:#f1f5f9;padding:2px 4px}
.hidden{display:none}tr.missed td{background:#fee2e2}
</style></head><body>
<h1>Hosted Payment Service API v1 — conformance report</h1>
<p><span class="verdict ${ok ? 'v-ok' : 'v-bad'}" id="verdict">${ok ? 'CONFORMANT' : 'NOT CONFORMANT'}</span></p>
<p>Target <code>${esc(report.target.base_url)}</code>${report.target.embedded_reference ? ' (embedded reference server)' : ''} · run <code>${esc(report.run_id)}</code> · seed <code>${report.seed}</code> · ${report.runs} runs per property · ${esc(report.started_at)} · ${(report.duration_ms / 1000).toFixed(1)} s · ${report.requests} requests · ${esc(report.tool.name)} ${esc(report.tool.version)}</p>
<p class="counts" id="counts">${(['pass', 'fail', 'warn', 'info', 'skip', 'error', 'flaky'] as const).map((k) => `<span><span class="badge b-${k}">${k.toUpperCase()}</span> ${s[k]}</span>`).join('')}</p>
<p><b>MUST rules: ${report.must.ran} of ${report.must.testable} testable ran</b> (${report.must.passed} passed, ${report.must.failed} failed, ${report.must.skipped} skipped; ${report.must.untestable} not exercisable through the API).${report.must.ran < report.must.testable / 2 ? ' <b>Most MUST rules did not run: this run is not a certification.</b>' : ''} Only MUST rules decide the verdict; SHOULD violations warn; OBSERVE records what the spec leaves open.</p>
${mutation}
<div class="filters">
<label>status <select id="f-status"><option value="">all</option>${['fail', 'error', 'flaky', 'warn', 'info', 'skip', 'pass'].map((k) => `<option>${k}</option>`).join('')}</select></label>
<label>area <select id="f-area"><option value="">all</option>${areas.map((a) => `<option>${esc(a)}</option>`).join('')}</select></label>
<label>level <select id="f-level"><option value="">all</option><option>MUST</option><option>SHOULD</option><option>OBSERVE</option></select></label>
<input id="f-text" placeholder="filter by id or text" size="30">
</div>
<main id="rules">
${areas.map((a) => `<section class="area" data-area="${esc(a)}"><h2>${esc(a)}</h2>${report.rules.filter((r) => r.area === a).map(ruleRow).join('\n')}</section>`).join('\n')}
</main>
<script>
(function(){var q=function(id){return document.getElementById(id)};
function apply(){var st=q('f-status').value,ar=q('f-area').value,lv=q('f-level').value,tx=q('f-text').value.toLowerCase();
document.querySelectorAll('details.rule').forEach(function(d){var show=(!st||d.dataset.status===st)&&(!ar||d.dataset.area===ar)&&(!lv||d.dataset.level===lv)&&(!tx||d.textContent.toLowerCase().indexOf(tx)>=0);d.classList.toggle('hidden',!show)});
document.querySelectorAll('section.area').forEach(function(s){s.classList.toggle('hidden',!s.querySelector('details.rule:not(.hidden)'))})}
['f-status','f-area','f-level','f-text'].forEach(function(id){q(id).addEventListener('input',apply)});})();
</script>
</body></html>
`;
}

import { PLOT_CSS } from './load-plots.ts';

/** The report pages' stylesheet, inlined (one self-contained file); readable down to 360 px wide. */
export const REPORT_CSS = `
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:1rem 2rem;color:#1d1d1f;overflow-wrap:anywhere}
h1{margin:.2rem 0;font-size:1.5rem}.verdict{font-size:1.6rem;font-weight:700;padding:.4rem .8rem;border-radius:6px;display:inline-block}
.v-ok{background:#dcfce7;color:#14532d}.v-bad{background:#fee2e2;color:#7f1d1d}.v-warn{background:#fef3c7;color:#78350f}
.counts{display:flex;flex-wrap:wrap;gap:.3rem 1rem}.count{white-space:nowrap}
.filters{margin:1rem 0;display:flex;gap:.5rem 1rem;flex-wrap:wrap}
details.rule{border:1px solid #ddd;border-radius:6px;margin:.3rem 0;background:#fff}
details.rule>summary{cursor:pointer;padding:.4rem .6rem}.body{padding:.2rem .8rem .8rem}
.badge{display:inline-block;min-width:3.6rem;text-align:center;border-radius:4px;font-weight:700;font-size:12px;padding:1px ` +
  `4px;white-space:nowrap;vertical-align:baseline}
.b-pass{background:#dcfce7}.b-fail{background:#ef4444;color:#fff}.b-warn{background:#fde68a}.b-info{background:#dbeafe}.b-skip{background:#e5e7eb}.b-error{background:#7c3aed;color:#fff}.b-flaky{background:#fb923c}
.lvl,.tag{font-size:11px;color:#555;border:1px solid #ccc;border-radius:3px;padding:0 3px;white-space:nowrap}
.tag{background:#fef3c7;color:#78350f;border-color:#fcd34d;text-decoration:none}
code.rid{white-space:nowrap}
pre{background:#f6f8fa;padding:.5rem;overflow:auto;max-height:28rem;white-space:pre-wrap;word-break:break-word}
.cmp{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:.5rem}.ev{margin:.5rem 0}.ruling{color:#92400e}
.reason{font-weight:600;color:#7f1d1d;background:#fef2f2;border-left:4px solid #ef4444;padding:.3rem .6rem;margin:.4rem 0}
.meta{color:#444}.tests,.tally,.diff,.kv{border-collapse:collapse;font-size:12px}.tests{width:100%}
.tests td,.tests th,.tally td,.tally th,.diff td,.diff th,.kv td,.kv th{border-top:1px solid #eee;padding:2px ` +
  `6px;text-align:left;vertical-align:top}
.tests td+td{white-space:nowrap;overflow-wrap:normal}.tally td{text-align:right}.tally td.zero{color:#bbb}.tally ` +
  `td.hot{background:#fee2e2;font-weight:700}
.diff{margin:.3rem 0;width:100%}.diff td{font-family:ui-monospace,monospace;word-break:break-all}.diff code.path,.tests th,.tally ` +
  `th,.diff th{white-space:nowrap}
mark.d{background:#fde047;outline:1px solid #eab308;border-radius:2px}
.s-fail{color:#b91c1c;font-weight:700}.err{color:#b91c1c}code.copy,pre.copy{user-select:all;background:#f1f5f9}
details.exchange.failing{border-left:4px solid #ef4444;padding-left:.4rem}
.lbl{font-size:12px;color:#555}.copy-btn{font-size:11px}
.hidden{display:none}tr.missed td,tr.early td{background:#fee2e2}
ol.fails{padding-left:1.4rem}ol.fails li{margin:.2rem 0}.why{color:#333}
.about{background:#fffbeb;border:1px solid #fcd34d;border-radius:6px;padding:.5rem .8rem;margin:.6rem 0}
.cert{padding:.4rem .7rem;border-radius:6px;display:inline-block}.cert.ok{background:#dcfce7}.cert.not{background:#fef3c7;border:1px ` +
  `solid #f59e0b}
.obs{margin:.4rem 0;padding:.3rem .5rem;border-left:3px solid #93c5fd}.obs ul{margin:.2rem 0;padding-left:1.2rem;font-size:12px}
.scroll{overflow-x:auto;max-width:100%}.svgwrap{overflow-x:auto}
svg.timeline text{font:11px system-ui,sans-serif;fill:#334155}svg.timeline text.n{fill:#fff;font-weight:700;font-size:10px}
svg.timeline text.early{fill:#dc2626;font-weight:700}svg.timeline text.sched{fill:#64748b}
.shrink-note{color:#92400e;margin:.2rem 0}
.load table{border-collapse:collapse;font-size:12px;margin:.4rem 0}.load td,.load th{border-top:1px solid #eee;padding:2px ` +
  `6px;text-align:right;white-space:nowrap;overflow-wrap:normal}
.load td:first-child,.load th:first-child,.load th:last-child,.load td.l{text-align:left}.load ` +
  `td.l{white-space:normal;overflow-wrap:anywhere}
.load .pass{color:#14532d}.load .fail{color:#b91c1c;font-weight:700}.load .off,.load .skip{color:#777}.load svg.plot{border:1px solid ` +
  `#ddd;background:#fafafa}${PLOT_CSS}
@media (max-width:640px){body{padding:.5rem ` +
  `.6rem;font-size:13px}.cmp{grid-template-columns:minmax(0,1fr)}h1{font-size:1.2rem}.verdict{font-size:1.2rem}}
`;

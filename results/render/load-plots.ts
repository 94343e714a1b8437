/**
 * The plots of load.html and of `load compare` as inline SVG (no script, no external resource):
 * line charts with labelled axes and ticks, a <title> and <desc> each, the lines' legend as HTML.
 * The geometry is here and pure: the percentile axis of the HdrHistogram plotter (x = log10(1/(1-p)):
 * 0%, 90%, 99%, 99.9% … evenly spaced), "nice" linear ticks, and the bounds that keep a page small
 * whatever load.json holds (points per line, lines per chart). load.json is read back untrusted:
 * every number is checked finite before it is drawn, every label escaped.
 */
import { esc, html, trustedHtml, type Html } from './escape.ts';

/** The most points one line draws (more are thinned, first and last kept) and the most lines one chart draws. */
export const MAX_POINTS = 600;
export const MAX_LINES = 32;
/** The highest percentile the axis shows: 99.9999% (10^6). */
const MAX_PCT_DECADES = 6;

/** x of a percentile (in %) on the HdrHistogram plotter's axis: log10(1/(1-p)); 0% → 0, 90% → 1, 99% → 2, capped at 6 (99.9999%). */
export function percentileX(pct: number): number {
  const q = Math.min(Math.max(pct, 0) / 100, 1 - 10 ** -MAX_PCT_DECADES);
  return Math.min(MAX_PCT_DECADES, -Math.log10(1 - q) || 0);
}

/** The decade ticks of the percentile axis up to `maxX` (at least 0% and 90%): 0%, 90%, 99%, 99.9%, 99.99% … */
export function percentileTicks(maxX: number): { x: number; label: string }[] {
  const top = Math.min(MAX_PCT_DECADES, Math.max(1, Math.ceil(maxX - 1e-9)));
  const label = (d: number): string => (d === 0 ? '0%' : d === 1 ? '90%' : `99${d > 2 ? `.${'9'.repeat(d - 2)}` : ''}%`);
  return Array.from({ length: top + 1 }, (_, d) => ({ x: d, label: label(d) }));
}

/** Linear ticks from 0 to at least `max`, about `target` of them, at steps of 1, 2 or 5 × 10^k (0 to 1 when max is 0 or not a number). */
export function niceTicks(max: number, target = 5): number[] {
  if (!Number.isFinite(max) || max <= 0) return [0, 1];
  const raw = max / target;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw)!;
  const n = Math.ceil(max / step - 1e-9);
  return Array.from({ length: n + 1 }, (_, i) => Math.round(i * step * 1e9) / 1e9);
}

/** At most `max` points: every k-th, the last kept (a line's end is what a reader looks for). */
export function thin<T>(points: readonly T[], max = MAX_POINTS): T[] {
  if (points.length <= max) return [...points];
  const k = Math.ceil(points.length / (max - 1));
  const out = points.filter((_, i) => i % k === 0);
  if ((points.length - 1) % k !== 0) out.push(points.at(-1)!);
  return out.slice(0, max);
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The largest of `values` and `floor` (no spread: a line read back may hold millions of points). */
export function maxOf(values: Iterable<number>, floor = 0): number {
  let m = floor;
  for (const v of values) if (v > m) m = v;
  return m;
}

/**
 * A count per bucket of `bucketS` seconds as a rate over time: points [middle of the bucket s, count/s], consecutive
 * buckets summed so that at most `max` points remain; the last bucket ends at `endS` (the time
 * measured: it may be shorter). A value that is no count (load.json read back) counts as 0; so does one past 2^53.
 */
export function ratePoints(counts: readonly unknown[], bucketS: number, endS: number, max = MAX_POINTS): [number, number][] {
  const group = Math.max(1, Math.ceil(counts.length / max));
  const out: [number, number][] = [];
  for (let i = 0; i < counts.length; i += group) {
    const start = i * bucketS;
    const end = Math.min((i + group) * bucketS, i + group >= counts.length && endS > start ? endS : Infinity);
    let sum = 0;
    for (let j = i; j < Math.min(i + group, counts.length); j += 1) {
      const v = counts[j];
      if (finite(v) && v > 0 && v <= Number.MAX_SAFE_INTEGER) sum += v;
    }
    const length = Math.max(0.001, end - start);
    out.push([Math.round((start + length / 2) * 1000) / 1000, Math.round((sum / length) * 100) / 100]);
  }
  return out;
}

export interface PlotLine {
  label: string;
  colour: string;
  /** stroke-dasharray, for lines told apart by more than colour. */
  dash?: string;
  /** Data coordinates [x, y]; points with a coordinate that is not a finite number are left out. */
  points: readonly (readonly [number, number])[];
}

export interface Chart {
  /** Unique in the page: the ids of <title> and <desc>. */
  id: string;
  title: string;
  desc: string;
  xLabel: string;
  yLabel: string;
  /** x ticks: the axis runs from the first to the last. */
  xTicks: readonly { x: number; label: string }[];
  lines: readonly PlotLine[];
}

const W = 720;
const H = 280;
const PAD = { left: 64, right: 36, top: 16, bottom: 48 };
const fmt = (v: number): string => (Math.abs(v) >= 100 || Number.isInteger(v) ? String(Math.round(v)) : String(Number(v.toPrecision(3))));

/** The lines as drawable: bounded in count and points, finite, y ≥ 0. */
function clean(lines: readonly PlotLine[]): PlotLine[] {
  return lines.slice(0, MAX_LINES).map((l) => ({
    ...l,
    points: thin(l.points.filter(([x, y]) => finite(x) && finite(y) && y >= 0)),
  }));
}

/** One line chart as inline SVG (role img, title and desc), its legend as an HTML list below it. */
export function lineChart(c: Chart): Html {
  const lines = clean(c.lines);
  const yTicks = niceTicks(maxOf(lines.flatMap((l) => l.points.map(([, y]) => y))));
  const [x0, x1] = [c.xTicks[0]?.x ?? 0, Math.max((c.xTicks.at(-1)?.x ?? 1), (c.xTicks[0]?.x ?? 0) + 1e-9)];
  const yMax = yTicks.at(-1)!;
  const px = (x: number) => (PAD.left + ((W - PAD.left - PAD.right) * (Math.min(Math.max(x, x0), x1) - x0)) / (x1 - x0)).toFixed(1);
  const py = (y: number) => (H - PAD.bottom - ((H - PAD.top - PAD.bottom) * Math.min(y, yMax)) / yMax).toFixed(1);
  const grid = [
    ...yTicks.map((t) => `<line x1="${PAD.left}" y1="${py(t)}" x2="${W - PAD.right}" y2="${py(t)}" stroke="#e4e4e4"/>` +
      `<text x="${PAD.left - 6}" y="${py(t)}" dy="4" text-anchor="end">${esc(fmt(t))}</text>`),
    ...c.xTicks.map((t) => `<line x1="${px(t.x)}" y1="${PAD.top}" x2="${px(t.x)}" y2="${H - PAD.bottom}" stroke="#e4e4e4"/>` +
      `<text x="${px(t.x)}" y="${H - PAD.bottom + 16}" text-anchor="middle">${esc(t.label)}</text>`),
  ];
  const drawn = lines.map((l) => {
    const title = `<title>${esc(l.label)}</title>`;
    const dash = l.dash ? ` stroke-dasharray="${esc(l.dash)}"` : '';
    const [first] = l.points;
    if (l.points.length === 1) return `<circle cx="${px(first![0])}" cy="${py(first![1])}" r="3" fill="${esc(l.colour)}">${title}</circle>`;
    const pts = l.points.map(([x, y]) => `${px(x)},${py(y)}`).join(' ');
    return `<polyline fill="none" stroke="${esc(l.colour)}" stroke-width="1.5"${dash} points="${pts}">${title}</polyline>`;
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" class="plot" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" ` +
    `style="max-width:100%;height:auto" font-size="11" role="img" aria-label="${esc(c.title)}" ` +
    `aria-describedby="${esc(c.id)}-desc"><title id="${esc(c.id)}-title">${esc(c.title)}</title><desc id="${esc(c.id)}-desc">` +
    `${esc(c.desc)}</desc>${grid.join('')}` +
    `<line x1="${PAD.left}" y1="${H - PAD.bottom}" x2="${W - PAD.right}" y2="${H - PAD.bottom}" stroke="#999"/>` +
    `<line x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${H - PAD.bottom}" stroke="#999"/>` +
    `<text x="${(PAD.left + W - PAD.right) / 2}" y="${H - 8}" text-anchor="middle">${esc(c.xLabel)}</text>` +
    `<text transform="translate(14 ${(PAD.top + H - PAD.bottom) / 2}) rotate(-90)" text-anchor="middle">${esc(c.yLabel)}</text>` +
    `${drawn.join('')}</svg>`;
  return html`<figure class="plot">${trustedHtml(svg)}${legend(lines)}</figure>`;
}

/** The lines' names beside a sample of each line's stroke. */
function legend(lines: readonly PlotLine[]): Html {
  const item = (l: PlotLine) => html`<li>${trustedHtml(`<svg width="28" height="10" aria-hidden="true"><line x1="0" y1="5" x2="28" ` +
    `y2="5" stroke="${esc(l.colour)}" stroke-width="2"${l.dash ? ` stroke-dasharray="${esc(l.dash)}"` : ''}/></svg>`)} ${l.label}${
    l.points.length ? '' : ' (nothing to draw)'}</li>`;
  return html`<figcaption><ul class="legend">${lines.map(item)}</ul></figcaption>`;
}

/** The CSS the plots need (figure, legend), for the pages that show them. */
export const PLOT_CSS = 'figure.plot{margin:1em 0}' +
  'ul.legend{list-style:none;padding:0;margin:.3em 0;display:flex;flex-wrap:wrap;gap:.4em 1.2em}' +
  'ul.legend li{white-space:nowrap}svg.plot text{fill:#333}';

/**
 * A report's charts (docs/results.md#the-report): Vega-Lite specifications built from the findings (pure), rendered to
 * SVG by Vega in Node with no browser and no network (renderSvg). A transport has one colour and one point shape
 * everywhere (apart in greyscale); the kinds of chart are numbered in chartSpecs.
 *
 * vega and vega-lite (some 380 modules in about 90 packages) are loaded when the first chart is drawn. Node before 22
 * opens a module graph's files all at once, about 110 descriptors here, so under a low `ulimit -n` the import failed
 * after every trial had succeeded, and misleadingly ("Cannot find package"); there, below a soft limit of 1024, a hook
 * (./module-throttle.js) first makes modules load a few at a time.
 */
import { register } from 'node:module';
import { readLimits } from '../core/resources.js';
import { workloadOf } from '../workloads/index.js';
import { BASELINE, HEADLINE, TRANSPORTS, labelOf, orderTransports, othersOf } from '../transports/index.js';
import { estimatesOf, ratioAgainstTcp } from './estimates.js';
import { logAxis, sizeAxis, sizeText } from './chart-axes.js';

/** @typedef {{ name: string, title: string, spec: Record<string, any> }} Chart */

/** Colours and shapes of the transports, in lib/transports/ order (Okabe–Ito colours: TCP blue, UDS vermilion, then green, purple, …). */
const COLOURS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#000000'];
const SHAPES = ['circle', 'square', 'triangle-up', 'diamond', 'triangle-down', 'cross', 'triangle-left'];
/**
 * A scale of the transports measured, each in its own colour or shape whatever else was measured.
 * @param {string[]} transports
 * @param {string[]} range
 */
const transportScale = (transports, range) => ({ domain: transports.map(labelOf), range: transports.map((t) => range[Math.max(0, TRANSPORTS.indexOf(t)) % range.length]) });
const DEPTH_SHAPES = ['circle', 'square', 'triangle-up', 'diamond', 'triangle-down', 'cross', 'triangle-left', 'triangle-right'];
const WIDTH = 300;
const HEIGHT = 200;
const LEGEND = { symbolOpacity: 1, symbolStrokeWidth: 0, symbolSize: 120 };

/** @param {number | null | undefined} v */
const finite = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * A faceted chart: a panel per `column` (depth, or size; and Node version). Panels of several Node versions share their
 * y scale: they are there to compare, and a scale of their own would draw 40 000 and 140 000 at one height. Panels of
 * depths alone may each have their own (`independent`): depth 1 and depth 16 differ by far more than the transports,
 * whose difference is what each panel shows.
 * @param {Record<string, any>[]} values
 * @param {Record<string, any>[]} layer
 * @param {{ description: string, title: Record<string, any>, column: Record<string, any>, independent?: boolean }} about
 */
function faceted(values, layer, { description, title, column, independent = false }) {
  return {
    description,
    title,
    data: { values },
    facet: { column },
    spec: { width: WIDTH, height: HEIGHT, layer },
    resolve: { scale: { y: independent ? 'independent' : 'shared' } },
    config: { font: 'sans-serif' },
  };
}

/**
 * @param {import('./findings.js').Findings} findings
 * @returns {Chart[]}
 */
export function chartSpecs(findings) {
  const sections = findings.sections;
  if (sections.length === 0) return [];
  const primary = sections[0].primary;
  const w = workloadOf(sections[0].workload);
  const sizeName = w.axes.size.label;
  const depthShort = w.axes.depth.short;
  const workloads = [...new Set(sections.map((s) => s.workload))];
  const depths = [...new Set(sections.map((s) => s.depth))].sort((a, b) => a - b);
  /** @param {string} text @param {string} [subtitle] */
  const heading = (text, subtitle) => ({ text, ...(subtitle ? { subtitle } : {}), anchor: 'start', fontSize: 14, subtitleFontSize: 11, offset: 12 });
  /** A chart's title: what is drawn against what, the workloads and the depths it shows. @param {string} text @param {string} [subtitle] */
  const title = (text, subtitle) => heading(`${text} · ${workloads.join(', ')} · ${depthShort} ${depths.join(', ')}`, subtitle);
  const byDepth = { field: 'depth', type: 'ordinal', title: null, sort: { field: 'depthNumber' }, header: { labelExpr: `${JSON.stringify(`${depthShort} `)} + datum.value`, labelFontSize: 12 } };
  const bySize = { field: 'size', type: 'ordinal', title: null, sort: { field: 'sizeNumber' }, header: { labelFontSize: 12 } };
  const sizes = [...new Set(sections.flatMap((s) => s.sizes.map((r) => r.size_bytes)))].sort((a, b) => a - b);
  const x = sizeAxis(sizes, w.axes.size, WIDTH);
  const wideX = sizeAxis(sizes, w.axes.size, WIDTH * 1.5);
  const measured = orderTransports(sections.flatMap((s) => s.transports));
  const named = measured.map(labelOf).join(', ').replace(/, ([^,]*)$/, ' and $1');
  const colour = { field: 'transport', type: 'nominal', title: 'transport', scale: transportScale(measured, COLOURS), legend: LEGEND };
  const shape = { field: 'transport', type: 'nominal', title: 'transport', scale: transportScale(measured, SHAPES), legend: LEGEND };
  /**
   * A line per series coloured by transport (dashed by `dash`, where given), points shaped by transport (kept out of the dash legend).
   * @param {Record<string, any>} y
   * @param {string | null} dash
   * @param {Record<string, any>} [along] the x axis: size, unless given
   */
  const lines = (y, dash, along = x) => [
    { mark: { type: 'line' }, encoding: { x: along, y, color: colour, ...(dash ? { strokeDash: { field: dash, type: 'nominal', title: dash, legend: { symbolType: 'stroke', symbolStrokeWidth: 2, symbolSize: 300 } } } : {}), detail: { field: 'series' } } },
    { mark: { type: 'point', filled: true, size: 40 }, encoding: { x: along, y, color: colour, shape, detail: { field: 'series' } } },
  ];
  /** 95 % CI: a band through the sizes, or a bar where there is one size (a band of one point draws nothing) @param {number} opacity */
  const band = (opacity) => (sizes.length > 1 ? { type: 'errorband', opacity } : { type: 'errorbar', ticks: true, thickness: 2, opacity: 0.6 });
  // with several Node versions, a panel (and a ratio line) per version and depth
  const nodes = [...new Set(sections.map((s) => s.node))];
  /** @param {import('./findings.js').Section} s */
  const where = (s) => ({ depth: s.node ? `${s.depth} · Node ${s.node}` : String(s.depth), depthNumber: s.depth * nodes.length + nodes.indexOf(s.node) });
  /** An estimate's value, with its 95 % CI where both ends are finite and above 0 (a log axis and a band need them). @param {{ value: number, low: number | null, high: number | null }} e */
  const banded = (e) => {
    const band = finite(e.low) !== null && finite(e.high) !== null && /** @type {number} */ (e.low) > 0;
    return { value: e.value, low: band ? e.low : null, high: band ? e.high : null };
  };

  // 1. the primary figure, a line per transport with its 95 % CI band (a rate or a time on a linear axis from 0, so heights compare)
  const main = sections.flatMap((s) => s.sizes.flatMap((r) => s.transports.flatMap((t) => {
    const e = /** @type {Record<string, any>} */ (estimatesOf(r.figures[primary.metric]))[t];
    return e && finite(e.value) !== null ? [{ ...where(s), size: r.size_bytes, transport: labelOf(t), ...banded(e) }] : [];
  })));
  const primaryY = { field: 'value', type: 'quantitative', title: primary.short };
  const primaryChart = faceted(main, [
    { mark: band(0.25), transform: [{ filter: 'datum.low !== null' }], encoding: { x, y: { ...primaryY, field: 'low' }, y2: { field: 'high' }, color: colour } },
    { mark: { type: 'line' }, encoding: { x, y: primaryY, color: colour } },
    { mark: { type: 'point', filled: true, size: 40 }, encoding: { x, y: primaryY, color: colour, shape } },
  ], { description: `${primary.short} against ${sizeName}, ${named}, 95 % CI bands`, title: title(`${primary.short} against ${sizeName}`, `${named}, ${findings.centre} of runs, 95 % CI`), column: byDepth, independent: nodes.length < 2 });

  // 2. each transport relative to TCP, UDS first (the 2014 study's "relative" graph)
  const depthLegend = { field: 'depth', type: 'nominal', title: depthShort, sort: { field: 'depthNumber' }, legend: LEGEND };
  const depthColour = { ...depthLegend, scale: { scheme: 'dark2' } };
  const depthShape = { ...depthLegend, scale: { range: DEPTH_SHAPES } };
  const depthDash = { ...depthLegend, legend: null };
  /** @param {string} transport */
  const ratioChartOf = (transport) => {
    const label = labelOf(transport);
    const ratios = sections.flatMap((s) => s.sizes.flatMap((r) => {
      const e = ratioAgainstTcp(r.figures[primary.metric], transport);
      return e && finite(e.value) !== null ? [{ ...where(s), size: r.size_bytes, ...banded(e) }] : [];
    }));
    const ratioTitle = `${label} / TCP ${primary.short}`;
    const ratioY = { field: 'value', type: 'quantitative', title: ratioTitle, ...logAxis(ratios.flatMap((r) => [r.value, r.low, r.high]), [1]) };
    return {
      description: `${label} relative to TCP (${primary.short}) against ${sizeName}, 95 % CI bands, reference line at 1`,
      title: title(`${label} / TCP ${primary.short} against ${sizeName}`, `95 % CI; above 1: ${label} higher (${primary.better} is better)`),
      data: { values: ratios },
      width: WIDTH * 1.5,
      height: HEIGHT * 1.25,
      layer: [
        { mark: { type: 'rule', strokeDash: [4, 4], color: '#555' }, encoding: { y: { datum: 1, type: 'quantitative' } } },
        { mark: band(0.2), transform: [{ filter: 'datum.low !== null' }], encoding: { x: wideX, y: { ...ratioY, field: 'low' }, y2: { field: 'high' }, color: depthColour } },
        { mark: { type: 'line' }, encoding: { x: wideX, y: ratioY, color: depthColour, strokeDash: depthDash } },
        { mark: { type: 'point', filled: true, size: 40 }, encoding: { x: wideX, y: ratioY, color: depthColour, shape: depthShape } },
      ],
      config: { font: 'sans-serif' },
    };
  };
  // UDS/TCP always (the headline), then every other transport measured against TCP
  const ratioCharts = [HEADLINE, ...othersOf(measured)].map((t) => ({
    name: `chart-${t}-vs-${BASELINE}.svg`, title: `${labelOf(t)} relative to TCP, ${primary.short} (95 % CI; above 1: ${labelOf(t)} higher)`, spec: ratioChartOf(t),
  }));

  // 3. CPU per unit, client and server (and nginx): the workload's *_cpu_* figures
  const cpuMetrics = Object.keys(w.summary).filter((m) => /^(client|server|proxy)_cpu_/.test(m)).map((m) => [m === 'proxy_cpu_us_per_req' ? 'nginx' : m.split('_')[0], m]);
  const cpuTitle = `CPU ${w.summary[cpuMetrics[0][1]].unit.replace(/^us/, 'µs')}`;
  /**
   * A point per transport, size and figure with a finite value (above 0 where `positive`), labelled `key: part`,
   * placed by its section's depth and its size unless `place` says otherwise.
   * @param {string[][]} metrics [part, metric] @param {string} key @param {boolean} [positive]
   * @param {(s: import('./findings.js').Section, r: import('./findings.js').SizeRow) => Record<string, any>} [place]
   */
  const pointsOf = (metrics, key, positive = false, place = (s, r) => ({ ...where(s), size: r.size_bytes })) => sections.flatMap((s) => s.sizes.flatMap((r) => s.transports.flatMap((t) => metrics.flatMap(([part, metric]) => {
    const e = /** @type {Record<string, any>} */ (r.figures[metric] ? estimatesOf(r.figures[metric]) : {})[t];
    return e && finite(e.value) !== null && (!positive || e.value > 0) ? [{ ...place(s, r), transport: labelOf(t), [key]: part, series: `${labelOf(t)} ${part}`, value: e.value }] : [];
  }))));
  const cpu = pointsOf(cpuMetrics, 'side');
  const sides = cpuMetrics.map(([side]) => side).join(', ');
  const cpuChart = faceted(cpu, lines({ field: 'value', type: 'quantitative', title: cpuTitle }, 'side'), {
    description: `${cpuTitle} against ${sizeName}: ${sides}; ${named}`, title: title(`${cpuTitle} against ${sizeName}`, `${sides}; ${named}`), column: byDepth, independent: nodes.length < 2,
  });

  // 4. p50 and p99 of one time: the first the workload summarises (rate's response time, not its service time)
  const times = Object.keys(w.summary).filter((m) => /_p(50|99)_us$/.test(m));
  const timeMetrics = times.filter((m) => m.replace(/_p\d+_us$/, '') === times[0].replace(/_p\d+_us$/, '')).map((m) => [/** @type {string} */ (/_(p50|p99)_us$/.exec(m)?.[1]), m]);
  const timeName = timeMetrics.length ? w.summary[timeMetrics[0][1]].label.replace(/^(median|99th percentile) /, '') : '';
  const TimeName = `${timeName.charAt(0).toUpperCase()}${timeName.slice(1)}`;
  const rtt = pointsOf(timeMetrics, 'percentile', true);
  const rttChart = faceted(rtt, lines({ field: 'value', type: 'quantitative', title: `${timeName} µs`, ...logAxis(rtt.map((r) => r.value)) }, 'percentile'), {
    description: `${timeName} p50 and p99 against ${sizeName}, ${named}`, title: title(`${timeName} p50 and p99 against ${sizeName}`, `µs, log axis; ${named}`), column: byDepth,
  });

  // 5. open loop (a workload whose rows say whether they kept their rate): p50 and p99 against the offered rate
  const sizeOf = (/** @type {string | null} */ node, /** @type {number} */ size) => ({ size: `${node ? `Node ${node} · ` : ''}${sizeText(w.axes.size, size)}`, sizeNumber: size });
  const load = w.columns.includes('limit') ? pointsOf(timeMetrics, 'percentile', true, (s, r) => ({ ...sizeOf(s.node, r.size_bytes), rate: s.depth })) : [];
  const rateX = { field: 'rate', type: 'quantitative', title: w.axes.depth.label, ...logAxis(load.map((r) => r.rate)) };
  const loadY = { field: 'value', type: 'quantitative', title: `${timeName} µs`, ...logAxis(load.map((r) => r.value)) };
  const loadChart = faceted(load, lines(loadY, 'percentile', rateX), {
    description: `${timeName} p50 and p99 against ${w.axes.depth.label}, ${named}, a panel per ${sizeName}`,
    title: heading(`${timeName} p50 and p99 against ${w.axes.depth.label} · ${workloads.join(', ')}`, `µs, log axes; ${named}; runs that missed a rate are left out`), column: bySize,
  });

  // 6. open loop: the percentile spectrum at half the lower knee (lib/stats/knees.js)
  const spectrum = findings.knees.flatMap((k) => (k.spectrum ? k.spectrum.points.map((p) => ({
    size: `${sizeOf(k.node, k.size_bytes).size} at ${k.spectrum?.rate.toLocaleString('en-US')}/s`, sizeNumber: k.size_bytes,
    transport: labelOf(p.transport), series: `${labelOf(p.transport)} run ${p.run}`, percentile: p.percentile, x: p.x, value: p.us,
  })) : []));
  const ticks = [2, 10, 100, 1000, 10_000, 100_000].filter((t) => t <= Math.max(2, ...spectrum.map((p) => p.x)));
  const spectrumX = {
    field: 'x', type: 'quantitative', title: 'percentile (at 1 / (1 − p); the last point: the max)',
    scale: { type: 'log', nice: false, domain: [2, Math.max(10, ...spectrum.map((p) => p.x))] },
    axis: { values: ticks, labelExpr: "{ '2': '50 %', '10': '90 %', '100': '99 %', '1000': '99.9 %', '10000': '99.99 %', '100000': '99.999 %' }[datum.value]" },
  };
  const spectrumY = { field: 'value', type: 'quantitative', title: `${timeName} µs`, ...logAxis(spectrum.map((p) => p.value)) };
  const spectrumChart = faceted(spectrum, lines(spectrumY, null, spectrumX), {
    description: `${timeName} percentile spectrum at half the lower knee, a line per run, ${named}, a panel per ${sizeName}`,
    title: heading(`${timeName} percentiles at half the lower knee · ${workloads.join(', ')}`, `µs, log axes; a line per run; ${named}`), column: bySize,
  });

  return [
    { name: `chart-${primary.metric}.svg`, title: `${primary.short} against ${sizeName} (95 % CI bands)`, spec: primaryChart },
    ...ratioCharts,
    { name: 'chart-cpu.svg', title: `${cpuTitle}: ${sides}`, spec: cpuChart },
    ...(timeMetrics.length ? [{ name: 'chart-rtt.svg', title: `${TimeName} p50 and p99 (µs, log axis)`, spec: rttChart }] : []),
    ...(load.length ? [{ name: 'chart-load.svg', title: `${TimeName} p50 and p99 against ${w.axes.depth.label} (µs, log axes)`, spec: loadChart }] : []),
    ...(spectrum.length ? [{ name: 'chart-spectrum.svg', title: `${TimeName} percentiles at half the lower knee (µs, log axes, a line per run)`, spec: spectrumChart }] : []),
  ];
}

/** A soft open-file limit below this, on Node before 22, loads the chart libraries through the throttle. */
const THROTTLE_BELOW = 1024;

async function loadChartLibraries() {
  const limit = readLimits().openFiles;
  const low = limit !== null && limit < THROTTLE_BELOW;
  if (low && Number(process.versions.node.split('.')[0]) < 22) register('./module-throttle.js', import.meta.url);
  try {
    const [vega, vegaLite] = await Promise.all([import('vega'), import('vega-lite')]);
    return { vega, vegaLite };
  } catch (error) {
    const message = String(/** @type {Error} */ (error).message).split('\n')[0];
    throw new Error(`the chart library could not be loaded: ${message}${low ? ` (the open-file limit is ${limit}; raise it with ulimit -n)` : ''}`, { cause: error });
  }
}

/** @type {ReturnType<typeof loadChartLibraries> | undefined} */
let loaded;

/**
 * Render a Vega-Lite spec to SVG text in Node (vega-lite compiles, vega renders headless).
 * @param {Record<string, any>} spec
 */
export async function renderSvg(spec) {
  const { vega, vegaLite } = await (loaded ??= loadChartLibraries());
  const compiled = vegaLite.compile(/** @type {any} */ (spec), { logger: vega.logger(vega.Error) }).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none', logLevel: vega.Error });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

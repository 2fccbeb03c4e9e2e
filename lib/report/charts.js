/**
 * Charts of a report, as Vega-Lite specifications built from the findings
 * (pure), and rendered to SVG by Vega in Node, with no browser and no
 * network (renderSvg). Every chart has size on a log₂ axis and one panel
 * per depth; TCP and UDS keep the same colours in every chart.
 *  1. the primary figure against size, a line per transport with its 95 % CI band;
 *  2. UDS relative to TCP against size, with its CI band and a reference line at 1
 *     (the 2014 study's "relative" graph);
 *  3. CPU per unit of work against size: client and server (and nginx), per transport;
 *  4. the workload's p50 and p99 times against size, per transport (log axis):
 *     RTT for echo, connection time for connect, request latency for http.
 * Which figures, their units and the size axis's name come from the
 * workload's declaration.
 */
import { workloadOf } from '../workloads/index.js';

/** @typedef {{ name: string, title: string, spec: Record<string, any> }} Chart */

const TRANSPORT_COLOURS = { domain: ['TCP', 'UDS'], range: ['#0072b2', '#d55e00'] };
const LABEL_SIZE = "datum.value >= 1048576 ? datum.value / 1048576 + ' MiB' : datum.value >= 1024 ? datum.value / 1024 + ' KiB' : datum.value + ' B'";
const WIDTH = 300;
const HEIGHT = 200;

/**
 * @param {number[]} sizes
 * @param {string} title
 */
function sizeAxis(sizes, title) {
  return { field: 'size', type: 'quantitative', title, scale: { type: 'log', base: 2, nice: false }, axis: { values: sizes, labelExpr: LABEL_SIZE, labelAngle: sizes.length > 8 ? -45 : 0, grid: true } };
}

/** @param {number | null | undefined} v */
const finite = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * A faceted chart: one panel per depth, each its own y scale.
 * @param {Record<string, any>[]} values
 * @param {Record<string, any>[]} layer
 * @param {string} description
 * @param {{ independent?: boolean }} [options]
 */
function faceted(values, layer, description, { independent = true } = {}) {
  return {
    description,
    data: { values },
    facet: { column: { field: 'depth', type: 'ordinal', title: null, sort: { field: 'depthNumber' }, header: { labelExpr: "'depth ' + datum.value", labelFontSize: 12 } } },
    spec: { width: WIDTH, height: HEIGHT, layer },
    resolve: independent ? { scale: { y: 'independent' } } : undefined,
    config: { font: 'sans-serif' },
  };
}

/**
 * Lines coloured by transport and dashed by `dash`, with points; the dash
 * legend shows strokes (the points stay out of it).
 * @param {Record<string, any>} x
 * @param {Record<string, any>} y
 * @param {Record<string, any>} colour
 * @param {string} dash
 */
function dashedLines(x, y, colour, dash) {
  return [
    { mark: { type: 'line' }, encoding: { x, y, color: colour, strokeDash: { field: dash, type: 'nominal', title: dash, legend: { symbolType: 'stroke', symbolStrokeWidth: 2, symbolSize: 300 } }, detail: { field: 'series' } } },
    { mark: { type: 'point', filled: true }, encoding: { x, y, color: colour, detail: { field: 'series' } } },
  ];
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
  const sizes = [...new Set(sections.flatMap((s) => s.sizes.map((r) => r.size_bytes)))].sort((a, b) => a - b);
  const x = sizeAxis(sizes, sizeName);
  const colour = { field: 'transport', type: 'nominal', title: 'transport', scale: TRANSPORT_COLOURS };
  /** @param {import('./findings.js').Section} s */
  const where = (s) => ({ depth: String(s.depth), depthNumber: s.depth });

  // 1. the primary figure
  const main = sections.flatMap((s) => s.sizes.flatMap((r) => ['tcp', 'uds'].flatMap((t) => {
    const e = /** @type {Record<string, any>} */ (r.figures[primary.metric])[t];
    if (!e || finite(e.value) === null) return [];
    const band = finite(e.low) !== null && finite(e.high) !== null && e.low > 0;
    return [{ ...where(s), size: r.size_bytes, transport: t.toUpperCase(), value: e.value, low: band ? e.low : null, high: band ? e.high : null }];
  })));
  const primaryChart = faceted(main, [
    { mark: { type: 'errorband', opacity: 0.25 }, transform: [{ filter: 'datum.low !== null' }], encoding: { x, y: { field: 'low', type: 'quantitative', title: primary.short }, y2: { field: 'high' }, color: colour } },
    { mark: { type: 'line', point: true }, encoding: { x, y: { field: 'value', type: 'quantitative', title: primary.short }, color: colour } },
  ], `${primary.short} against ${sizeName}, TCP and UDS, 95 % CI bands`);

  // 2. UDS relative to TCP
  const ratios = sections.flatMap((s) => s.sizes.flatMap((r) => {
    const e = r.figures[primary.metric].ratio;
    if (!e || finite(e.value) === null) return [];
    return [{ ...where(s), size: r.size_bytes, value: e.value, low: e.low, high: e.high }];
  }));
  const depthColour = { field: 'depth', type: 'nominal', title: 'depth', sort: { field: 'depthNumber' }, scale: { scheme: 'dark2' } };
  const ratioTitle = `UDS / TCP ${primary.short}`;
  const ratioChart = {
    description: `UDS relative to TCP (${primary.short}) against ${sizeName}, 95 % CI bands, reference line at 1`,
    data: { values: ratios },
    width: WIDTH * 1.5,
    height: HEIGHT * 1.25,
    layer: [
      { mark: { type: 'rule', strokeDash: [4, 4], color: '#555' }, encoding: { y: { datum: 1, type: 'quantitative' } } },
      { mark: { type: 'errorband', opacity: 0.2 }, transform: [{ filter: 'datum.low !== null' }], encoding: { x, y: { field: 'low', type: 'quantitative', title: ratioTitle, scale: { type: 'log' }, axis: { tickCount: 6 } }, y2: { field: 'high' }, color: depthColour } },
      { mark: { type: 'line', point: true }, encoding: { x, y: { field: 'value', type: 'quantitative', title: ratioTitle, scale: { type: 'log' }, axis: { tickCount: 6 } }, color: depthColour } },
    ],
    config: { font: 'sans-serif' },
  };

  // 3. CPU per unit, client and server (and nginx): the workload's *_cpu_* figures
  const cpuMetrics = Object.keys(w.summary).filter((m) => /^(client|server|proxy)_cpu_/.test(m)).map((m) => [m === 'proxy_cpu_us_per_req' ? 'nginx' : m.split('_')[0], m]);
  const cpuTitle = `CPU ${w.summary[cpuMetrics[0][1]].unit.replace(/^us/, 'µs')}`;
  const cpu = sections.flatMap((s) => s.sizes.flatMap((r) => ['tcp', 'uds'].flatMap((t) => cpuMetrics.flatMap(([side, metric]) => {
    const e = /** @type {Record<string, any>} */ (r.figures[metric] ?? {})[t];
    return e && finite(e.value) !== null ? [{ ...where(s), size: r.size_bytes, transport: t.toUpperCase(), side, series: `${t.toUpperCase()} ${side}`, value: e.value }] : [];
  }))));
  const cpuChart = faceted(cpu, [
    ...dashedLines(x, { field: 'value', type: 'quantitative', title: cpuTitle }, colour, 'side'),
  ], `${cpuTitle} against ${sizeName}: ${cpuMetrics.map(([side]) => side).join(', ')}; TCP and UDS`);

  // 4. p50 and p99 times: the workload's *_p50_us and *_p99_us figures
  const timeMetrics = Object.keys(w.summary).filter((m) => /_p(50|99)_us$/.test(m)).map((m) => [/** @type {string} */ (/_(p50|p99)_us$/.exec(m)?.[1]), m]);
  const timeName = timeMetrics.length ? w.summary[timeMetrics[0][1]].label.replace(/^(median|99th percentile) /, '') : '';
  const rtt = sections.flatMap((s) => s.sizes.flatMap((r) => ['tcp', 'uds'].flatMap((t) => timeMetrics.flatMap(([percentile, metric]) => {
    const e = /** @type {Record<string, any>} */ (r.figures[metric] ?? {})[t];
    return e && finite(e.value) !== null && e.value > 0 ? [{ ...where(s), size: r.size_bytes, transport: t.toUpperCase(), percentile, series: `${t.toUpperCase()} ${percentile}`, value: e.value }] : [];
  }))));
  const rttChart = faceted(rtt, [
    ...dashedLines(x, { field: 'value', type: 'quantitative', title: `${timeName} µs`, scale: { type: 'log' }, axis: { tickCount: 6 } }, colour, 'percentile'),
  ], `${timeName} p50 and p99 against ${sizeName}, TCP and UDS`);

  return [
    { name: `chart-${primary.metric}.svg`, title: `${primary.short} against ${sizeName} (95 % CI bands)`, spec: primaryChart },
    { name: 'chart-uds-vs-tcp.svg', title: `UDS relative to TCP, ${primary.short} (95 % CI; above 1: UDS higher)`, spec: ratioChart },
    { name: 'chart-cpu.svg', title: `${cpuTitle}: ${cpuMetrics.map(([side]) => side).join(', ')}`, spec: cpuChart },
    ...(timeMetrics.length ? [{ name: 'chart-rtt.svg', title: `${timeName[0].toUpperCase()}${timeName.slice(1)} p50 and p99 (µs, log axis)`, spec: rttChart }] : []),
  ];
}

/**
 * Render a Vega-Lite spec to SVG text in Node (vega-lite compiles, vega renders headless).
 * @param {Record<string, any>} spec
 * @returns {Promise<string>}
 */
export async function renderSvg(spec) {
  const [vega, vegaLite] = await Promise.all([import('vega'), import('vega-lite')]);
  const compiled = vegaLite.compile(/** @type {any} */ (spec), { logger: vega.logger(vega.Error) }).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none', logLevel: vega.Error });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

import { beforeAll, describe, expect, it } from 'vitest';
import { logDomain, logTicks, sizeText } from '../../lib/report/chart-axes.js';
import { chartSpecs, renderSvg } from '../../lib/report/charts.js';
import { buildFindings } from '../../lib/report/findings.js';
import { workloadOf } from '../../lib/workloads/index.js';
import { okRow, queryRow } from '../helpers/results-fixture.js';

// nine sizes, 1 B to 64 KiB by fours (the default preset's), two depths, three runs;
// UDS gives 1.1–1.9× the msgs/s of TCP, so every ratio and its interval lie between 1 and 2
const SIZES = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536];
const SIZE_LABELS = ['1 B', '4 B', '16 B', '64 B', '256 B', '1 KiB', '4 KiB', '16 KiB', '64 KiB'];
/** @type {Record<string, any>[]} */
const rows = [];
for (let run = 0; run < 3; run++) {
  for (const depth of [1, 16]) {
    for (const [i, size] of SIZES.entries()) {
      const tcp = (10_000 * depth) / (1 + i / 4) * (1 + 0.05 * run);
      rows.push(okRow(run, 'tcp', size, depth, tcp), okRow(run, 'uds', size, depth, tcp * (1.1 + i * 0.09 + 0.01 * run)));
    }
  }
}

/** @type {Record<string, string>} chart file name → SVG text */
const svgs = {};
beforeAll(async () => {
  const findings = buildFindings({ trials: rows, meta: { status: 'complete' } });
  for (const chart of chartSpecs(findings)) svgs[chart.name] = await renderSvg(chart.spec);
}, 30_000);

/**
 * The labels an axis shows (Vega keeps labels it hides for overlap, at opacity 0), per axis group.
 * @param {string} svg
 * @param {'X' | 'Y'} which
 * @returns {string[][]}
 */
function axisLabels(svg, which) {
  const groups = svg.split(/(?=<g class="mark-group role-axis")/).filter((g) => g.includes(`aria-label="${which}-axis`));
  return groups.map((g) => {
    const labels = /<g class="mark-text role-axis-label"[^>]*>(.*?)<\/g>/.exec(g)?.[1] ?? '';
    return [...labels.matchAll(/<text([^>]*)>([^<]*)<\/text>/g)].filter(([, attrs]) => !/opacity="0"/.test(attrs)).map(([, , text]) => text);
  });
}

/** @param {string} svg the titles it shows: the chart's, then its panels' */
const titlesOf = (svg) => [...svg.matchAll(/aria-label="Title text '([^']*)'"/g)].map(([, text]) => text);

describe('the report\'s charts', () => {
  it('title every chart with its figure, its workload and its depths', () => {
    expect(Object.keys(svgs)).toEqual(['chart-msgs_per_s.svg', 'chart-uds-vs-tcp.svg', 'chart-cpu.svg', 'chart-rtt.svg']);
    const figures = { 'chart-msgs_per_s.svg': 'msgs/s', 'chart-uds-vs-tcp.svg': 'UDS / TCP msgs/s', 'chart-cpu.svg': 'CPU µs/msg', 'chart-rtt.svg': 'round-trip time p50 and p99' };
    for (const [name, figure] of Object.entries(figures)) {
      expect(titlesOf(svgs[name]), name).toContain(`${figure} against packet size · echo · depth 1, 16`);
    }
  });

  it('label every size on every size axis, none hidden for overlap', () => {
    for (const [name, svg] of Object.entries(svgs)) {
      const axes = axisLabels(svg, 'X');
      expect(axes.length, name).toBeGreaterThanOrEqual(1);
      for (const labels of axes) expect(labels, name).toEqual(SIZE_LABELS);
    }
  });

  it('fit the ratio axis to ratios between 1 and 2, with 1 in view', () => {
    const [labels] = axisLabels(svgs['chart-uds-vs-tcp.svg'], 'Y');
    expect(labels).toContain('1');
    expect(labels).not.toContain('0.1');
    expect(labels).not.toContain('10');
    const ticks = labels.map(Number);
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    for (const tick of ticks) {
      expect(tick).toBeGreaterThanOrEqual(0.9);
      expect(tick).toBeLessThanOrEqual(2.2);
    }
    const domain = /aria-label="Y-axis titled '[^']*' for a log scale with values from ([\d.]+) to ([\d.]+)"/.exec(svgs['chart-uds-vs-tcp.svg']);
    expect(Number(domain?.[1])).toBeGreaterThan(0.9);
    expect(Number(domain?.[2])).toBeLessThan(2.2);
  });

  it('fit the p50/p99 log axis to the times drawn', () => {
    const times = rows.flatMap((r) => [r.rtt_p50_us, r.rtt_p99_us]);
    for (const labels of axisLabels(svgs['chart-rtt.svg'], 'Y')) {
      const ticks = labels.map((l) => Number(l.replace(/,/g, '')));
      expect(ticks.length).toBeGreaterThanOrEqual(3);
      expect(Math.min(...ticks)).toBeGreaterThanOrEqual(Math.min(...times) / 1.5);
      expect(Math.max(...ticks)).toBeLessThanOrEqual(Math.max(...times) * 1.5);
    }
  });

  it('tell the series apart by more than colour: transports by point shape, depths by shape and dash', () => {
    /** the outlines of the points of a series, coordinates left out */
    const shapes = (/** @type {string} */ svg, /** @type {string} */ series) => new Set([...svg.matchAll(/<path [^>]*aria-roledescription="point"[^>]*>/g)]
      .map(([tag]) => ({ label: /aria-label="([^"]*)"/.exec(tag)?.[1] ?? '', d: /\sd="([^"]*)"/.exec(tag)?.[1] ?? '' }))
      .filter(({ label }) => label.split('; ').includes(series)).map(({ d }) => d.replace(/[\d.]+/g, '#')));
    for (const name of ['chart-msgs_per_s.svg', 'chart-cpu.svg', 'chart-rtt.svg']) {
      const tcp = shapes(svgs[name], 'transport: TCP');
      const uds = shapes(svgs[name], 'transport: UDS');
      expect(tcp.size, name).toBeGreaterThan(0);
      expect(uds.size, name).toBeGreaterThan(0);
      expect([...tcp].some((d) => uds.has(d)), name).toBe(false);
    }
    const ratio = svgs['chart-uds-vs-tcp.svg'];
    expect([...shapes(ratio, 'depth: 1')].some((d) => shapes(ratio, 'depth: 16').has(d))).toBe(false);
    const dashes = [...ratio.matchAll(/<path[^>]*aria-roledescription="line mark"[^>]*>/g)].map(([path]) => /stroke-dasharray="([^"]*)"/.exec(path)?.[1] ?? 'solid');
    expect(new Set(dashes).size).toBe(2);
  });
});

describe('log axes fitted to the data', () => {
  it('span the values and what they must include, padded by 5 % of the span or at least ×1.05', () => {
    const [lo, hi] = /** @type {[number, number]} */ (logDomain([1.2, 1.9, null, NaN, -1], [1]));
    expect(lo).toBeCloseTo(1 / 1.05, 6);
    expect(hi).toBeCloseTo(1.9 * 1.05, 6);
    expect(logDomain([null, 0])).toBeNull();
    const [wideLo, wideHi] = /** @type {[number, number]} */ (logDomain([1, 1000]));
    expect(wideLo).toBeCloseTo(10 ** -0.15, 6);
    expect(wideHi).toBeCloseTo(10 ** 3.15, 6);
  });

  it('tick at round values inside the domain, at most 8, 1 among them when in view', () => {
    expect(logTicks([0.95, 2.1])).toEqual([1, 1.2, 1.4, 1.6, 1.8, 2]);
    expect(logTicks([0.6, 1.3])).toEqual([0.6, 0.7, 0.8, 0.9, 1, 1.1, 1.2, 1.3]);
    expect(logTicks([40, 12_000])).toEqual([50, 100, 200, 500, 1000, 2000, 5000, 10_000]);
    expect(logTicks([1e-4, 1e6])).toEqual([1e-4, 0.01, 1, 100, 10_000, 1e6]);
  });
});

/**
 * Every encoding of a spec's layers (a faceted chart's or a single view's) on `channel`.
 * @param {Record<string, any>} spec
 * @param {string} channel
 * @returns {Record<string, any>[]}
 */
const encodingsOf = (spec, channel) => (spec.spec?.layer ?? spec.layer).flatMap((/** @type {Record<string, any>} */ l) => (l.encoding?.[channel] ? [l.encoding[channel]] : []));

describe('charts of sizes that are not bytes (postgres: primary-key lookups per query, 0 for SELECT 1)', () => {
  /** @type {Record<string, any>[]} */
  const pgRows = [];
  for (let run = 0; run < 2; run++) {
    for (const depth of [1, 16]) {
      for (const size of [0, 1]) {
        const tcp = (3000 * Math.sqrt(depth)) / (1 + size / 2) * (1 + 0.05 * run);
        pgRows.push(queryRow(run, 'tcp', size, depth, tcp), queryRow(run, 'uds', size, depth, tcp * (1.05 + 0.1 * size + 0.01 * run)));
      }
    }
  }
  const charts = chartSpecs(buildFindings({ trials: pgRows, meta: { status: 'complete' } }));
  /** @type {Record<string, string>} */
  const pgSvgs = {};
  beforeAll(async () => {
    for (const chart of charts) pgSvgs[chart.name] = await renderSvg(chart.spec);
  }, 30_000);

  it('put the sizes on a linear axis that holds 0, a tick at each, not on a log one', () => {
    expect(charts.map((c) => c.name)).toEqual(['chart-queries_per_s.svg', 'chart-uds-vs-tcp.svg', 'chart-cpu.svg', 'chart-rtt.svg']);
    for (const chart of charts) {
      const xs = encodingsOf(chart.spec, 'x');
      expect(xs.length, chart.name).toBeGreaterThan(0);
      for (const x of xs) {
        expect(x.field, chart.name).toBe('size');
        expect(x.scale.type, chart.name).toBe('linear');
        const [lo, hi] = x.scale.domain;
        expect(lo, chart.name).toBeLessThan(0);
        expect(hi, chart.name).toBeGreaterThan(1);
        expect(Number.isFinite(lo) && Number.isFinite(hi), chart.name).toBe(true);
        expect(x.axis.values, chart.name).toEqual([0, 1]);
      }
    }
  });

  it('draw them: no log scale "from 0 to Infinity", every size labelled with its number, points at two places', () => {
    for (const [name, svg] of Object.entries(pgSvgs)) {
      expect(svg, name).not.toContain('Infinity');
      const axes = axisLabels(svg, 'X');
      expect(axes.length, name).toBeGreaterThanOrEqual(1);
      for (const labels of axes) expect(labels, name).toEqual(['0', '1']);
      const places = new Set([...svg.matchAll(/aria-roledescription="point" transform="translate\(([\d.]+),/g)].map(([, px]) => px));
      expect(places.size, name).toBe(2);
    }
  });

  it('name a size in a panel header as bytes, or by the axis and its number where it is a count', () => {
    expect(sizeText(workloadOf('postgres').axes.size, 0)).toBe('SELECT 1'); // the workload's own words, as its tables say it
    expect(sizeText(workloadOf('postgres').axes.size, 1)).toBe('1 lookup');
    expect(sizeText(workloadOf('connect').axes.size, 12)).toBe('greeting 12');
    expect(sizeText(workloadOf('echo').axes.size, 1024)).toBe('1 KiB');
  });
});

describe('the charts of a --node sweep', () => {
  // two Node versions, the second 3.5× the msgs/s of the first; two depths
  /** @type {Record<string, any>[]} */
  const nodeRows = [];
  for (const [version, factor] of /** @type {const} */ ([['v20.0.0', 1], ['v22.0.0', 3.5]])) {
    for (let run = 0; run < 2; run++) {
      for (const depth of [1, 16]) {
        for (const size of [64, 1024]) {
          const tcp = 10_000 * factor * (1 + 0.05 * run);
          nodeRows.push({ ...okRow(run, 'tcp', size, depth, tcp), node_version: version }, { ...okRow(run, 'uds', size, depth, tcp * 1.3), node_version: version });
        }
      }
    }
  }
  const meta = { status: 'complete', nodes: [{ version: 'v20.0.0' }, { version: 'v22.0.0' }] };
  const charts = chartSpecs(buildFindings({ trials: nodeRows, meta }));

  it('give every panel of a chart one y scale: they show one figure, and the versions differ in it', async () => {
    const faceted = charts.filter((c) => c.spec.facet);
    expect(faceted.map((c) => c.name)).toEqual(['chart-msgs_per_s.svg', 'chart-cpu.svg', 'chart-rtt.svg']);
    for (const chart of faceted) expect(chart.spec.resolve?.scale?.y, chart.name).not.toBe('independent');
    const primary = /** @type {import('../../lib/report/charts.js').Chart} */ (faceted[0]);
    const svg = await renderSvg(primary.spec);
    expect(titlesOf(svg).filter((t) => / · Node v2[02]\.0\.0$/.test(t))).toHaveLength(4); // depth × version panels
    const yAxes = [...svg.matchAll(/aria-label="(Y-axis titled [^"]*)"/g)].map(([, label]) => label);
    expect(yAxes.length).toBeGreaterThanOrEqual(1);
    expect(new Set(yAxes).size).toBe(1);
  }, 30_000);

  it('with one Node version, give each depth panel of the primary and CPU charts a y scale of its own (the depths differ by more than the transports)', () => {
    const one = chartSpecs(buildFindings({ trials: nodeRows.filter((r) => r.node_version === 'v20.0.0'), meta: { status: 'complete' } }));
    expect(Object.fromEntries(one.filter((c) => c.spec.facet).map((c) => [c.name, c.spec.resolve?.scale?.y]))).toEqual({
      'chart-msgs_per_s.svg': 'independent', 'chart-cpu.svg': 'independent', 'chart-rtt.svg': 'shared',
    });
  });
});

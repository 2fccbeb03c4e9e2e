import { describe, expect, it } from 'vitest';
import { createRecord } from '../../lib/trial/record.js';
import { summarize, toSummaryText } from '../../lib/stats/summarize.js';
import { toRunsWide } from '../../lib/results/wide.js';
import { buildFindings } from '../../lib/report/findings.js';
import { depthTable } from '../../lib/report/depth-table.js';
import { chartSpecs } from '../../lib/report/charts.js';
import { compareSweeps } from '../../lib/report/compare.js';
import { toComparison } from '../../lib/report/table.js';

/**
 * @param {number} run
 * @param {string} transport
 * @param {number} msgs
 */
const row = (run, transport, msgs) => ({ run, order: 0, ...createRecord({ workload: 'echo', transport, size_bytes: 64, depth: 1, packets: 1000, elapsed_ms: 1e6 / msgs, msgs_per_s: msgs, rtt_p50_us: 1e6 / msgs, client_cpu_us_per_msg: 1e5 / msgs }) });

// per run: TCP 100 · k, UDS about 150 · k, the abstract socket about 200 · k (k = 1, 1.1, 0.9): UDS/TCP ≈ 1.5, abstract/TCP ≈ 2
const JITTER = [[1, 1], [1.02, 0.98], [0.98, 1.02]];
/** @type {Record<string, any>[]} */
const rows = [1, 1.1, 0.9].flatMap((k, run) => [row(run, 'tcp', 100 * k), row(run, 'uds', 150 * k * JITTER[run][0]), row(run, 'uds-abstract', 200 * k * JITTER[run][1])]);

describe('three transports in every output', () => {
  it('summary.csv: each transport, then a ratio row per transport against TCP, UDS/TCP first', () => {
    const summary = summarize(rows).filter((r) => r.metric === 'msgs_per_s');
    expect(summary.map((r) => r.transport)).toEqual(['tcp', 'uds', 'uds-abstract', 'uds/tcp', 'uds-abstract/tcp']);
    const ratio = (/** @type {string} */ t) => summary.find((r) => r.transport === t);
    expect(ratio('uds/tcp')).toMatchObject({ unit: 'ratio', n: 3 });
    expect(ratio('uds/tcp')?.mean).toBeCloseTo(1.5, 2);
    expect(ratio('uds-abstract/tcp')?.mean).toBeCloseTo(2, 2);
    expect(ratio('uds-abstract/tcp')?.significant).toBe('yes');
  });

  it('the printed summary: a block per transport against TCP, the headline first', () => {
    const text = toSummaryText(summarize(rows));
    const headline = text.indexOf('UDS/TCP msgs/s');
    const abstract = text.indexOf('UDS abstract/TCP msgs/s');
    expect(headline).toBe(0);
    expect(abstract).toBeGreaterThan(headline);
    expect(text.slice(abstract)).toMatch(/64 B depth 1\s+× {2}2\.00/);
  });

  it('runs-wide: a row per transport and group, UDS and TCP first as in 2014', () => {
    const wide = toRunsWide(rows, { workload: 'echo', sizes: [64], depths: [1], transports: ['tcp', 'uds', 'uds-abstract'], runs: 3 });
    expect(wide.rows.map((r) => r[wide.columns[0]])).toEqual(['UDS Size 64', 'TCP Size 64', 'UDS-ABSTRACT Size 64']);
  });

  it('findings, verdicts, tables and charts: every transport and its ratio to TCP', () => {
    const findings = buildFindings({ trials: rows, meta: null });
    const [section] = findings.sections;
    expect(section.transports).toEqual(['tcp', 'uds', 'uds-abstract']);
    const figure = section.sizes[0].figures.msgs_per_s;
    expect(figure.others['uds-abstract'].ratio?.value).toBeCloseTo(2, 2);
    expect(section.verdict).toMatch(/^depth 1: UDS gives 1\.50× the messages per second of TCP .*\. UDS abstract against TCP: UDS abstract gives 2\.00× the messages per second of TCP/);
    const table = depthTable(section);
    const col = (/** @type {string} */ heading) => table.columns.findIndex((c) => c.heading === heading);
    expect(table.rows[0][col('UDS abstract/TCP (×)')]).toBe('2.00');
    expect(table.columns.some((c) => c.heading === 'client CPU UDS abstract (µs/msg)')).toBe(true);
    const charts = chartSpecs(findings);
    expect(charts.map((c) => c.name)).toEqual(expect.arrayContaining(['chart-uds-vs-tcp.svg', 'chart-uds-abstract-vs-tcp.svg']));
    const main = /** @type {any} */ (charts[0].spec);
    expect(JSON.stringify(main)).toContain('"UDS abstract"');
  });

  it('compare: B/A of each transport and of each ratio to TCP', () => {
    const faster = rows.map((r) => ({ ...r, msgs_per_s: r.transport === 'uds-abstract' ? r.msgs_per_s * 2 : r.msgs_per_s }));
    const { rows: compared } = compareSweeps({ dir: 'a', trials: rows }, { dir: 'b', trials: faster }, { metrics: ['msgs_per_s'] });
    expect(compared.map((r) => r.transport)).toEqual(['tcp', 'uds', 'uds-abstract', 'uds/tcp', 'uds-abstract/tcp']);
    expect(compared.find((r) => r.transport === 'uds-abstract/tcp')?.ratio).toBeCloseTo(2, 9);
    expect(compared.find((r) => r.transport === 'uds/tcp')?.ratio).toBeCloseTo(1, 9);
  });

  it("run's comparison: a line per transport against TCP", () => {
    const text = toComparison(/** @type {any} */ (rows.filter((r) => r.run === 0)));
    expect(text.split('\n').filter(Boolean).map((line) => line.replace(/ ×.*$/, ''))).toEqual(['64 B depth 1: UDS', '64 B depth 1: UDS abstract']);
  });
});

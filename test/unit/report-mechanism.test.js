/**
 * Where a UDS/TCP ratio is far from 1, the verdict names the mechanism
 * figure (context switches, read or write calls per unit) that differs most
 * between the transports; the depth tables show switches and writes beside
 * CPU. Summary rows in, words and cells out.
 */
import { describe, expect, it } from 'vitest';
import { createRecord } from '../../lib/trial/record.js';
import { buildFindings } from '../../lib/report/findings.js';
import { depthTable } from '../../lib/report/depth-table.js';
import { FIGURES } from '../../lib/workloads/figures.js';
import { FAR, MIN_PER_UNIT, mostDifferent, toVerdict } from '../../lib/report/verdict.js';

const KiB = 1024;
const trials = ['tcp', 'uds'].map((transport) => ({ run: 0, order: 0, ...createRecord({ workload: 'stream', transport, size_bytes: 512 * KiB, depth: 1, gb_per_s: 1 }) }));

/**
 * A summary row of the stream workload at 512 KiB.
 * @param {string} transport
 * @param {string} metric
 * @param {number} value
 * @param {[number, number]} ci
 */
const s = (transport, metric, value, ci) => ({
  workload: 'stream', size_bytes: 512 * KiB, depth: 1, transport, metric, unit: transport === 'uds/tcp' ? 'ratio' : 'x', n: 5,
  mean: value, geomean: value, median: value, sd: null, cv: 0.02, min: value, max: value,
  ci95_low: ci[0], ci95_high: ci[1], outliers: 0, significant: transport === 'uds/tcp' ? (ci[0] > 1 || ci[1] < 1 ? 'yes' : 'no') : null,
});
/**
 * TCP, UDS and UDS/TCP rows of one figure.
 * @param {string} metric
 * @param {number} tcp
 * @param {number} uds
 * @param {[number, number]} ci of the ratio
 */
const figure = (metric, tcp, uds, ci) => [s('tcp', metric, tcp, [tcp * 0.9, tcp * 1.1]), s('uds', metric, uds, [uds * 0.9, uds * 1.1]), s('uds/tcp', metric, uds / tcp, ci)];

const mechanisms = [
  ...figure('client_writes_per_chunk', 1.0, 3.1, [2.9, 3.3]), // the one
  ...figure('server_reads_per_chunk', 8.2, 9.8, [1.1, 1.3]), // significant, nearer 1
  ...figure('client_vcsw_per_chunk', 0.2, 1.0, [0.5, 50]), // farther, but its CI includes 1
  ...figure('client_ivcsw_per_chunk', 0.001, 0.02, [15, 25]), // farthest, but rarer than MIN_PER_UNIT
];

describe('the mechanism behind a ratio', () => {
  it('is named in the verdict where the ratio is far from 1: the significant, frequent figure farthest from 1', () => {
    expect(FAR).toBe(0.1);
    expect(MIN_PER_UNIT).toBeGreaterThan(0.001);
    const summary = [...figure('gb_per_s', 2.0, 1.56, [0.70, 0.87]), ...mechanisms];
    const { sections } = buildFindings({ trials, meta: null }, { summary });
    expect(sections[0].verdict).toBe('streams 1: UDS gives 0.78× the gigabytes per second at the receiver of TCP at 512 KiB (95 % CI 0.70–0.87; most different: UDS makes 3.10× the client write calls per chunk of TCP).');
  });

  it('is not named where the ratio is within 0.9–1.1 or not significant, or where no mechanism ratio is significant', () => {
    const near = buildFindings({ trials, meta: null }, { summary: [...figure('gb_per_s', 2.0, 2.1, [1.02, 1.08]), ...mechanisms] });
    expect(near.sections[0].verdict).toBe('streams 1: UDS gives 1.05× the gigabytes per second at the receiver of TCP at 512 KiB (95 % CI 1.02–1.08).');
    const figures = buildFindings({ trials, meta: null }, { summary: [...figure('gb_per_s', 2.0, 1.56, [0.70, 0.87]), ...figure('client_writes_per_chunk', 1.0, 3.1, [0.9, 9])] }).sections[0].sizes[0].figures;
    expect(mostDifferent(figures, 'gb_per_s')).toBeNull();
  });

  it('is said per size where sizes of one verdict differ in it', () => {
    const r = (/** @type {number} */ value) => ({ value, low: value - 0.03, high: value + 0.03, n: 5 });
    const m = (/** @type {string} */ metric, /** @type {number} */ ratio) => ({ metric, label: FIGURES[metric].label, ratio, tcp: 1, uds: ratio });
    const line = toVerdict({ depth: 16, workload: 'echo', sizes: [
      { size_bytes: 1, ratio: r(1.8), mechanism: m('server_vcsw_per_msg', 0.5) },
      { size_bytes: 64, ratio: r(1.9), mechanism: m('server_vcsw_per_msg', 0.45) },
      { size_bytes: 1024, ratio: r(1.6), mechanism: m('client_writes_per_msg', 0.25) },
      { size_bytes: 4096, ratio: r(1.05), mechanism: null },
    ] }, FIGURES.msgs_per_s);
    expect(line).toBe('depth 16: UDS gives 1.05–1.90× the messages per second of TCP at 1 B–4 KiB (every 95 % CI above 1; most different: UDS makes 0.45–0.50× the server voluntary context switches per message of TCP at 1 B and 64 B; 0.25× the client write calls per message at 1 KiB).');
  });

  it('shows switches and writes per unit beside CPU in the depth table, and nothing for results without them', () => {
    const summary = [...figure('gb_per_s', 2.0, 1.56, [0.70, 0.87]), ...mechanisms, ...figure('client_cpu_ms_per_gb', 100, 120, [1.1, 1.3])];
    const { columns, rows, mechanisms: has } = depthTable(buildFindings({ trials, meta: null }, { summary }).sections[0]);
    expect(has).toBe(true);
    const at = (/** @type {string} */ heading) => rows[0][columns.findIndex((c) => c.heading === heading)];
    expect(at('client writes/chunk TCP')).toBe('1');
    expect(at('client writes/chunk UDS')).toBe('3.10');
    expect(at('client vcsw/chunk UDS')).toBe('1');
    expect(columns.findIndex((c) => c.heading === 'client writes/chunk TCP')).toBeGreaterThan(columns.findIndex((c) => c.heading.startsWith('client CPU UDS')));
    expect(columns.map((c) => c.heading)).not.toContain('server writes/chunk TCP'); // not summarised here
    const old = depthTable(buildFindings({ trials, meta: null }, { summary: figure('gb_per_s', 2.0, 1.56, [0.70, 0.87]) }).sections[0]);
    expect(old.mechanisms).toBe(false);
    expect(old.columns.some((c) => /vcsw|writes/.test(c.heading))).toBe(false);
  });
});

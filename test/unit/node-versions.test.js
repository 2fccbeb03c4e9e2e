/**
 * The Node-version axis in the pure layers: the schedule interleaves
 * versions within every run (and leaves a one-version plan as it was), and
 * the summary compares each version with the first, runs paired, against
 * worked values, for every transport of the sweep (the report's line,
 * table, summary.md and --json alike).
 */
import { describe, expect, it } from 'vitest';
import { compareVersions, orderVersions } from '../../lib/core/node-executables.js';
import { planTrials, rowKey } from '../../lib/sweep/schedule.js';
import { SUMMARY_COLUMNS, summarize, toSummaryText } from '../../lib/stats/summarize.js';
import { toRunsWide } from '../../lib/results/wide.js';
import { buildFindings } from '../../lib/report/findings.js';
import { versionTable } from '../../lib/report/versions.js';
import { toMarkdown, toVerdictText } from '../../lib/report/report-text.js';
import { toReportDocument } from '../../lib/results/json.js';

const plan = { sizes: [1, 64, 1024], depths: [1, 16], transports: /** @type {('tcp' | 'uds')[]} */ (['tcp', 'uds']), pairing: /** @type {const} */ ('blocks'), runs: 4, seed: 3 };

describe('the schedule with Node versions', () => {
  it('puts every group under every version in every run, in one shuffled order, so versions interleave in time', () => {
    const jobs = planTrials({ ...plan, nodes: ['v20.20.2', 'v26.10.0'] });
    expect(jobs).toHaveLength(4 * 6 * 2);
    for (let run = 0; run < 4; run++) {
      const inRun = jobs.filter((j) => j.run === run);
      expect(inRun.map((j) => j.order)).toEqual([...Array(12).keys()]);
      expect(new Set(inRun.map((j) => `${j.node}|${j.size}|${j.depth}`)).size).toBe(12);
    }
    // neither version goes first as a block: they alternate somewhere in every run
    const switches = jobs.filter((j, i) => i > 0 && j.run === jobs[i - 1].run && j.node !== jobs[i - 1].node).length;
    expect(switches).toBeGreaterThan(4);
    expect(planTrials({ ...plan, nodes: ['v20.20.2', 'v26.10.0'] })).toEqual(jobs);
  });

  it('with one version, makes the plan a sweep without the axis makes (the version only added)', () => {
    const one = planTrials({ ...plan, nodes: ['v20.20.2'] });
    const none = planTrials(plan);
    expect(one.map(({ node: _node, ...job }) => job)).toEqual(none.map(({ node: _node, ...job }) => job));
    expect(new Set(none.map((j) => j.node))).toEqual(new Set([process.version]));
  });

  it('tells rows of two versions apart on resume', () => {
    const row = { run: 0, node_version: 'v20.20.2', size_bytes: 64, depth: 1, transport: 'tcp' };
    expect(rowKey(row)).not.toBe(rowKey({ ...row, node_version: 'v26.10.0' }));
  });
});

describe('versions in order', () => {
  it('compares versions by number, and orders the listed first, then the rest oldest first', () => {
    expect(compareVersions('v9.0.0', 'v10.0.0')).toBeLessThan(0);
    expect(compareVersions('v20.20.2', 'v20.9.9')).toBeGreaterThan(0);
    expect(compareVersions('v24.1.0', '24.1.0')).toBe(0);
    expect(orderVersions(['v22.1.0', 'v9.0.0', 'v26.0.0', 'v22.1.0'])).toEqual(['v9.0.0', 'v22.1.0', 'v26.0.0']);
    expect(orderVersions(['v22.1.0', 'v9.0.0', 'v26.0.0'], ['v26.0.0', 'v1.0.0'])).toEqual(['v26.0.0', 'v9.0.0', 'v22.1.0']);
  });
});

/**
 * Trial rows of one group: per version and run, TCP and UDS msgs/s.
 * @param {Record<string, [number, number][]>} byVersion version → per run [tcp, uds]
 */
function trialRows(byVersion) {
  return Object.entries(byVersion).flatMap(([node_version, runs]) => runs.flatMap(([tcp, uds], run) => [
    { run, workload: 'echo', node_version, transport: 'tcp', size_bytes: 64, depth: 1, msgs_per_s: tcp, status: 'ok' },
    { run, workload: 'echo', node_version, transport: 'uds', size_bytes: 64, depth: 1, msgs_per_s: uds, status: 'ok' },
  ]));
}

describe('the summary with Node versions', () => {
  // v26 against v20, per run: TCP ×1.2, ×1.25, ×1.3; UDS/TCP 1.5 → 1.2, 1.6 → 1.28, 1.4 → 1.12: ×0.8 each run
  const rows = trialRows({
    'v26.10.0': [[120, 144], [125, 160], [130, 145.6]],
    'v20.20.2': [[100, 150], [100, 160], [100, 140]],
  });

  it('summarises each version apart, then each later version against the first listed, runs paired', () => {
    const summary = summarize(rows, { moderate: false, nodes: ['v20.20.2', 'v26.10.0'] });
    expect(SUMMARY_COLUMNS.slice(0, 3)).toEqual(['workload', 'node_version', 'size_bytes']);
    const ratio = (/** @type {string} */ node, /** @type {string} */ transport) => summary.find((r) => r.node_version === node && r.transport === transport && r.metric === 'msgs_per_s');
    expect(ratio('v20.20.2', 'uds/tcp')?.geomean).toBeCloseTo(Math.cbrt(1.5 * 1.6 * 1.4), 10);
    expect(ratio('v26.10.0', 'uds/tcp')?.geomean).toBeCloseTo(Math.cbrt(1.2 * 1.28 * 1.12), 10);
    const rr = ratio('v26.10.0/v20.20.2', 'uds/tcp');
    expect(rr).toMatchObject({ workload: 'echo', size_bytes: 64, depth: 1, unit: 'ratio', n: 3, ci95_df: 2, significant: 'yes' });
    expect(rr?.geomean).toBeCloseTo(0.8, 10); // the same ×0.8 in every run: no spread
    expect(rr?.ci95_half_width_pct).toBeCloseTo(0, 8);
    const tcp = ratio('v26.10.0/v20.20.2', 'tcp');
    expect(tcp?.geomean).toBeCloseTo(Math.cbrt(1.2 * 1.25 * 1.3), 10);
    const logs = [1.2, 1.25, 1.3].map(Math.log);
    const mean = logs.reduce((a, b) => a + b) / 3;
    const sd = Math.sqrt(logs.reduce((a, b) => a + (b - mean) ** 2, 0) / 2);
    expect(tcp?.ci95_low).toBeCloseTo(Math.exp(mean - 4.302652729911275 * sd / Math.sqrt(3)), 8); // t(0.975, 2)
    expect(ratio('v26.10.0/v20.20.2', 'uds')?.geomean).toBeCloseTo(Math.cbrt((144 / 150) * (160 / 160) * (145.6 / 140)), 10);
    // the first listed is the baseline, whatever the versions' numbers
    expect(summarize(rows, { moderate: false, nodes: ['v26.10.0', 'v20.20.2'] }).some((r) => r.node_version === 'v20.20.2/v26.10.0')).toBe(true);
  });

  it('pairs versions by run: a run one version lacks is left out of the comparison', () => {
    const partial = rows.filter((r) => !(r.node_version === 'v20.20.2' && r.run === 2));
    const tcp = summarize(partial, { moderate: false, nodes: ['v20.20.2', 'v26.10.0'] }).find((r) => r.node_version === 'v26.10.0/v20.20.2' && r.transport === 'tcp' && r.metric === 'msgs_per_s');
    expect(tcp?.n).toBe(2);
    expect(tcp?.geomean).toBeCloseTo(Math.sqrt(1.2 * 1.25), 10);
  });

  it('prints each version and the comparison; with one version nothing changes but the column', () => {
    const text = toSummaryText(summarize(rows, { nodes: ['v20.20.2', 'v26.10.0'] }));
    expect(text).toMatch(/^ {2}v20\.20\.2 64 B depth 1 +× {2}1\.50/m);
    expect(text).toContain('Node versions against v20.20.2 (the first given), runs paired');
    expect(text).toMatch(/^ {2}v26\.10\.0\/v20\.20\.2 64 B depth 1 +× {2}0\.80 \[ {2}0\.80, {3}0\.80\] \* {3}× {2}1\.25 \[/m);
    const single = rows.filter((r) => r.node_version === 'v20.20.2');
    const one = summarize(single);
    expect(one.every((r) => r.node_version === 'v20.20.2')).toBe(true);
    const without = summarize(single.map(({ node_version: _version, ...r }) => r));
    expect(one.map(({ node_version: _version, ...r }) => r)).toEqual(without.map(({ node_version: _version, ...r }) => r));
    expect(toSummaryText(one)).toBe(toSummaryText(without));
  });

  it('gives the 2014 layout a row per transport, size and version', () => {
    const wide = toRunsWide(rows, { workload: 'echo', sizes: [64], depths: [1], transports: ['tcp', 'uds'], runs: 3, nodes: ['v20.20.2', 'v26.10.0'] });
    expect(wide.rows.map((r) => r[wide.columns[0]])).toEqual(['UDS Size 64 Node v20.20.2', 'TCP Size 64 Node v20.20.2', 'UDS Size 64 Node v26.10.0', 'TCP Size 64 Node v26.10.0']);
    expect(toRunsWide(rows.filter((r) => r.node_version === 'v20.20.2'), { workload: 'echo', sizes: [64], depths: [1], transports: ['tcp', 'uds'], runs: 3 }).rows.map((r) => r[wide.columns[0]])).toEqual(['UDS Size 64', 'TCP Size 64']);
  });
});

describe('the comparison of versions covers every transport of the sweep', () => {
  /**
   * Trial rows of one group (64 B, depth 1), per version and run: msgs/s of each transport.
   * @param {Record<string, Record<string, number>[]>} byVersion version → per run { transport: msgs/s }
   */
  const rowsOf = (byVersion) => Object.entries(byVersion).flatMap(([node_version, runs]) => runs.flatMap((figures, run) => Object.entries(figures).map(([transport, msgs]) => (
    { run, workload: 'echo', node_version, transport, size_bytes: 64, depth: 1, msgs_per_s: msgs, rtt_mean_us: 1e6 / msgs, status: 'ok' }))));
  const versions = ['v20.20.2', 'v22.1.0', 'v26.10.0'];
  // per run, against v20: tcp ×1.1, uds ×1.2, worker ×1.5 under v22; ×1.2, ×1.2, ×2 under v26
  const three = rowsOf({
    'v20.20.2': [{ tcp: 100, uds: 150, worker: 80 }, { tcp: 110, uds: 160, worker: 90 }, { tcp: 105, uds: 155, worker: 85 }],
    'v22.1.0': [{ tcp: 110, uds: 180, worker: 120 }, { tcp: 121, uds: 192, worker: 135 }, { tcp: 115.5, uds: 186, worker: 127.5 }],
    'v26.10.0': [{ tcp: 120, uds: 180, worker: 160 }, { tcp: 132, uds: 192, worker: 180 }, { tcp: 126, uds: 186, worker: 170 }],
  });
  const meta = { status: 'complete', spec: { pin: 'none', node: versions }, nodes: versions.map((version) => ({ version })) };

  it('tcp, uds and worker under three versions: worker in the table, the verdict lines, summary.md, the printed summary and --json versions', () => {
    const summary = summarize(three, { moderate: false, nodes: versions });
    expect(summary.filter((r) => r.node_version === 'v26.10.0/v20.20.2' && r.metric === 'msgs_per_s').map((r) => r.transport)).toEqual(['uds/tcp', 'worker/tcp', 'tcp', 'uds', 'worker']);
    const findings = buildFindings({ trials: three, meta }, { summary });
    expect(findings.versions.map((v) => [v.node, v.ratios, v.transports])).toEqual([
      ['v22.1.0', ['uds/tcp', 'worker/tcp'], ['tcp', 'uds', 'worker']],
      ['v26.10.0', ['uds/tcp', 'worker/tcp'], ['tcp', 'uds', 'worker']],
    ]);
    const [v22, v26] = findings.versions;
    expect(v26.groups[0].transports.worker?.value).toBeCloseTo(2, 10);
    expect(v26.groups[0].ratios['worker/tcp']?.value).toBeCloseTo(2 / 1.2, 10);
    expect(v22.groups[0].ratios['uds/tcp']?.value).toBeCloseTo(1.2 / 1.1, 10);
    expect(v26.line).toMatch(/^Node v26\.10\.0 against v20\.20\.2: UDS\/TCP msgs\/s ×1\.00 \(.*\); worker\/TCP msgs\/s ×1\.67 \(95 % CI excludes 1 at 1 of 1 group: 64 B depth 1 ×1\.67\); TCP msgs\/s ×1\.20 \(.*\); UDS msgs\/s ×1\.20 \(.*\); worker msgs\/s ×2\.00 \(.*\)\.$/);
    const table = versionTable(v26);
    expect(table.columns.map((c) => c.title)).toEqual(['size', 'depth', 'UDS/TCP ×', '95 % CI', 'sig', 'worker/TCP ×', '95 % CI', 'sig', 'TCP msgs/s ×', '95 % CI', 'UDS msgs/s ×', '95 % CI', 'worker msgs/s ×', '95 % CI', 'runs']);
    expect(table.rows).toEqual([['64 B', '1', '1.00', '1.00–1.00', 'no', '1.67', '1.67–1.67', 'yes', '1.20', '1.20–1.20', '1.20', '1.20–1.20', '2.00', '2.00–2.00', '3']]);
    expect(toVerdictText(findings)).toContain('; worker msgs/s ×2.00 (');
    const md = toMarkdown(findings);
    expect(md).toContain('| worker/TCP msgs/s, v26.10.0/v20.20.2 (×) |');
    expect(md).toContain('| worker msgs/s, v22.1.0/v20.20.2 (×) |');
    const json = toReportDocument(findings);
    expect(json.versions[1]).toMatchObject({ node: 'v26.10.0', base: 'v20.20.2', ratios: ['uds/tcp', 'worker/tcp'], transports: ['tcp', 'uds', 'worker'] });
    expect(json.versions[1].groups[0].transports.worker.value).toBeCloseTo(2, 10);
    const text = toSummaryText(summary);
    expect(text).toMatch(/^ {2}\s+UDS\/TCP ratio\s+worker\/TCP ratio\s+TCP msgs\/s\s+UDS msgs\/s\s+worker msgs\/s$/m);
    expect(text).toMatch(/^ {2}v26\.10\.0\/v20\.20\.2 64 B depth 1 +× {2}1\.00 .*× {2}1\.67 .*× {2}1\.20 .*× {2}1\.20 .*× {2}2\.00 /m);
  });

  it('tcp and worker: worker against TCP and each transport, no UDS "not compared"', () => {
    const two = three.filter((r) => r.transport !== 'uds' && r.node_version !== 'v22.1.0');
    const nodes = ['v20.20.2', 'v26.10.0'];
    const findings = buildFindings({ trials: two, meta: { ...meta, spec: { pin: 'none', node: nodes }, nodes: nodes.map((version) => ({ version })) } });
    expect(findings.versions).toHaveLength(1);
    expect(findings.versions[0].line).toMatch(/^Node v26\.10\.0 against v20\.20\.2: worker\/TCP msgs\/s ×1\.67 \(.*\); TCP msgs\/s ×1\.20 \(.*\); worker msgs\/s ×2\.00 \(.*\)\.$/);
    expect(findings.versions[0].line).not.toMatch(/UDS|not compared/);
    expect(versionTable(findings.versions[0]).columns.map((c) => c.title)).toEqual(['size', 'depth', 'worker/TCP ×', '95 % CI', 'sig', 'TCP msgs/s ×', '95 % CI', 'worker msgs/s ×', '95 % CI', 'runs']);
    expect(toSummaryText(summarize(two, { nodes }))).toMatch(/^ {2}v26\.10\.0\/v20\.20\.2 64 B depth 1 +× {2}1\.67 .*× {2}1\.20 .*× {2}2\.00 /m);
  });
});

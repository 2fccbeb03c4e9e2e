import { describe, expect, it } from 'vitest';
import { findKnees } from '../../lib/stats/knees.js';
import { summaryOf } from '../../lib/report/findings.js';
import { toReportDocument } from '../../lib/results/json.js';

/**
 * An open-loop trial row.
 * @param {number} run
 * @param {string} transport
 * @param {number} rate
 * @param {string} limit
 */
const row = (run, transport, rate, limit, status = 'ok') => ({ workload: 'rate', node_version: 'v20.20.2', run, size_bytes: 64, depth: rate, transport, status, limit });

/**
 * One run's rows of a transport up a ladder of rates: kept up to its knee, missed by the server above.
 * @param {number} run
 * @param {string} transport
 * @param {number} knee
 * @param {number[]} [rates]
 */
const ladderOf = (run, transport, knee, rates = [1000, 2000, 4000]) => rates.map((rate) => row(run, transport, rate, rate <= knee ? 'none' : 'server'));

describe('findKnees', () => {
  it('per run, the largest rate kept, a lower rate missed notwithstanding; the ratio to TCP paired by run; what stopped each above its knee', () => {
    const rows = [
      // run 0: TCP keeps 1000 and 2000, the server stops it at 4000; UDS keeps all three
      row(0, 'tcp', 1000, 'none'), row(0, 'tcp', 2000, 'none'), row(0, 'tcp', 4000, 'server'),
      row(0, 'uds', 1000, 'none'), row(0, 'uds', 2000, 'none'), row(0, 'uds', 4000, 'none'),
      // run 1: TCP misses 2000 (a pause of the machine: it keeps 4000, the ladder's top); UDS stops at 4000 on the generator
      row(1, 'tcp', 1000, 'none'), row(1, 'tcp', 2000, 'server'), row(1, 'tcp', 4000, 'none'),
      row(1, 'uds', 1000, 'none'), row(1, 'uds', 2000, 'none'), row(1, 'uds', 4000, 'generator'),
    ];
    const [knee] = findKnees(rows);
    expect(knee).toMatchObject({ workload: 'rate', node: null, size_bytes: 64, rates: [1000, 2000, 4000] });
    expect(knee.transports.map((t) => [t.transport, t.runs, t.stoppedBy, t.missedBelow])).toEqual([
      ['tcp', [2000, 4000], { server: 1 }, 1],
      ['uds', [4000, 2000], { generator: 1 }, 0],
    ]);
    expect(knee.transports[0].knee).toBeCloseTo(Math.sqrt(2000 * 4000), 6);
    // no run with both knees below the ladder's top (run 0: UDS at 4000; run 1: TCP at 4000): no ratio
    expect(knee.ratios.uds).toBeNull();
    expect(knee.line).toMatch(/^knee at 64 B \(the largest rate offered that was kept; .*\): TCP 2,828\/s, then limited by the server \(1 lower rate missed in a run, not counted: a rate kept above says the transport carried it\); UDS 2,828\/s, then limited by the generator\. UDS\/TCP: no run with both knees below the ladder's top/);
  });

  it('UDS/TCP of the knees paired by run: the geometric mean of the runs\' ratios with its interval', () => {
    const rows = [
      row(0, 'tcp', 1000, 'none'), row(0, 'tcp', 2000, 'server'), row(0, 'tcp', 4000, 'server'),
      row(0, 'uds', 1000, 'none'), row(0, 'uds', 2000, 'none'), row(0, 'uds', 4000, 'server'),
      row(1, 'tcp', 1000, 'none'), row(1, 'tcp', 2000, 'none'), row(1, 'tcp', 4000, 'server'),
      row(1, 'uds', 1000, 'none'), row(1, 'uds', 2000, 'none'), row(1, 'uds', 4000, 'server'),
    ];
    const [knee] = findKnees(rows);
    expect(knee.transports.map((t) => t.runs)).toEqual([[1000, 2000], [2000, 2000]]);
    // run 0: 2000 / 1000, run 1: 2000 / 2000
    expect(knee.ratios.uds?.mean).toBeCloseTo(Math.SQRT2, 9);
    expect(knee.ratios.uds?.n).toBe(2);
    expect(knee.line).toMatch(/UDS\/TCP ×1\.41 \(95 % CI [0-9.]+–[0-9.]+, 2 runs\)\.$/);
  });

  it('no ratio from a run where a transport kept the ladder\'s top rate: its knee is only known to be higher, the ratio bounded; knees in order of size', () => {
    const rows = [
      row(0, 'tcp', 1000, 'none'), row(0, 'tcp', 2000, 'server'), row(0, 'uds', 1000, 'none'), row(0, 'uds', 2000, 'none'),
      { ...row(0, 'tcp', 1000, 'none'), size_bytes: 16 }, { ...row(0, 'uds', 1000, 'none'), size_bytes: 16 },
    ];
    const knees = findKnees(rows);
    expect(knees.map((k) => k.size_bytes)).toEqual([16, 64]);
    expect(knees[1].transports.map((t) => t.runs)).toEqual([[1000], [2000]]);
    expect(knees[1].ratios.uds).toBeNull();
    // UDS kept the top (2000) where TCP's knee was 1000: UDS/TCP at least 2
    expect(knees[1].bounds.uds).toMatchObject({ side: 'at least', interval: { mean: 2, n: 1, low: null, high: null } });
    expect(knees[1].line).toContain('UDS 2,000/s, every rate up to 2,000/s. UDS/TCP at least ×2.00 (one run: no interval): UDS kept the ladder\'s top, 2,000/s, in every run, so its knee is higher (offer rates above 2,000/s to find it).');
    // both kept the only rate: neither knee found, no bound either
    expect(knees[0].bounds).toEqual({});
    expect(knees[0].line).toContain('UDS/TCP: no run with both knees below the ladder\'s top (offer rates above 1,000/s to find them).');
  });

  it('each transport\'s knee with its interval over the runs where every run found it below the top; none where one kept the top', () => {
    const rates = [1000, 2000, 4000, 8000];
    const [knee] = findKnees([[0, 'tcp', 1000], [0, 'uds', 2000], [1, 'tcp', 2000], [1, 'uds', 4000], [2, 'tcp', 2000], [2, 'uds', 8000]].flatMap(([run, t, k]) => ladderOf(Number(run), String(t), Number(k), rates)));
    const [tcp, uds] = knee.transports;
    expect(tcp.interval?.mean).toBeCloseTo(Math.cbrt(1000 * 2000 * 2000), 6);
    expect(tcp.interval?.n).toBe(3);
    expect(tcp.interval?.low).toBeLessThan(/** @type {number} */ (tcp.knee));
    expect(tcp.interval?.high).toBeGreaterThan(/** @type {number} */ (tcp.knee));
    expect(uds.interval).toBeNull(); // run 2 kept 8000, the top: that knee is only a lower bound
    expect(knee.line).toMatch(/: TCP 1,587\/s \(95 % CI [\d,]+\/s–[\d,]+\/s\), then limited by the server; UDS 4,000\/s, then limited by the server\./);
  });

  it('a bound with its interval where the other transport kept the top in every run: TCP at the top bounds UDS/TCP from above; a run of each kind, no bound', () => {
    // TCP kept 4000 (the top) in both runs, UDS's knees 1000 and 2000: UDS/TCP at most 1000/4000 and 2000/4000
    const [below] = findKnees([...ladderOf(0, 'tcp', 4000), ...ladderOf(0, 'uds', 1000), ...ladderOf(1, 'tcp', 4000), ...ladderOf(1, 'uds', 2000)]);
    expect(below.ratios.uds).toBeNull();
    expect(below.bounds.uds?.side).toBe('at most');
    expect(below.bounds.uds?.interval.mean).toBeCloseTo(Math.sqrt(0.25 * 0.5), 9);
    expect(below.bounds.uds?.interval.n).toBe(2);
    expect(below.line).toMatch(/UDS\/TCP at most ×0\.35 \(95 % CI of that bound [0-9.]+–[0-9.]+, 2 runs\): TCP kept the ladder's top, 4,000\/s, in every run, so its knee is higher/);
    // run 0: UDS kept the top over TCP's 1000; run 1: TCP kept it over UDS's 2000: bounds of two sides, none given
    const [mixed] = findKnees([...ladderOf(0, 'tcp', 1000), ...ladderOf(0, 'uds', 4000), ...ladderOf(1, 'tcp', 4000), ...ladderOf(1, 'uds', 2000)]);
    expect([mixed.ratios.uds, mixed.bounds]).toEqual([null, {}]);
    expect(mixed.line).toContain('UDS/TCP: no run with both knees below the ladder\'s top');
  });

  it('no knee where a run kept no rate, a failed trial stops the climb, and closed-loop rows have none', () => {
    const rows = [
      row(0, 'tcp', 1000, 'generator'), row(0, 'uds', 1000, 'none'), row(0, 'uds', 2000, 'none', 'error'),
      { workload: 'echo', run: 0, size_bytes: 64, depth: 1, transport: 'tcp', status: 'ok' },
    ];
    const knees = findKnees(rows);
    expect(knees).toHaveLength(1);
    expect(knees[0].transports.map((t) => [t.transport, t.runs, t.knee, t.stoppedBy])).toEqual([
      ['tcp', [null], null, { generator: 1 }],
      ['uds', [1000], 1000, { failed: 1 }],
    ]);
    expect(knees[0].ratios.uds).toBeNull();
    expect(knees[0].line).toContain('TCP none (a run kept no rate)');
  });
});

describe('the percentile spectrum at half the lower knee', () => {
  /** @param {number} run @param {string} transport @param {number} rate @param {string} limit @param {number} base its p50 */
  const timed = (run, transport, rate, limit, base) => ({
    ...row(run, transport, rate, limit), requests: 4000, resp_p50_us: base, resp_p90_us: 2 * base, resp_p99_us: 5 * base, resp_p999_us: 20 * base, resp_max_us: 50 * base,
  });

  it('at the largest rate at or below half the lowest knee, a line per run that kept it, its max at the requests timed', () => {
    const rows = [
      // knees: TCP 4000 in both runs, UDS 8000: half the lower is 2000
      ...[0, 1].flatMap((run) => [1000, 2000, 4000, 8000].flatMap((rate) => [
        timed(run, 'tcp', rate, rate <= 4000 ? 'none' : 'server', 100 + run),
        timed(run, 'uds', rate, 'none', 80 + run),
      ])),
    ];
    const [knee] = findKnees(rows);
    expect(knee.transports.map((t) => t.knee)).toEqual([4000, 8000]);
    expect(knee.spectrum?.rate).toBe(2000);
    const points = knee.spectrum?.points ?? [];
    expect(points).toHaveLength(2 * 2 * 5); // transports × runs × (4 percentiles + max)
    expect(points.filter((p) => p.transport === 'tcp' && p.run === 1).map((p) => [p.percentile, Math.round(p.x), p.us])).toEqual([
      ['50 %', 2, 101], ['90 %', 10, 202], ['99 %', 100, 505], ['99.9 %', 1000, 2020], ['max', 4000, 5050],
    ]);
  });

  it('the lowest rate when none is at or below half the lower knee; none without a knee; a run that missed the rate drawn by none', () => {
    const kept = findKnees([timed(0, 'tcp', 1000, 'none', 100), timed(0, 'uds', 1000, 'none', 90), timed(1, 'tcp', 1000, 'none', 100), timed(1, 'uds', 1000, 'generator', 90)]);
    expect(kept[0].spectrum?.rate).toBe(1000);
    expect(new Set(kept[0].spectrum?.points.map((p) => `${p.transport} ${p.run}`))).toEqual(new Set(['tcp 0', 'uds 0', 'tcp 1']));
    expect(findKnees([timed(0, 'tcp', 1000, 'server', 100), timed(0, 'uds', 1000, 'server', 90)])[0].spectrum).toBeNull();
  });

  it('a run of fewer requests than a percentile needs draws it not: of 150 requests, p50 to p99, then the max at 150', () => {
    const [knee] = findKnees([{ ...timed(0, 'tcp', 500, 'none', 100), requests: 150 }, { ...timed(0, 'uds', 500, 'none', 90), requests: 150 }]);
    expect(knee.spectrum?.points.filter((p) => p.transport === 'tcp').map((p) => [p.percentile, p.x])).toEqual([['50 %', 2], ['90 %', 10], ['99 %', 100], ['max', 150]]);
  });
});

describe('the summary of an open-loop sweep', () => {
  it('leaves out a row that missed its rate: a ratio only from runs where both kept it', () => {
    const figures = (/** @type {number} */ p99) => ({ resp_p99_us: p99, resp_p50_us: p99 / 10, server_cpu_us_per_req: 10 });
    const rows = [
      { ...row(0, 'tcp', 1000, 'none'), ...figures(100) }, { ...row(0, 'uds', 1000, 'none'), ...figures(80) },
      { ...row(1, 'tcp', 1000, 'none'), ...figures(100) }, { ...row(1, 'uds', 1000, 'none'), ...figures(80) },
      // run 2: TCP saturated; its p99 would pull the ratio far down
      { ...row(2, 'tcp', 1000, 'server'), ...figures(100_000) }, { ...row(2, 'uds', 1000, 'none'), ...figures(80) },
    ];
    const summary = summaryOf(rows, null);
    const ratio = summary.find((r) => r.transport === 'uds/tcp' && r.metric === 'resp_p99_us');
    expect(ratio).toMatchObject({ n: 2 });
    expect(ratio?.mean).toBeCloseTo(0.8, 9);
    expect(summary.find((r) => r.transport === 'tcp' && r.metric === 'resp_p99_us')).toMatchObject({ n: 2, max: 100 });
    expect(summary.find((r) => r.transport === 'uds' && r.metric === 'resp_p99_us')).toMatchObject({ n: 3 });
  });
});

describe('the knees in the report document (sweep --json, report --json)', () => {
  it('each transport\'s interval, the ratios and the bounds as n, mean, low, high (and the bound\'s side)', () => {
    const knees = findKnees([...ladderOf(0, 'tcp', 1000), ...ladderOf(0, 'uds', 4000), ...ladderOf(1, 'tcp', 2000), ...ladderOf(1, 'uds', 4000)]);
    const findings = /** @type {any} */ ({ status: 'complete', trials: {}, sections: [], versions: [], knees, warnings: [], summary: [], meta: null });
    const [doc] = toReportDocument(findings).knees;
    expect(Object.keys(doc.bounds.uds).sort()).toEqual(['high', 'low', 'mean', 'n', 'side']);
    expect(doc.bounds.uds).toMatchObject({ side: 'at least', n: 2 });
    expect(doc.bounds.uds.mean).toBeCloseTo(Math.sqrt(4 * 2), 9); // 4000/1000 and 4000/2000
    expect(doc.ratios).toEqual({ uds: null });
    expect(Object.keys(doc.transports[0].interval).sort()).toEqual(['high', 'low', 'mean', 'n']);
    expect(doc.transports[0].interval.mean).toBeCloseTo(Math.SQRT2 * 1000, 6);
    expect(doc.transports[1].interval).toBeNull(); // UDS kept the top
  });
});

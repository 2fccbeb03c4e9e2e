import { describe, expect, it } from 'vitest';
import { compareSweeps, toCompareText } from '../../lib/report/compare.js';
import { tCritical, welchLogRatio } from '../../lib/stats/welch.js';
import { okRow, queryRow } from '../helpers/results-fixture.js';

describe("compare's statistic: Welch's t on log values", () => {
  it('takes critical values of Student\'s t from tinybench (two-sided 95 %)', () => {
    expect(tCritical(1)).toBeCloseTo(12.7062, 3);
    expect(tCritical(2)).toBeCloseTo(4.3027, 3);
    expect(tCritical(4)).toBeCloseTo(2.7764, 3);
    expect(tCritical(10)).toBeCloseTo(2.2281, 3);
    expect(tCritical(30)).toBeCloseTo(2.0423, 3);
    expect(tCritical(4.9)).toBe(tCritical(4)); // whole df, rounded down: never narrower
  });

  it('gives B/A as the ratio of geometric means, with the Welch interval (worked example)', () => {
    // A 100, 110, 120; B 130, 140, 150, 160: Welch–Satterthwaite df 4.3977, t(4) = 2.7764
    // (the values below were computed separately from these formulas)
    const w = welchLogRatio([100, 110, 120].map(Math.log), [130, 140, 150, 160].map(Math.log));
    expect(w.ratio).toBeCloseTo(1.31789056, 8);
    expect(w.df).toBeCloseTo(4.39772806, 8);
    expect(w.low).toBeCloseTo(1.08795893, 8);
    expect(w.high).toBeCloseTo(1.59641645, 8);
    expect(w.significant).toBe('yes');
  });

  it('gives no interval with fewer than two runs on a side', () => {
    expect(welchLogRatio([Math.log(2)], [Math.log(3), Math.log(3.1)])).toMatchObject({ ratio: expect.any(Number), low: null, high: null, significant: null });
  });

  it('compares each transport and UDS/TCP (per-run log-ratios) of the two sweeps; exact table', () => {
    // expected CIs computed separately: TCP df 1, t 12.706; UDS df 2 (exactly; a float 1.9999999999999998), t 4.303; UDS/TCP df 1
    const a = [okRow(0, 'tcp', 64, 1, 100), okRow(0, 'uds', 64, 1, 200), okRow(1, 'tcp', 64, 1, 100), okRow(1, 'uds', 64, 1, 220)];
    const b = [okRow(0, 'tcp', 64, 1, 100), okRow(0, 'uds', 64, 1, 300), okRow(1, 'tcp', 64, 1, 110), okRow(1, 'uds', 64, 1, 330)];
    const { rows } = compareSweeps({ dir: 'a', trials: a }, { dir: 'b', trials: b }, { metrics: ['msgs_per_s'] });
    const gap = rows.find((r) => r.transport === 'uds/tcp');
    expect(gap?.a).toBeCloseTo(Math.sqrt(2 * 2.2), 10);
    expect(gap?.b).toBeCloseTo(3, 10);
    expect(gap?.ratio).toBeCloseTo(3 / Math.sqrt(4.4), 10);
    expect(toCompareText({ rows, onlyA: [], onlyB: [] }, { a: 'a', b: 'b' })).toBe([
      'A = a',
      'B = b',
      'differences: none in the recorded environment and spec',
      '',
      'depth  size  transport  A msgs/s  B msgs/s    B/A  95 % CI      sig  runs A/B',
      '    1  64 B  TCP             100       105  1.049  0.572–1.922            2/2',
      '    1  64 B  UDS             210       315  1.500  1.122–2.005  *         2/2',
      '    1  64 B  UDS/TCP       ×2.10     ×3.00  1.430  0.781–2.620            2/2',
      '',
      "B/A: ratio of the geometric means over runs; 95 % CI from Welch's t-test on the log values of the per-run figures (Welch–Satterthwaite df, rounded down)",
      '1 of 3 comparisons have a 95 % CI that excludes 1 (marked *); about 0.2 would by chance alone.',
      '',
    ].join('\n'));
  });

  it('writes a size in the workload\'s words (postgres: SELECT 1, 1 lookup), the numbers left to --json', () => {
    const rows = (/** @type {number} */ k) => [0, 1].flatMap((size) => [0, 1].flatMap((run) => [queryRow(run, 'tcp', size, 3, 1000 * k), queryRow(run, 'uds', size, 3, 1100 * k)]));
    const { rows: compared } = compareSweeps({ dir: 'a', trials: rows(1) }, { dir: 'b', trials: rows(2) }, { metrics: ['queries_per_s'] });
    const table = toCompareText({ rows: compared, onlyA: [], onlyB: [] }, { metric: 'queries_per_s' });
    expect(table).toMatch(/^ +3 {2}SELECT 1 {2}TCP /m);
    expect(table).toMatch(/^ +3 {2}1 lookup {2}TCP /m);
    expect(table).not.toMatch(/\b[01] B\b/);
    expect(compared.map((r) => r.size_bytes)).toContain(0);
  });
});

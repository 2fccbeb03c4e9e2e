import { describe, expect, it } from 'vitest';
import { createRecord } from '../../lib/trial/record.js';
import { groupsShortOfPrecision, nextHalfWidth } from '../../lib/stats/ratios.js';

/**
 * Rows of one group: per run a TCP row at 100 msgs/s and a UDS row at 100 × ratio.
 * @param {number} size
 * @param {number[]} ratios
 */
const group = (size, ratios) => ratios.flatMap((r, run) => ['tcp', 'uds'].map((transport) => ({ run, order: 0, ...createRecord({ workload: 'echo', transport, size_bytes: size, depth: 1, msgs_per_s: transport === 'uds' ? 100 * r : 100 }) })));

describe('which groups get the next runs for a target precision', () => {
  it('expects one more run to shrink an interval by the fall of t(n−1)/√n (worked values)', () => {
    // t(2) = 4.3027, t(3) = 3.1824: 3 → 4 runs, ±5 % becomes exp(ln 1.05 × 3.1824/4.3027 × √(3/4)) − 1
    expect(nextHalfWidth(0.05, 3)).toBeCloseTo(Math.expm1(Math.log(1.05) * (3.182446305284263 / 4.302652729911275) * Math.sqrt(3 / 4)), 9);
    expect(nextHalfWidth(0.05, 10)).toBeGreaterThan(0.046); // little to gain at 10 runs
  });

  it('rank a group just over the target at 3 runs below one far over it at 10, and leave out those within it', () => {
    const rows = [
      ...group(1, [1.50, 1.57, 1.43]), // 3 runs, a wide interval: a 4th run removes much of it
      ...group(2, [1.10, 1.11, 1.10, 1.12, 1.09, 1.10, 1.11, 1.12, 1.09, 1.10]), // 10 runs, ±0.8 %: within ±3 %
      ...group(4, [1.2, 1.5, 1.0, 1.4, 1.1, 1.6, 0.9, 1.3, 1.2, 1.5]), // 10 runs, far over: a run removes little
    ];
    const short = groupsShortOfPrecision(rows, 0.03, 'msgs_per_s');
    expect(short.map((g) => g.size).sort()).toEqual([1, 4]);
    const [three, ten] = [short.find((g) => g.size === 1), short.find((g) => g.size === 4)];
    expect(Number(ten?.halfWidth)).toBeGreaterThan(Number(three?.halfWidth) / 2);
    expect(Number(three?.gain)).toBeGreaterThan(Number(ten?.gain));
  });

  it('give a group with one run (no interval yet) the highest priority', () => {
    const [g] = groupsShortOfPrecision(group(8, [1.2]), 0.03, 'msgs_per_s');
    expect(g).toMatchObject({ size: 8, halfWidth: null, gain: Infinity });
  });
});

describe('the precision rounds judge a group by its moderated interval', () => {
  it('keep adding runs to a group whose three runs happen to agree when the sweep\'s other groups spread by ±10 %', () => {
    const noisy = [1.0, 1.2, 0.9, 1.1];
    const rows = [...[2, 4, 8, 16, 32, 64, 128, 256].flatMap((size) => group(size, noisy)), ...group(1, [1.100, 1.101, 1.102])];
    const alone = groupsShortOfPrecision(group(1, [1.100, 1.101, 1.102]), 0.03, 'msgs_per_s');
    expect(alone).toEqual([]); // on its own: ±0.2 %, within ±3 %
    const short = groupsShortOfPrecision(rows, 0.03, 'msgs_per_s');
    expect(short.map((g) => g.size)).toContain(1);
    expect(Number(short.find((g) => g.size === 1)?.halfWidth)).toBeGreaterThan(0.03);
    // --intervals own: judged on its runs alone, as if by itself
    expect(groupsShortOfPrecision(rows, 0.03, 'msgs_per_s', { moderate: false }).map((g) => g.size)).not.toContain(1);
  });
});

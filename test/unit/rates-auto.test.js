/**
 * --depths auto's ladder (lib/sweep/rates-auto.js): doubling steps down from
 * twice the highest closed-loop capacity to a sixteenth of the lowest,
 * within the rate axis. Pure; the capacity probe itself runs in
 * test/cli/sweep-e2e-open.test.js.
 */
import { describe, expect, it } from 'vitest';
import { rateLadder } from '../../lib/sweep/rates-auto.js';
import { getWorkload } from '../../lib/workloads/index.js';

describe('rateLadder', () => {
  it('from twice the highest capacity down by halves to a sixteenth of the lowest', () => {
    expect(rateLadder([100_000, 40_000], { min: 1, max: 1_000_000 })).toEqual([3125, 6250, 12_500, 25_000, 50_000, 100_000, 200_000]);
  });

  it('within the axis: its top capped, its bottom at least the axis minimum, whole numbers, each once', () => {
    expect(rateLadder([800_000], { min: 1, max: 1_000_000 })).toEqual([62_500, 125_000, 250_000, 500_000, 1_000_000]);
    expect(rateLadder([10], { min: 1, max: 1_000_000 })).toEqual([1, 3, 5, 10, 20]);
    expect(rateLadder([0.1], { min: 1, max: 1_000_000 })).toEqual([1]);
  });

  it('the rate workload\'s probe is echo 16 deep, fewer for big packets (256 MiB in flight at most), without the server\'s delay', () => {
    const closed = getWorkload('rate').closed;
    expect([64, 16 * 1024 * 1024, 64 * 1024 * 1024].map((size) => closed?.depth({}, size))).toEqual([16, 16, 4]);
    expect(closed?.delay).toBe(false);
    expect(getWorkload('http-rate').closed?.depth({ connections: 7 }, 64)).toBe(7);
  });
});

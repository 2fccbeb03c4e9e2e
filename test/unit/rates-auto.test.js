/**
 * --depths auto's ladder (lib/sweep/rates-auto.js): doubling steps down from
 * twice the highest closed-loop capacity to a sixteenth of the lowest,
 * within the rate axis, and each knee bisected on it (a scripted answer
 * stands for the open-loop trial). Pure; the probe itself runs in
 * test/cli/sweep-e2e-open.test.js.
 */
import { describe, expect, it } from 'vitest';
import { bisectKnee, rateLadder, withKnees } from '../../lib/sweep/rates-auto.js';
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

describe('bisectKnee', () => {
  const ladder = [1000, 2000, 4000, 8000, 16_000, 32_000];
  /** A transport that keeps every rate up to its knee; the rates asked, in order. @param {number} knee */
  const upTo = (knee) => {
    /** @type {number[]} */
    const asked = [];
    return { asked, tryRate: async (/** @type {number} */ rate) => (asked.push(rate), rate <= knee ? 'none' : 'server') };
  };

  it('from the step at or below the capacity down to the first rate kept, then bisects geometrically between it and the last missed', async () => {
    const { asked, tryRate } = upTo(5000);
    const knee = await bisectKnee(tryRate, { ladder, start: 9000, steps: 3 });
    expect(asked).toEqual([8000, 4000, 5657, 4757, 5188]);
    expect(knee).toMatchObject({ kept: 4757, missed: 5188 });
    expect(knee.tried).toEqual([{ rate: 8000, kept: false, limit: 'server' }, { rate: 4000, kept: true, limit: 'none' },
      { rate: 5657, kept: false, limit: 'server' }, { rate: 4757, kept: true, limit: 'none' }, { rate: 5188, kept: false, limit: 'server' }]);
    // three bisections of a factor of 2: the knee to 2^(1/8), about 9 %
    expect(/** @type {number} */ (knee.missed) / /** @type {number} */ (knee.kept)).toBeLessThan(2 ** (1 / 8) * 1.001);
  });

  it('up the ladder while each rate is kept; no bisection with steps 0', async () => {
    const { asked, tryRate } = upTo(20_000);
    expect(await bisectKnee(tryRate, { ladder, start: 3000, steps: 0 })).toMatchObject({ kept: 16_000, missed: 32_000 });
    expect(asked).toEqual([2000, 4000, 8000, 16_000, 32_000]);
  });

  it('a knee below the floor: every step down missed, kept null; above the ceiling: every step up kept, missed null', async () => {
    const below = upTo(500);
    expect(await bisectKnee(below.tryRate, { ladder, start: 9000, steps: 3 })).toMatchObject({ kept: null, missed: 1000 });
    expect(below.asked).toEqual([8000, 4000, 2000, 1000]);
    const above = upTo(1e6);
    expect(await bisectKnee(above.tryRate, { ladder, start: 9000, steps: 3 })).toMatchObject({ kept: 32_000, missed: null });
    expect(above.asked).toEqual([8000, 16_000, 32_000]);
    // a capacity under the ladder starts at its floor
    expect((await bisectKnee(upTo(1e6).tryRate, { ladder, start: 10, steps: 1 })).tried[0].rate).toBe(1000);
  });

  it('an answer that is not monotonic: the walk stops at its first change, the bracket only narrows, every loop ends', async () => {
    const islands = { asked: /** @type {number[]} */ ([]), tryRate: async (/** @type {number} */ rate) => (islands.asked.push(rate), [1000, 16_000].includes(rate) ? 'none' : 'generator') };
    expect(await bisectKnee(islands.tryRate, { ladder, start: 9000, steps: 3 })).toMatchObject({ kept: 1000, missed: 1090 });
    expect(islands.asked).toEqual([8000, 4000, 2000, 1000, 1414, 1189, 1090]);
    let calls = 0;
    const flapping = async () => (calls++ % 2 ? 'none' : 'server');
    for (const start of [0, 3000, 9000, 1e9]) {
      const knee = await bisectKnee(flapping, { ladder, start, steps: 50 });
      expect(knee.tried.length).toBeLessThanOrEqual(ladder.length + 50);
      if (knee.kept !== null && knee.missed !== null) expect(knee.kept).toBeLessThan(knee.missed);
    }
  });

  it('an abort ends it between trials, with what it found', async () => {
    const stop = new AbortController();
    const knee = await bisectKnee(async (rate) => {
      if (rate === 4000) stop.abort();
      return rate <= 5000 ? 'none' : 'server';
    }, { ladder, start: 9000, steps: 3, signal: stop.signal });
    expect(knee).toMatchObject({ kept: 4000, missed: 8000 });
    expect(knee.tried).toHaveLength(2);
  });
});

describe('withKnees', () => {
  it('the ladder with each knee\'s last rate kept and first missed, ascending, each once', () => {
    expect(withKnees([1000, 2000, 4000], [{ kept: 1414, missed: 2000 }, { kept: null, missed: 1000 }, { kept: 4000, missed: null }, { kept: 1414, missed: 1682 }]))
      .toEqual([1000, 1414, 1682, 2000, 4000]);
  });

  it('at most 32 rates: the whole ladder, then the rates kept before those missed', () => {
    const ladder = Array.from({ length: 30 }, (_, i) => 2 ** i);
    const rates = withKnees(ladder, [{ kept: 3, missed: 5 }, { kept: 6, missed: 7 }, { kept: 12, missed: 13 }]);
    expect(rates).toHaveLength(32);
    expect(rates).toEqual(expect.arrayContaining([...ladder, 3, 6]));
  });
});

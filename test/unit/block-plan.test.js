/**
 * The plan of a trial's blocks (lib/client/block-plan.js): the block length
 * and count runBlocks follows, what they take at a rate, and the warning when
 * --duration cannot hold the fewest blocks at the workload's floor.
 */
import { describe, expect, it } from 'vitest';
import { overrunWarning, planMeasure, planTrial } from '../../lib/client/block-plan.js';
import { MIN_BLOCKS, MIN_WARMUP_BLOCKS, scheduleBlocks } from '../../lib/client/blocks.js';

const FLOORS = { minBlocks: MIN_BLOCKS, minWarmupBlocks: MIN_WARMUP_BLOCKS, blockMs: 10 };

describe('planMeasure: the measured blocks', () => {
  it('a block holds the floor, or blockMs at the slowest lane\'s rate where that is more', () => {
    // rates in units per ms: 100/ms and 50/ms; 10 ms at the slower is 500 units
    expect(planMeasure({ amount: { ms: 1000 }, rates: [100, 50], minUnits: 200, blockMs: 10, minBlocks: 8 }).blockUnits).toBe(500);
    expect(planMeasure({ amount: { ms: 1000 }, rates: [100, 50], minUnits: 102_400, blockMs: 10, minBlocks: 8 }).blockUnits).toBe(102_400);
    // no warmup, no rate: the floor
    expect(planMeasure({ amount: { ms: 1000 }, rates: [NaN, NaN], minUnits: 6400, blockMs: 10, minBlocks: 8 })).toEqual({ blockUnits: 6400, blocks: 8, ms: NaN });
  });

  it('with a duration, as many blocks as it holds at the mean block time per lane, at least minBlocks', () => {
    // blocks of 500 units take 5 ms and 10 ms: 7.5 ms a lane on average; 1000 ms holds 134 rounds
    expect(planMeasure({ amount: { ms: 1000 }, rates: [100, 50], minUnits: 200, blockMs: 10, minBlocks: 8 })).toEqual({ blockUnits: 500, blocks: 134, ms: 134 * 15 });
    // blocks of 102 400 units take 1024 and 2048 ms: 8 rounds, however short the duration
    expect(planMeasure({ amount: { ms: 500 }, rates: [100, 50], minUnits: 102_400, blockMs: 10, minBlocks: 8 })).toEqual({ blockUnits: 102_400, blocks: 8, ms: 8 * 3072 });
  });

  it('with a count: one block of it with one lane (the 2014 preset), else blocks of at most the count', () => {
    expect(planMeasure({ amount: { count: 100_000 }, rates: [100], minUnits: 200, blockMs: 10, minBlocks: 8 })).toEqual({ blockUnits: 100_000, blocks: 1, ms: 1000 });
    expect(planMeasure({ amount: { count: 5000 }, rates: [100, 50], minUnits: 200, blockMs: 10, minBlocks: 8 })).toEqual({ blockUnits: 500, blocks: 10, ms: 50 + 100 });
    expect(planMeasure({ amount: { count: 300 }, rates: [100, 50], minUnits: 200, blockMs: 10, minBlocks: 8 }).blockUnits).toBe(300);
  });
});

describe('planTrial: the whole trial, and whether --duration holds it', () => {
  it('echo at depth 1024 and 500 ms (issue 21): 8 blocks of 102 400 packets per lane do not fit; the time is the warmup\'s 3 blocks and the 8', () => {
    // 200 000 packets/s on both lanes: a block of 102 400 takes 512 ms
    const plan = planTrial({ warmup: { ms: 250 }, measure: { ms: 500 }, rates: [200, 200], minUnits: 102_400, ...FLOORS });
    expect(plan.measure).toEqual({ blockUnits: 102_400, blocks: 8, ms: 8 * 2 * 512 });
    expect(plan.warmup).toEqual({ blockUnits: 102_400, blocks: 3, ms: 3 * 2 * 512 });
    expect(plan.ms).toBe(11 * 2 * 512);
    expect(plan.floorMs).toBe(8 * 512);
    expect(plan.fits).toBe(false);
  });

  it('a duration that holds the fewest blocks at the floor fits, though blocks of blockMs may run a little past it', () => {
    expect(planTrial({ warmup: { ms: 250 }, measure: { ms: 1000 }, rates: [30, 30], minUnits: 100, ...FLOORS }).fits).toBe(true);
    // 8 blocks of 10 ms outlast 50 ms, but the floor (100 units, 3.3 ms) is not what makes them: fits
    expect(planTrial({ warmup: { ms: 0 }, measure: { ms: 50 }, rates: [30], minUnits: 100, ...FLOORS }).fits).toBe(true);
  });

  it('a count always fits; a smaller warmup count makes smaller warmup blocks; no warmup, no warmup plan', () => {
    const counted = planTrial({ warmup: { count: 1000 }, measure: { count: 100_000 }, rates: [100], minUnits: 6400, ...FLOORS });
    expect(counted.fits).toBe(true);
    expect(counted.warmup).toEqual({ blockUnits: 1000, blocks: 1, ms: 10 });
    expect(planTrial({ warmup: { ms: 0 }, measure: { ms: 10 }, rates: [100], minUnits: 6400, ...FLOORS }).warmup).toBeNull();
  });
});

describe('overrunWarning', () => {
  it('one line naming --duration, the fewest blocks, the floor, the time per transport and in all, and the duration that holds them', () => {
    const plan = planTrial({ warmup: { ms: 250 }, measure: { ms: 500 }, rates: [200, 250], minUnits: 102_400, ...FLOORS });
    expect(overrunWarning(plan, { measure: { ms: 500 }, units: 'packets', floor: '100 × --depth 1024' })).toBe(
      '--duration 500 ms cannot hold the fewest blocks a trial measures, 8 per transport of at least 102 400 packets (100 × --depth 1024): at the warmup\'s best rate (200 000 packets/s, the slowest transport) they take about 3.7 s per transport, and this trial about 10 s in all with its warmup; --duration 3.7 s or more would hold them');
  });

  it('without a warmup, the time in all is the measured blocks\'', () => {
    const plan = planTrial({ warmup: { ms: 0 }, measure: { ms: 10 }, rates: [5.741], minUnits: 1280, ...FLOORS });
    expect(overrunWarning(plan, { measure: { ms: 10 }, units: 'connections', floor: '20 × --depth 64' })).toMatch(/^--duration 10 ms cannot hold the fewest blocks a trial measures, 8 per transport of at least 1 280 connections \(20 × --depth 64\): at the first blocks' rate \(5 741 connections\/s, the slowest transport\) they take about 1\.8 s per transport, and this trial about 1\.8 s in all; --duration 1\.8 s or more would hold them$/);
  });

  it('nothing where the duration holds them, or with a count', () => {
    const fits = planTrial({ warmup: { ms: 250 }, measure: { ms: 1000 }, rates: [30, 30], minUnits: 100, ...FLOORS });
    expect(overrunWarning(fits, { measure: { ms: 1000 }, units: 'packets', floor: '100 × --depth 1' })).toBeNull();
    const counted = planTrial({ warmup: { count: 0 }, measure: { count: 10 }, rates: [1], minUnits: 102_400, ...FLOORS });
    expect(overrunWarning(counted, { measure: { count: 10 }, units: 'packets', floor: '100 × --depth 1024' })).toBeNull();
  });
});

describe('scheduleBlocks: the rates the plan is made at', () => {
  /** @param {number[][]} warmMs each lane's warmup blocks' ms in turn @param {number[][]} [measureMs] its measured blocks' */
  const lanesTaking = (warmMs, measureMs = warmMs.map(() => [1])) => warmMs.map((ms, i) => ({
    warm: async () => /** @type {number} */ (ms.shift()),
    measure: async () => /** @type {import('../../lib/client/blocks.js').MeasuredBlock} */ (/** @type {unknown} */ ({ elapsedMs: measureMs[i].shift() ?? 1 })),
  }));

  it('after the warmup, each lane\'s fastest warmup block\'s rate, not its first (which pays for connecting), and only once', async () => {
    /** @type {number[][]} */
    const seen = [];
    // warmup blocks of 100 units: lane 0 takes 10, 50, 50 ms (fastest 10/ms), lane 1 20, 1, 2 ms (fastest 100/ms)
    const executors = lanesTaking([[10, 50, 50], [20, 1, 2]]);
    await scheduleBlocks(executors, { warmup: { count: 300 }, measure: { count: 100 }, minUnits: 100, onRates: (rates) => seen.push([...rates]) });
    expect(seen).toEqual([[10, 100]]);
  });

  it('the default http run (issue: warned each time, at a tenth of the measured rate): a slow first warmup block no longer says --duration 1 s cannot hold the blocks', async () => {
    // 20 × --connections 10 requests a block; the first warmup block at 1 000 requests/s, the rest at 10 000/s
    /** @type {import('../../lib/client/block-plan.js').TrialPlan[]} */
    const plans = [];
    const executors = lanesTaking([[200, 20, 20], [200, 20, 20]]);
    const warmup = { count: 600 };
    const measure = { ms: 1000 };
    await scheduleBlocks(executors, {
      warmup, measure: { count: 200 }, minUnits: 200,
      onRates: (rates) => plans.push(planTrial({ warmup, measure, rates, minUnits: 200, ...FLOORS })),
    });
    expect(plans).toHaveLength(1);
    expect(plans[0].slowest).toBe(10);
    expect(overrunWarning(plans[0], { measure, units: 'requests', floor: '20 × --connections 10 × --pipelining 1' })).toBeNull();
  });

  it('without a warmup, each lane\'s first measured block\'s rate, once every lane has one', async () => {
    /** @type {number[][]} */
    const seen = [];
    const executors = lanesTaking([[], []], [[4, 1], [5, 1]]);
    await scheduleBlocks(executors, { warmup: { count: 0 }, measure: { count: 400 }, minUnits: 100, onRates: (rates) => seen.push([...rates]) });
    expect(seen).toEqual([[25, 20]]);
  });
});

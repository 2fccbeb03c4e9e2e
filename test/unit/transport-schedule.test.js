import { describe, expect, it } from 'vitest';
import { runBlocks } from '../../lib/client/blocks.js';
import { createRandom } from '../../lib/core/random.js';
import { openingOrder, planTrials } from '../../lib/sweep/schedule.js';
import { blockPairLogRatios } from '../../lib/stats/ratios.js';

const THREE = ['tcp', 'uds', 'uds-abstract'];

describe('blocks rotate through every chosen transport in a balanced order', () => {
  it('runs A B C, C B A, A B C … so each lane sits at the same mean position in a round', async () => {
    /** @type {number[]} */
    const order = [];
    // lanes that do no I/O: the order of calls is what runBlocks decides
    const lanes = [0, 1, 2].map((i) => ({
      target: /** @type {import('../../lib/client/transport.js').Target} */ ({ transport: THREE[i], path: '' }),
      block: async (/** @type {number} */ n) => { order.push(i); const start = performance.now(); return { start, end: start + n / 1000 }; },
      abort: () => {},
    }));
    const { blocks } = await runBlocks(lanes, { measure: { count: 40 }, warmup: { count: 0 }, minUnits: 10 });
    expect(order).toEqual([0, 1, 2, 2, 1, 0, 0, 1, 2, 2, 1, 0]);
    expect(blocks.map((b) => b.transport)).toEqual(order.map((i) => THREE[i]));
    const meanPosition = (/** @type {number} */ lane) => {
      const places = order.flatMap((l, k) => (l === lane ? [k % 3] : []));
      return places.reduce((a, b) => a + b, 0) / places.length;
    };
    expect(new Set([0, 1, 2].map(meanPosition))).toEqual(new Set([1]));
  });

  it('pairs each transport with the TCP block of its own round', () => {
    const blocks = [
      { transport: 'tcp', rate: 100 }, { transport: 'uds', rate: 200 }, { transport: 'uds-abstract', rate: 400 },
      { transport: 'uds-abstract', rate: 300 }, { transport: 'uds', rate: 150 }, { transport: 'tcp', rate: 50 },
    ];
    expect(blockPairLogRatios(blocks, 'rate', 'uds').map(Math.exp)).toEqual([2, 3].map((x) => expect.closeTo(x, 9)));
    expect(blockPairLogRatios(blocks, 'rate', 'uds-abstract').map(Math.exp)).toEqual([4, 6].map((x) => expect.closeTo(x, 9)));
    // two transports: pairs, as before
    expect(blockPairLogRatios(blocks.filter((b) => b.transport !== 'uds-abstract'), 'rate').map(Math.exp)).toEqual([2, 3].map((x) => expect.closeTo(x, 9)));
  });
});

describe('the opening order of a trial is drawn from the seed', () => {
  it('lets every one of three transports open some trials, and is the same for the same seed', () => {
    const spec = { sizes: [1, 64], depths: [1, 16], transports: THREE, pairing: /** @type {const} */ ('blocks'), runs: 6, seed: 5 };
    const plan = planTrials(spec);
    for (const job of plan) expect([...job.transports].sort()).toEqual([...THREE].sort());
    const openers = new Set(plan.map((job) => job.transports[0]));
    expect(openers).toEqual(new Set(THREE));
    expect(planTrials(spec)).toEqual(plan);
  });

  it('keeps the two-transport draw: a coin between A B and B A', () => {
    const random = createRandom(3, 'order');
    const orders = Array.from({ length: 20 }, () => openingOrder(['tcp', 'uds'], random).join(','));
    expect(new Set(orders)).toEqual(new Set(['tcp,uds', 'uds,tcp']));
  });
});

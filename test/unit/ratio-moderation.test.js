import { describe, expect, it } from 'vitest';
import { NO_PRIOR, fitPrior, moderate, trigamma, trigammaInverse } from '../../lib/stats/moderation.js';
import { createRandom } from '../../lib/core/random.js';
import { nextHalfWidth, ratioInterval, ratioIntervals } from '../../lib/stats/ratios.js';
import { createRecord } from '../../lib/trial/record.js';
import { summarize, toSummaryText } from '../../lib/stats/summarize.js';
import { describe as stats } from '../../lib/stats/describe.js';
import { tCritical } from '../../lib/stats/welch.js';

/**
 * Standard normal draws from a seeded uniform stream (Box–Muller).
 * @param {() => number} random
 */
const normal = (random) => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

/**
 * A simulated sweep: per group, `runs[g]` per-run log-ratios around 0 with sd `sds[g]`.
 * @param {() => number} random
 * @param {number[]} sds
 * @param {number[]} runs
 */
const sweep = (random, sds, runs) => sds.map((sd, g) => Array.from({ length: runs[g] }, () => sd * normal(random)));

describe('moderated UDS/TCP intervals across the groups of a sweep', () => {
  it('invert trigamma', () => {
    for (const y of [0.05, 0.3, 1, 4, 50]) expect(trigamma(trigammaInverse(y)) / y).toBeCloseTo(1, 9);
  });

  it('leave fewer than three groups alone: plain Student t', () => {
    expect(fitPrior([{ variance: 0.01, df: 2 }, { variance: 0.02, df: 4 }])).toEqual(NO_PRIOR);
    const logs = [0.1, 0.12, 0.08];
    const { intervals } = ratioIntervals([logs, [0.2, 0.25]]);
    const s = stats(logs);
    expect(intervals[0]?.halfWidth).toBeCloseTo(Math.expm1(s.moe), 12); // tinybench's own t interval
    expect(intervals[0]?.df).toBe(2);
  });

  it('pool groups that share one variance: a large prior df around it', () => {
    const random = createRandom(7, 'moderation-common');
    const groups = sweep(random, Array(18).fill(0.05), Array(18).fill(5));
    const { prior, intervals } = ratioIntervals(groups);
    expect(prior.df0).toBeGreaterThan(20);
    expect(Math.sqrt(prior.s0sq)).toBeGreaterThan(0.04);
    expect(Math.sqrt(prior.s0sq)).toBeLessThan(0.06);
    for (const r of intervals) expect(r?.df).toBeGreaterThan(24);
  });

  it('keep a group that is really noisier mostly on its own spread when the groups differ', () => {
    const random = createRandom(11, 'moderation-mixed');
    const sds = [...Array(9).fill(0.02), ...Array(9).fill(0.15)];
    const groups = sweep(random, sds, Array(18).fill(6));
    const { prior } = ratioIntervals(groups);
    expect(prior.df0).toBeLessThan(6); // the spreads differ by more than sampling explains
    for (const logs of groups.slice(9)) {
      const own = stats(logs).variance;
      expect(moderate(own, 5, prior).variance / own).toBeGreaterThan(0.5);
    }
  });

  it('hold the true ratio in about 95 % of groups, with narrower intervals than each group alone (2000 simulated groups)', () => {
    const random = createRandom(3, 'moderation-coverage');
    let held = 0;
    let heldPlain = 0;
    let total = 0;
    let width = 0;
    let widthPlain = 0;
    for (let s = 0; s < 100; s++) {
      // 20 groups, 3 to 8 runs, spreads that differ between groups as on a real machine
      const sds = Array.from({ length: 20 }, () => 0.03 * Math.exp(0.5 * normal(random)));
      const runs = Array.from({ length: 20 }, () => 3 + Math.floor(random() * 6));
      const groups = sweep(random, sds, runs);
      const { intervals } = ratioIntervals(groups);
      groups.forEach((logs, g) => {
        const m = /** @type {import('../../lib/stats/ratios.js').RatioInterval} */ (intervals[g]);
        const p = ratioInterval(logs);
        total++;
        if (Number(m.low) <= 1 && 1 <= Number(m.high)) held++;
        if (Number(p.low) <= 1 && 1 <= Number(p.high)) heldPlain++;
        width += Number(m.halfWidth);
        widthPlain += Number(p.halfWidth);
      });
    }
    expect(held / total).toBeGreaterThan(0.93);
    expect(held / total).toBeLessThan(0.97);
    expect(heldPlain / total).toBeGreaterThan(0.93);
    expect(width / widthPlain).toBeLessThan(0.85);
  });

  it('are what summary.csv gives for the uds/tcp rows of a sweep, with their degrees of freedom, and the text says so', () => {
    const random = createRandom(5, 'moderation-summary');
    /** @type {Record<string, any>[]} */
    const rows = [];
    for (const size of [1, 64, 1024, 16384]) {
      for (const depth of [1, 16]) {
        for (let run = 0; run < 4; run++) {
          const ratio = Math.exp(0.04 * normal(random)) * (depth === 1 ? 1.1 : 1.9);
          for (const transport of ['tcp', 'uds']) rows.push({ run, order: 0, ...createRecord({ workload: 'echo', transport, size_bytes: size, depth, msgs_per_s: transport === 'uds' ? 1000 * ratio : 1000 }) });
        }
      }
    }
    const summary = summarize(rows);
    const ratios = summary.filter((r) => r.transport === 'uds/tcp' && r.metric === 'msgs_per_s');
    expect(ratios).toHaveLength(8);
    const groups = [1, 64, 1024, 16384].flatMap((size) => [1, 16].map((depth) => rows.filter((r) => r.size_bytes === size && r.depth === depth)));
    const logs = groups.map((g) => g.filter((r) => r.transport === 'uds').map((u) => Math.log(u.msgs_per_s / Number(g.find((t) => t.transport === 'tcp' && t.run === u.run)?.msgs_per_s))));
    const { intervals } = ratioIntervals(logs);
    ratios.forEach((r, i) => {
      expect(r.ci95_df).toBeGreaterThan(3); // 4 runs: 3 of their own, more from the prior
      expect(r.ci95_df).toBe(intervals[i]?.df);
      expect(r.ci95_low).toBeCloseTo(Number(intervals[i]?.low), 12);
    });
    const tcp = summary.find((r) => r.transport === 'tcp' && r.metric === 'msgs_per_s');
    expect(tcp?.ci95_df).toBe(3); // per-transport figures: plain t over runs
    expect(toSummaryText(summary)).toContain("each group's variance moderated across the 8 groups");
  });

  it('pool completely when the groups agree better than sampling alone would: each gets s0² and the groups\' total df', () => {
    const same = [-0.01, 0, 0.01];
    const prior = fitPrior(Array(5).fill({ variance: stats(same).variance, df: 2 }));
    expect(prior.df0).toBe(Infinity);
    // exp of the mean log s², bias-corrected for a χ² with 2 df: s² · exp(−digamma(1)) = s² · e^γ
    expect(prior.s0sq / stats(same).variance).toBeCloseTo(Math.exp(0.5772156649015329), 12);
    expect(moderate(0.5, 2, prior)).toEqual({ variance: prior.s0sq, df: 10 });
  });

  it('cap a posterior\'s df at the groups\' total, and survive a group whose runs are identical', () => {
    expect(moderate(0.02, 2, { df0: 50, s0sq: 0.01, groups: 5, dfTotal: 10 }).df).toBe(10);
    const prior = fitPrior([{ variance: 0, df: 2 }, { variance: 0.001, df: 3 }, { variance: 0.004, df: 2 }, { variance: 0.002, df: 4 }]);
    expect(Number.isFinite(prior.s0sq) && prior.s0sq > 0).toBe(true);
    expect(prior.df0).toBeGreaterThan(0);
  });

  it('expect one more run to gain what its df allow: little when the prior already gives many', () => {
    expect(nextHalfWidth(0.05, 3, 20)).toBeCloseTo(Math.expm1(Math.log(1.05) * (tCritical(21) / tCritical(20)) * Math.sqrt(3 / 4)), 12);
    expect(nextHalfWidth(0.05, 3, 20)).toBeGreaterThan(nextHalfWidth(0.05, 3)); // t(2) → t(3) falls far more than t(20) → t(21)
  });

  it('shrink a group that is truly noisier toward the others when its few runs cannot show it: its known weak spot', () => {
    const random = createRandom(13, 'moderation-weak-spot');
    let held = 0;
    let heldQuiet = 0;
    const sweeps = 400;
    for (let s = 0; s < sweeps; s++) {
      // 17 groups alike, one 2.5× noisier, 3 runs each (the default's planned runs)
      const groups = sweep(random, [...Array(17).fill(0.04), 0.1], Array(18).fill(3));
      const { intervals } = ratioIntervals(groups);
      const noisy = /** @type {import('../../lib/stats/ratios.js').RatioInterval} */ (intervals[17]);
      const quiet = /** @type {import('../../lib/stats/ratios.js').RatioInterval} */ (intervals[0]);
      if (Number(noisy.low) <= 1 && 1 <= Number(noisy.high)) held++;
      if (Number(quiet.low) <= 1 && 1 <= Number(quiet.high)) heldQuiet++;
    }
    expect(held / sweeps).toBeLessThan(0.9); // under the 95 % it claims
    expect(held / sweeps).toBeGreaterThan(0.7);
    expect(heldQuiet / sweeps).toBeGreaterThan(0.95); // the others, a little wider than they need
  });
});

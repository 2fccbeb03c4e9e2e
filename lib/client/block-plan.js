/**
 * How many blocks of how many units a trial runs, and how long that takes at a rate: the plan ./blocks.js follows, and
 * the warning (runBlocks' onPlan) when the floors (a block's fewest units, a phase's fewest blocks) outlast the
 * duration; why the floors stay: docs/method.md#what-is-timed. Pure.
 */

/**
 * @typedef {import('./blocks.js').Amount} Amount
 *
 * @typedef {object} PhasePlan one phase (warmup or measured), per lane
 * @property {number} blockUnits units per block
 * @property {number} blocks blocks per lane: with a duration, the fewest, or as many as it holds at the rates
 * @property {number} ms the phase's expected wall time, all lanes (NaN without rates)
 *
 * @typedef {object} TrialPlan
 * @property {PhasePlan | null} warmup null: no warmup
 * @property {PhasePlan} measure
 * @property {number} ms warmup and measured phases, all lanes (NaN without rates)
 * @property {number} floorMs per lane, the fewest measured blocks at the floor (NaN without rates or with a count)
 * @property {boolean} fits whether the measured phase's duration holds its fewest blocks at the floor (always with a count)
 * @property {number} slowest units per ms of the slowest lane
 * @property {number} lanes
 */

/** @param {number[]} xs */
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
/** @param {number[]} xs */
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

/**
 * A phase of blocks of `blockUnits`: how many per lane and how long in all at the lanes' rates.
 * @param {Amount} amount per lane
 * @param {number} blockUnits
 * @param {number[]} rates units per ms by lane (NaN: unknown)
 * @param {number} minBlocks with a duration, at least this many blocks per lane
 * @returns {PhasePlan}
 */
function phase(amount, blockUnits, rates, minBlocks) {
  const known = rates.length > 0 && rates.every((r) => Number.isFinite(r) && r > 0);
  if ('count' in amount) {
    const blocks = Math.ceil(amount.count / blockUnits);
    return { blockUnits, blocks, ms: known ? sum(rates.map((r) => amount.count / r)) : NaN };
  }
  // tinybench's budget: iterations until the mean block time per lane adds up to the duration, and at least minBlocks
  const blocks = known ? Math.max(minBlocks, Math.ceil(amount.ms / mean(rates.map((r) => blockUnits / r)))) : minBlocks;
  return { blockUnits, blocks, ms: known ? blocks * sum(rates.map((r) => blockUnits / r)) : NaN };
}

/**
 * The measured phase: blocks of at least the floor and at least `blockMs` at the slowest lane's rate, all of one length.
 * With one lane and a count, one block of the count (the 2014 preset).
 * @param {object} options
 * @param {Amount} options.amount per lane
 * @param {number[]} options.rates units per ms by lane, from the warmup (NaN: no warmup)
 * @param {number} options.minUnits the workload's floor
 * @param {number} options.blockMs
 * @param {number} options.minBlocks
 * @returns {PhasePlan}
 */
export function planMeasure({ amount, rates, minUnits, blockMs, minBlocks }) {
  const slowest = Math.min(...rates);
  let blockUnits = Math.max(minUnits, Number.isFinite(slowest) ? Math.ceil(slowest * blockMs) : 0);
  if ('count' in amount) blockUnits = rates.length === 1 ? amount.count : Math.min(blockUnits, amount.count);
  return phase(amount, blockUnits, rates, minBlocks);
}

/**
 * The whole trial at the given rates: the warmup's blocks (the floor, or a smaller warmup count), the measured ones, and
 * whether --duration holds the fewest measured blocks at the floor.
 * @param {object} options
 * @param {Amount} options.warmup per lane
 * @param {Amount} options.measure per lane
 * @param {number[]} options.rates units per ms by lane
 * @param {number} options.minUnits
 * @param {number} options.blockMs
 * @param {number} options.minBlocks the measured phase's fewest blocks per lane
 * @param {number} options.minWarmupBlocks the warmup's
 * @returns {TrialPlan}
 */
export function planTrial({ warmup, measure, rates, minUnits, blockMs, minBlocks, minWarmupBlocks }) {
  const hasWarmup = 'count' in warmup ? warmup.count > 0 : warmup.ms > 0;
  const warm = hasWarmup ? phase(warmup, 'count' in warmup ? Math.min(minUnits, warmup.count) : minUnits, rates, minWarmupBlocks) : null;
  const measured = planMeasure({ amount: measure, rates, minUnits, blockMs, minBlocks });
  const known = rates.length > 0 && rates.every((r) => Number.isFinite(r) && r > 0);
  const floorMs = known && 'ms' in measure ? minBlocks * mean(rates.map((r) => minUnits / r)) : NaN;
  return {
    warmup: warm,
    measure: measured,
    ms: (warm?.ms ?? 0) + measured.ms,
    floorMs,
    fits: !(floorMs > /** @type {{ ms: number }} */ (measure).ms),
    slowest: Math.min(...rates),
    lanes: rates.length,
  };
}

/** @param {number} ms */
function seconds(ms) {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** @param {number} n */
const count = (n) => Math.round(n).toLocaleString('en-US').replace(/,/g, ' ');

/**
 * The one line that says a trial cannot keep to --duration, or null when it can.
 * @param {TrialPlan} plan at the rates lib/client/blocks.js hands over: with a warmup, each lane's fastest warmup
 *   block's; without, each lane's first measured block's
 * @param {object} words
 * @param {Amount} words.measure the duration asked for (per lane)
 * @param {string} words.units what a block counts: packets, chunks, connections, requests
 * @param {string} words.floor where the floor comes from, e.g. `100 × --depth 1024`
 */
export function overrunWarning(plan, { measure, units, floor }) {
  if (plan.fits || !('ms' in measure)) return null;
  const { blocks, blockUnits } = plan.measure;
  const perLane = plan.measure.ms / plan.lanes;
  return `--duration ${seconds(measure.ms)} cannot hold the fewest blocks a trial measures, ${blocks} per transport of at least ${count(blockUnits)} ${units} (${floor}): at ${plan.warmup ? 'the warmup\'s best rate' : 'the first blocks\' rate'} (${count(plan.slowest * 1000)} ${units}/s, the slowest transport) they take about ${seconds(perLane)} per transport, and this trial about ${seconds(plan.ms)} in all${plan.warmup ? ' with its warmup' : ''}; --duration ${seconds(Math.ceil(plan.floorMs / 100) * 100)} or more would hold them`;
}

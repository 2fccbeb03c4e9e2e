/**
 * Statistics of per-packet samples, computed by tinybench, which does not export its function: `describe` replays the
 * samples through a synchronous task whose iterations return each as `overriddenDuration` (about 1 µs a sample, off the
 * timed path), so mean, sd, margin of error and percentiles are tinybench's own.
 */
import { Bench } from 'tinybench';

/**
 * Quantile of ascending samples by linear interpolation, as tinybench's p50…p999, so p90 is consistent with them.
 * @param {ArrayLike<number>} sorted ascending
 * @param {number} q in [0, 1]
 */
export function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const fraction = position - lower;
  if (fraction === 0) return sorted[lower];
  return sorted[lower] + fraction * (sorted[lower + 1] - sorted[lower]);
}

/** @typedef {import('tinybench').Statistics & { p90: number }} Description */

/**
 * tinybench statistics (mean, sd, sem, moe, rme, min, max, p50, p75, p99, p995, p999, mad …) plus p90, of the samples.
 * @param {ArrayLike<number>} samples at least one finite, non-negative number
 * @returns {Description}
 */
export function describe(samples) {
  if (samples.length === 0) throw new RangeError('describe() needs at least one sample');
  // tinybench takes durations (≥ 0); shift negative samples (log-ratios) up and
  // back: location statistics move with the shift, dispersion does not
  let shift = 0;
  for (let k = 0; k < samples.length; k++) shift = Math.min(shift, samples[k]);
  const bench = new Bench({ warmup: false, iterations: samples.length, time: 0, retainSamples: true, throws: true });
  let i = 0;
  bench.add('describe', () => ({ overriddenDuration: samples[i++] - shift }), { async: false });
  bench.runSync();
  const result = bench.tasks[0].result;
  if (result.state !== 'completed') throw new Error(`statistics could not be computed (${result.state})`);
  const s = result.latency;
  const sorted = /** @type {import('tinybench').SortedSamples} */ (/** @type {number[]} */ (s.samples).map((v) => v + shift));
  const located = Object.fromEntries(/** @type {const} */ (['mean', 'min', 'max', 'p50', 'p75', 'p99', 'p995', 'p999']).map((k) => [k, s[k] + shift]));
  return { ...s, ...located, samples: sorted, p90: quantile(sorted, 0.9), rme: located.mean === 0 ? Infinity : (s.moe / Math.abs(located.mean)) * 100 };
}

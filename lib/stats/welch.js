/**
 * Welch's unequal-variance t interval for B/A, the ratio of two sets of positive figures' geometric means, on the log
 * scale (docs/method.md#comparing-two-sweeps); t's critical value from tinybench, for the largest whole df ≤ Welch's.
 */
import { describe } from './describe.js';

/** @type {Map<number, number>} */
const criticalCache = new Map();

/**
 * Two-sided 95 % critical value of Student's t for a whole number of degrees of freedom.
 * @param {number} df at least 1
 */
export function tCritical(df) {
  // NaN would ask tinybench for a sample of no values; it comes only from non-finite figures, which the readers refuse
  if (Number.isNaN(df)) throw new RangeError('tCritical: degrees of freedom are NaN (a figure that is not finite?)');
  const k = Math.max(1, Math.min(10_000, Math.floor(df + 1e-9))); // 1.9999999999999998 is 2
  const cached = criticalCache.get(k);
  if (cached !== undefined) return cached;
  // tinybench reports the critical value of a sample of k + 1 values (df = k)
  const value = /** @type {number} */ (/** @type {any} */ (describe(Array.from({ length: k + 1 }, (_, i) => i))).critical);
  criticalCache.set(k, value);
  return value;
}

/**
 * @typedef {object} WelchRatio
 * @property {number} ratio B/A
 * @property {number | null} low 95 % CI, null when either side has fewer than 2 values
 * @property {number | null} high
 * @property {number | null} df Welch–Satterthwaite degrees of freedom
 * @property {'yes' | 'no' | null} significant the interval excludes 1
 */

/**
 * B/A from log values of per-run figures (or of per-run log-ratios).
 * @param {number[]} logsA
 * @param {number[]} logsB
 * @returns {WelchRatio}
 */
export function welchLogRatio(logsA, logsB) {
  if (logsA.length === 0 || logsB.length === 0) throw new RangeError('welchLogRatio needs values on both sides');
  const [a, b] = [describe(logsA), describe(logsB)];
  const d = b.mean - a.mean;
  const ratio = Math.exp(d);
  if (logsA.length < 2 || logsB.length < 2) return { ratio, low: null, high: null, df: null, significant: null };
  const va = a.variance / logsA.length;
  const vb = b.variance / logsB.length;
  const se = Math.sqrt(va + vb);
  if (se === 0) return { ratio, low: ratio, high: ratio, df: null, significant: d === 0 ? 'no' : 'yes' };
  const df = (va + vb) ** 2 / (va ** 2 / (logsA.length - 1) + vb ** 2 / (logsB.length - 1));
  const moe = tCritical(df) * se;
  const low = Math.exp(d - moe);
  const high = Math.exp(d + moe);
  return { ratio, low, high, df, significant: low > 1 || high < 1 ? 'yes' : 'no' };
}

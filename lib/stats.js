/**
 * Small statistics helpers that tinybench does not export.
 */

/**
 * Quantile of ascending samples by linear interpolation, the method
 * tinybench uses for its p50/p75/p99/p999, so p90 is consistent with them.
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

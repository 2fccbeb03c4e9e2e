/**
 * The digamma and trigamma functions ψ(x) and ψ′(x) for x > 0, all the
 * moderated variances need (they are evaluated at half degrees of freedom).
 * The method of R's and limma's C code: the recurrences ψ(x) = ψ(x + 1) − 1/x
 * and ψ′(x) = ψ′(x + 1) + 1/x² carry x to 10 or more, where the asymptotic
 * (Stirling) series, taken to x⁻¹⁴ and x⁻¹⁵, is exact to double precision
 * (the next terms are below 10⁻¹⁶). At most ten steps; checked against
 * @stdlib's implementations to 10⁻¹² over 10⁻⁸ … 10¹⁵ in a unit test.
 */

/** Where the series takes over from the recurrence. */
const SERIES_FROM = 10;

/**
 * ψ(x), the derivative of ln Γ(x).
 * @param {number} x > 0 (NaN otherwise)
 */
export function digamma(x) {
  if (!(x > 0)) return NaN;
  let shift = 0;
  for (; x < SERIES_FROM; x += 1) shift += 1 / x;
  const r = 1 / (x * x);
  // ln x − 1/(2x) − Σ B₂ₖ / (2k x²ᵏ), k = 1 … 7
  const series = r * (1 / 12 - r * (1 / 120 - r * (1 / 252 - r * (1 / 240 - r * (1 / 132 - r * (691 / 32760 - r / 12))))));
  return Math.log(x) - 0.5 / x - series - shift;
}

/**
 * ψ′(x), the derivative of ψ.
 * @param {number} x > 0 (NaN otherwise)
 */
export function trigamma(x) {
  if (!(x > 0)) return NaN;
  let shift = 0;
  for (; x < SERIES_FROM; x += 1) shift += 1 / (x * x);
  const r = 1 / (x * x);
  // 1/x + 1/(2x²) + Σ B₂ₖ / x²ᵏ⁺¹, k = 1 … 7
  const series = r * (1 / 6 - r * (1 / 30 - r * (1 / 42 - r * (1 / 30 - r * (5 / 66 - r * (691 / 2730 - (r * 7) / 6))))));
  return (1 + 0.5 / x + series) / x + shift;
}

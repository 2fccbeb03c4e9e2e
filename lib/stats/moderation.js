/**
 * Moderated variances: the groups of one sweep lend each other strength by Smyth's (2004) empirical Bayes (limma's
 * squeezeVar/fitFDist). What, why, and what it was checked against: docs/method.md#moderated-variances.
 */

/**
 * ψ(x) and ψ′(x) (digamma, trigamma) for x > 0, as R's and limma's C code: the recurrences ψ(x) = ψ(x + 1) − 1/x and
 * ψ′(x) = ψ′(x + 1) + 1/x² carry x to SERIES_FROM or more, where the asymptotic series, taken to x⁻¹⁴ and x⁻¹⁵, is exact
 * to double precision. At most ten steps; a unit test checks them against @stdlib's to 10⁻¹² over 10⁻⁸ … 10¹⁵.
 */
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

/** Fewer groups than this (with 2 or more runs each) give no prior: plain Student t. */
const MIN_GROUPS = 3;

/**
 * @typedef {object} Prior
 * @property {number} df0 prior degrees of freedom: 0 for none, Infinity for complete pooling
 * @property {number} s0sq prior variance
 * @property {number} groups how many groups it was fitted to
 * @property {number} dfTotal their degrees of freedom together, the cap of any posterior's
 */

/** No prior: every group on its own. */
export const NO_PRIOR = Object.freeze({ df0: 0, s0sq: 0, groups: 0, dfTotal: Infinity });

/**
 * x with trigamma(x) = y, by bisection on the log scale (trigamma falls from +∞ to 0 on (0, ∞)); at most 200 halvings.
 * @param {number} y > 0
 */
export function trigammaInverse(y) {
  let lo = Math.log(1e-8);
  let hi = Math.log(1e15);
  for (let k = 0; k < 200 && hi - lo > 1e-12; k++) {
    const mid = (lo + hi) / 2;
    if (trigamma(Math.exp(mid)) > y) lo = mid;
    else hi = mid;
  }
  return Math.exp((lo + hi) / 2);
}

/**
 * Fit the prior to the groups' sample variances (limma's fitFDist without a covariate): moments of log s² against a scaled F's.
 * @param {{ variance: number, df: number }[]} samples one per group with df ≥ 1
 * @returns {Prior}
 */
export function fitPrior(samples) {
  const ok = samples.filter((s) => s.df >= 1 && Number.isFinite(s.variance) && s.variance >= 0);
  if (ok.length < MIN_GROUPS) return NO_PRIOR;
  const dfTotal = ok.reduce((a, s) => a + s.df, 0);
  // a zero variance (identical runs) would send log s² to −∞: floor it, as limma does
  const sorted = ok.map((s) => s.variance).sort((a, b) => a - b);
  const middle = sorted[sorted.length >> 1] || 1;
  const e = ok.map((s) => Math.log(Math.max(s.variance, 1e-5 * middle)) - digamma(s.df / 2) + Math.log(s.df / 2));
  const mean = e.reduce((a, b) => a + b, 0) / e.length;
  const spread = e.reduce((a, b) => a + (b - mean) ** 2, 0) / (e.length - 1) - ok.reduce((a, s) => a + trigamma(s.df / 2), 0) / ok.length;
  if (spread <= 0) return { df0: Infinity, s0sq: Math.exp(mean), groups: ok.length, dfTotal };
  const df0 = 2 * trigammaInverse(spread);
  return { df0, s0sq: Math.exp(mean + digamma(df0 / 2) - Math.log(df0 / 2)), groups: ok.length, dfTotal };
}

/**
 * A group's posterior variance and its degrees of freedom (at most the groups' total, as in limma).
 * @param {number} variance the group's sample variance
 * @param {number} df its degrees of freedom (runs − 1)
 * @param {Prior} prior
 */
export function moderate(variance, df, prior) {
  if (prior.df0 === 0) return { variance, df };
  if (prior.df0 === Infinity) return { variance: prior.s0sq, df: prior.dfTotal };
  return { variance: (prior.df0 * prior.s0sq + df * variance) / (prior.df0 + df), df: Math.min(prior.df0 + df, prior.dfTotal) };
}

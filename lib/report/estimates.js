/**
 * A size row's figures by transport: every transport's estimate, every
 * ratio against TCP, and one transport against TCP seen as UDS is (so the
 * verdicts and the mechanism finder, written for UDS/TCP, read any of them).
 * A comparison holds the baseline's and the headline's estimates under
 * their names (`tcp`, `uds`: the keys of `report --json`), the headline's
 * ratio as `ratio`, and every other transport in `others`. Pure.
 */
import { BASELINE, HEADLINE } from '../transports/index.js';

/**
 * Every transport's estimate of one figure, by name (tcp, uds, uds-abstract …).
 * @param {import('./findings.js').Comparison} c
 * @returns {Record<string, import('./findings.js').Estimate | null>}
 */
export function estimatesOf(c) {
  const own = /** @type {Record<string, any>} */ (c);
  return { [BASELINE]: own[BASELINE], [HEADLINE]: own[HEADLINE], ...Object.fromEntries(Object.entries(c.others ?? {}).map(([t, o]) => [t, o.value])) };
}

/**
 * Every ratio against TCP of one figure, UDS/TCP first: [{ transport, ratio }].
 * @param {import('./findings.js').Comparison} c
 */
export function ratioEstimatesOf(c) {
  return [{ transport: HEADLINE, ratio: c.ratio }, ...Object.entries(c.others ?? {}).map(([transport, o]) => ({ transport, ratio: o.ratio }))];
}

/**
 * A size row's figures seen as one transport against TCP: its estimate and ratio in the places of UDS's.
 * @param {Record<string, import('./findings.js').Comparison>} figures
 * @param {string} transport
 * @returns {Record<string, import('./findings.js').Comparison>}
 */
export function againstTcp(figures, transport) {
  if (transport === HEADLINE) return figures;
  return Object.fromEntries(Object.entries(figures).map(([m, c]) => [m, comparisonOf(estimatesOf(c)[BASELINE], c.others?.[transport]?.value ?? null, c.others?.[transport]?.ratio ?? null)]));
}

/**
 * A comparison: the baseline's and the headline's estimates, the headline's ratio, the others'.
 * @param {import('./findings.js').Estimate | null} baseline @param {import('./findings.js').Estimate | null} headline
 * @param {import('./findings.js').RatioEstimate | null} ratio @param {import('./findings.js').Comparison['others']} [others]
 * @returns {import('./findings.js').Comparison}
 */
export function comparisonOf(baseline, headline, ratio, others = {}) {
  return /** @type {import('./findings.js').Comparison} */ ({ [BASELINE]: baseline, [HEADLINE]: headline, ratio, others });
}

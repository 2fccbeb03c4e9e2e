/** A size row's figures by transport (a Comparison, ./findings.js): every transport's estimate, and every ratio against TCP. Pure. */
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
 * One transport's ratio against TCP of one figure (UDS's is the comparison's `ratio`).
 * @param {import('./findings.js').Comparison} c
 * @param {string} transport
 */
export function ratioAgainstTcp(c, transport) {
  return ratioEstimatesOf(c).find((x) => x.transport === transport)?.ratio ?? null;
}

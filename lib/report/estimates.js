/**
 * A size row's figures by transport: every transport's estimate, every
 * ratio against TCP, and one transport against TCP seen as UDS is (so the
 * verdicts and the mechanism finder, written for UDS/TCP, read any of them).
 * Pure.
 */

/**
 * Every transport's estimate of one figure, by name (tcp, uds, uds-abstract …).
 * @param {import('./findings.js').Comparison} c
 * @returns {Record<string, import('./findings.js').Estimate | null>}
 */
export function estimatesOf(c) {
  return { tcp: c.tcp, uds: c.uds, ...Object.fromEntries(Object.entries(c.others ?? {}).map(([t, o]) => [t, o.value])) };
}

/**
 * Every ratio against TCP of one figure, UDS/TCP first: [{ transport, ratio }].
 * @param {import('./findings.js').Comparison} c
 */
export function ratioEstimatesOf(c) {
  return [{ transport: 'uds', ratio: c.ratio }, ...Object.entries(c.others ?? {}).map(([transport, o]) => ({ transport, ratio: o.ratio }))];
}

/**
 * A size row's figures seen as one transport against TCP: its estimate and ratio in the places of UDS's.
 * @param {Record<string, import('./findings.js').Comparison>} figures
 * @param {string} transport
 * @returns {Record<string, import('./findings.js').Comparison>}
 */
export function againstTcp(figures, transport) {
  if (transport === 'uds') return figures;
  return Object.fromEntries(Object.entries(figures).map(([m, c]) => [m, { tcp: c.tcp, uds: c.others?.[transport]?.value ?? null, ratio: c.others?.[transport]?.ratio ?? null, others: {} }]));
}

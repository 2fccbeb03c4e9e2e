/**
 * Why a ratio is far from 1: of the mechanism figures (context switches and
 * read and write calls per unit of work, client, server and nginx), the one
 * whose ratio to TCP (UDS/TCP, or another transport's) is farthest from 1 on the log scale. Only where the
 * primary figure's ratio is far from 1 (outside 1 ± FAR, and its 95 % CI
 * excludes 1), and only among mechanism ratios whose CI excludes 1 and that
 * happen at least MIN_PER_UNIT times per unit on one transport: a difference
 * in something that happens once in a hundred messages explains nothing.
 * Pure: a size row's figures in, one figure and its ratio out.
 */
import { figureOf } from '../workloads/figures.js';
import { BASELINE, HEADLINE } from '../transports/index.js';
import { estimatesOf, ratioAgainstTcp } from './estimates.js';

export const FAR = 0.1;
export const MIN_PER_UNIT = 0.05;

/**
 * @typedef {object} Mechanism
 * @property {string} metric e.g. client_writes_per_chunk
 * @property {string} label in words: "client write calls per chunk"
 * @property {number} ratio to TCP (geometric mean of paired runs)
 */

/**
 * @param {Record<string, import('./findings.js').Comparison>} figures a size row's figures, by metric
 * @param {string} primary the primary figure's metric
 * @param {string} [transport] the one against TCP
 * @returns {Mechanism | null}
 */
export function mostDifferent(figures, primary, transport = HEADLINE) {
  const p = figures[primary] && ratioAgainstTcp(figures[primary], transport);
  if (!p || p.significant !== 'yes' || Math.abs(p.value - 1) <= FAR) return null;
  /** @type {Mechanism | null} */
  let best = null;
  for (const [metric, c] of Object.entries(figures)) {
    const ratio = ratioAgainstTcp(c, transport);
    const [tcp, other] = [estimatesOf(c)[BASELINE], estimatesOf(c)[transport]];
    if (!figureOf(metric).mechanism || !ratio || ratio.significant !== 'yes' || !tcp || !other) continue;
    if (Math.max(tcp.value, other.value) < MIN_PER_UNIT || !(ratio.value > 0)) continue;
    if (best && Math.abs(Math.log(ratio.value)) <= Math.abs(Math.log(best.ratio))) continue;
    best = { metric, label: figureOf(metric).label, ratio: ratio.value };
  }
  return best;
}

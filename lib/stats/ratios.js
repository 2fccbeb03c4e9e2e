/**
 * Each transport relative to TCP, from paired measurements: a group's ratio and its interval over runs
 * (docs/method.md#the-statistic), its variance moderated across the sweep's groups (./moderation.js).
 */
import { describe } from './describe.js';
import { NO_PRIOR, fitPrior, moderate } from './moderation.js';
import { tCritical } from './welch.js';
import { orderVersions } from '../core/node-executables.js';
import { BASELINE, HEADLINE, ratioOf, ratioTransport } from '../transports/index.js';

/**
 * @typedef {object} RatioInterval
 * @property {number} n runs
 * @property {number} mean geometric mean of the per-run ratios
 * @property {number} median
 * @property {number} min
 * @property {number} max
 * @property {number | null} low 95 % CI, null with one run
 * @property {number | null} high
 * @property {number | null} halfWidth relative half-width of the CI, exp(moe) − 1 (0.03 = ±3 %)
 * @property {number | null} df degrees of freedom of the interval (runs − 1, more when moderated)
 * @property {number[]} logs the per-run log-ratios
 */

/**
 * @param {number[]} logs per-run log-ratios
 * @param {import('./moderation.js').Prior} [prior] fitted across the sweep's groups (ratioIntervals); none: plain Student t
 * @returns {RatioInterval}
 */
export function ratioInterval(logs, prior = NO_PRIOR) {
  const s = describe(logs);
  const n = logs.length;
  const base = { n, mean: Math.exp(s.mean), median: Math.exp(s.p50), min: Math.exp(s.min), max: Math.exp(s.max), logs };
  if (n < 2) return { ...base, low: null, high: null, halfWidth: null, df: null };
  const { variance, df } = moderate(s.variance, n - 1, prior);
  const moe = tCritical(df) * Math.sqrt(variance / n);
  return { ...base, low: Math.exp(s.mean - moe), high: Math.exp(s.mean + moe), halfWidth: Math.expm1(moe), df };
}

/**
 * The intervals of several groups of one sweep (one workload, one figure), their variances moderated together.
 * @param {number[][]} logsByGroup per-run log-ratios of each group
 * @param {{ moderate?: boolean }} [options] false: each group on its own (plain Student t)
 * @returns {{ intervals: (RatioInterval | null)[], prior: import('./moderation.js').Prior }} null for a group with no paired run
 */
export function ratioIntervals(logsByGroup, { moderate = true } = {}) {
  const prior = !moderate ? NO_PRIOR : fitPrior(logsByGroup.filter((logs) => logs.length > 1).map((logs) => ({ variance: describe(logs).variance, df: logs.length - 1 })));
  return { intervals: logsByGroup.map((logs) => (logs.length ? ratioInterval(logs, prior) : null)), prior };
}

/**
 * Per run, of the ok rows of one group: the log of a transport's figure, or for a ratio cell (`uds/tcp`) the log of its
 * transport's figure over TCP's in the same run. One row per (run, transport) (lib/results/reader.js refuses more).
 * @param {Record<string, any>[]} rows trial rows of one (size, depth) group
 * @param {string} transport a transport, or a ratio cell
 * @param {string} metric
 * @returns {Map<number, number>} by run number, in the order of the rows
 */
export function logsByRun(rows, transport, metric) {
  const over = ratioTransport(transport);
  const figures = (/** @type {string} */ t) => new Map(rows
    .filter((r) => r.status === 'ok' && r.transport === t && typeof r[metric] === 'number' && r[metric] > 0)
    .map((r) => [Number(r.run), r[metric]]));
  const tcp = over === null ? null : figures(BASELINE);
  /** @type {Map<number, number>} */
  const logs = new Map();
  for (const [run, value] of figures(over ?? transport)) {
    const base = tcp === null ? 1 : tcp.get(run);
    if (base !== undefined) logs.set(run, Math.log(value / base));
  }
  return logs;
}

/**
 * Per-run log(X / TCP) of one figure, X being UDS unless another transport is given, paired by run number.
 * @param {Record<string, any>[]} rows trial rows of one (size, depth) group
 * @param {string} metric
 * @param {string} [transport] the numerator (uds-abstract …); TCP is always the denominator
 */
export function pairedLogRatios(rows, metric, transport = HEADLINE) {
  return [...logsByRun(rows, ratioOf(transport), metric).values()];
}

/**
 * Trial rows by (workload, Node version, size, depth) group, sorted by version (in the order given, else oldest first),
 * size, depth. Rows without a node_version (written before the axis) form groups of version null.
 * @param {Record<string, any>[]} rows
 * @param {string[]} [nodes] the Node versions in order, the baseline first
 * @returns {{ workload: string, node_version: string | null, size_bytes: number, depth: number, rows: Record<string, any>[] }[]}
 */
export function groupRows(rows, nodes) {
  /** @type {Map<string, { workload: string, node_version: string | null, size_bytes: number, depth: number, rows: Record<string, any>[] }>} */
  const groups = new Map();
  for (const r of rows) {
    const node = typeof r.node_version === 'string' && r.node_version !== '' ? r.node_version : null;
    const key = `${r.workload}|${node}|${r.size_bytes}|${r.depth}`;
    if (!groups.has(key)) groups.set(key, { workload: r.workload, node_version: node, size_bytes: Number(r.size_bytes), depth: Number(r.depth), rows: [] });
    groups.get(key)?.rows.push(r);
  }
  const order = orderVersions([...groups.values()].map((g) => g.node_version), nodes);
  return [...groups.values()].sort((a, b) => order.indexOf(a.node_version) - order.indexOf(b.node_version) || a.size_bytes - b.size_bytes || a.depth - b.depth);
}

/**
 * How much narrower one more run would make an interval if the runs' spread stays: with n runs and df degrees of
 * freedom the t factor falls from t(df)/√n to t(df + 1)/√(n + 1), a lot at 3 unmoderated runs (−36 %), little at 10 (−6 %).
 * @param {number} halfWidth relative, as RatioInterval.halfWidth
 * @param {number} n runs so far (at least 2)
 * @param {number} [df] degrees of freedom of the interval
 */
export function nextHalfWidth(halfWidth, n, df = n - 1) {
  const moe = Math.log1p(halfWidth);
  return Math.expm1(moe * (tCritical(df + 1) / tCritical(df)) * Math.sqrt(n / (n + 1)));
}

/**
 * Groups whose interval against TCP of the primary figure (moderated, as in the summary; the widest transport's) is
 * wider than ±precision or missing, as { size, depth, node_version, halfWidth, gain }, gain being how much of the excess
 * over ±precision one more run is expected to remove (Infinity with no interval yet).
 * @param {Record<string, any>[]} rows trial rows
 * @param {number} precision e.g. 0.03 for ±3 %
 * @param {string} metric the primary figure of the workload
 * @param {{ moderate?: boolean }} [options] false: each group's interval on its own
 */
export function groupsShortOfPrecision(rows, precision, metric, { moderate = true } = {}) {
  const groups = groupRows(rows); // each Node version's groups apart
  const numerators = [...new Set(rows.map((r) => String(r.transport)))].filter((t) => t !== BASELINE).sort();
  // each group's widest interval so far; a group with nothing paired keeps none: more runs would not help
  const widest = groups.map(() => ({ halfWidth: /** @type {number | null} */ (0), gain: 0 }));
  for (const transport of numerators) {
    const { intervals } = ratioIntervals(groups.map((g) => pairedLogRatios(g.rows, metric, transport)), { moderate });
    intervals.forEach((r, i) => {
      if (!r || (widest[i].halfWidth ?? Infinity) >= (r.halfWidth ?? Infinity)) return;
      const { halfWidth, n, df } = r;
      widest[i] = { halfWidth, gain: halfWidth === null || df === null ? Infinity : Math.min(halfWidth - precision, halfWidth - nextHalfWidth(halfWidth, n, df)) };
    });
  }
  return groups
    .map((g, i) => ({ size: g.size_bytes, depth: g.depth, node_version: g.node_version, ...widest[i] }))
    .filter((g) => g.halfWidth === null || g.halfWidth > precision);
}

/**
 * log(X / TCP) of one figure (X: UDS unless another transport is given) for each round of blocks in one trial: rounds
 * hold one block per transport (A B, B A, … ; A B C, C B A, …) of equal counts, and X's is paired with TCP's of its round.
 * @param {Record<string, any>[]} blocks in measured order
 * @param {string} metric
 */
export function blockPairLogRatios(blocks, metric, transport = HEADLINE) {
  const logs = [];
  const lanes = Math.max(2, new Set(blocks.map((b) => b.transport)).size);
  for (let k = 0; k + lanes - 1 < blocks.length; k += lanes) {
    const pair = blocks.slice(k, k + lanes);
    const u = pair.find((b) => b.transport === transport);
    const t = pair.find((b) => b.transport === BASELINE);
    if (u && t && u[metric] > 0 && t[metric] > 0) logs.push(Math.log(u[metric] / t[metric]));
  }
  return logs;
}

/**
 * The interval of one trial's ratio from its block pairs by batch means (docs/method.md#one-process-run): the means of
 * up to 10 runs of consecutive pairs are the replicates, absorbing the correlation of neighbouring blocks.
 * @param {number[]} logs per-pair log-ratios in measured order
 * @returns {RatioInterval}
 */
export function batchMeansInterval(logs) {
  const b = Math.min(10, Math.floor(logs.length / 2));
  if (b < 2) return { ...ratioInterval([logs.reduce((x, y) => x + y, 0) / logs.length]), logs };
  const per = Math.floor(logs.length / b);
  const means = Array.from({ length: b }, (_, i) => {
    const part = logs.slice(i * per, i === b - 1 ? logs.length : (i + 1) * per);
    return part.reduce((x, y) => x + y, 0) / part.length;
  });
  return { ...ratioInterval(means), logs };
}

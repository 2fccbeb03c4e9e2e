/**
 * Node versions against each other, within one sweep, runs paired (docs/cli.md#node-versions): per run log(version) −
 * log(baseline) of each ratio to TCP and of each figure, intervals as for UDS/TCP (./ratios.js), moderated across the
 * groups of one (workload, version, figure, transport).
 */
import { logsByRun, ratioIntervals } from './ratios.js';
import { orderVersions } from '../core/node-executables.js';
import { orderTransports, ratiosOf } from '../transports/index.js';

/**
 * Whether a summary row compares two Node versions (its node_version `v26.10.0/v20.20.2`) rather than describing one.
 * @param {Record<string, any>} row
 */
export const isVersionComparison = (row) => typeof row.node_version === 'string' && row.node_version.includes('/');

/**
 * @typedef {object} VersionComparison
 * @property {string} workload
 * @property {string} node the version compared
 * @property {string} base the baseline
 * @property {number} size_bytes
 * @property {number} depth
 * @property {string} transport uds/tcp: the ratio of UDS/TCP ratios (uds-abstract/tcp … likewise); tcp, uds …: the figure's
 * @property {string} metric
 * @property {import('./ratios.js').RatioInterval} interval of version / baseline, runs paired
 */

/**
 * Every version against the baseline, for every group both have, every figure, every ratio to TCP and every transport.
 * @param {{ workload: string, node_version: string | null, size_bytes: number, depth: number, rows: Record<string, any>[] }[]} groups from groupRows()
 * @param {{ nodes?: string[], metrics: (workload: string) => string[], moderate?: boolean }} options
 *   nodes: the versions in order, the baseline first (default: oldest first); metrics: the figures of a workload
 * @returns {VersionComparison[]} none with fewer than two versions
 */
export function compareNodeVersions(groups, { nodes, metrics, moderate = true }) {
  /** @type {VersionComparison[]} */
  const out = [];
  for (const workload of new Set(groups.map((g) => g.workload))) {
    const mine = groups.filter((g) => g.workload === workload && g.node_version !== null);
    const versions = /** @type {string[]} */ (orderVersions(mine.map((g) => g.node_version), nodes));
    const [base, ...others] = versions;
    for (const node of others) {
      // the (size, depth) groups measured under both, in size and depth order
      const pairs = mine.filter((g) => g.node_version === node)
        .map((g) => ({ g, b: mine.find((x) => x.node_version === base && x.size_bytes === g.size_bytes && x.depth === g.depth) }))
        .filter((p) => p.b !== undefined);
      // every ratio to TCP (UDS/TCP first), then every transport's figure
      const measured = mine.flatMap((g) => g.rows.map((r) => String(r.transport)));
      const compared = [...ratiosOf(measured), ...orderTransports(measured)];
      for (const metric of metrics(workload)) {
        for (const transport of compared) {
          const logs = pairs.map(({ g, b }) => {
            const [mineByRun, baseByRun] = [logsByRun(g.rows, transport, metric), logsByRun(/** @type {any} */ (b).rows, transport, metric)];
            return [...mineByRun].filter(([run]) => baseByRun.has(run)).sort((x, y) => x[0] - y[0]).map(([run, v]) => v - /** @type {number} */ (baseByRun.get(run)));
          });
          const { intervals } = ratioIntervals(logs, { moderate });
          pairs.forEach(({ g }, i) => {
            const interval = intervals[i];
            if (interval) out.push({ workload, node, base, size_bytes: g.size_bytes, depth: g.depth, transport, metric, interval });
          });
        }
      }
    }
  }
  return out;
}

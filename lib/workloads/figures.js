/**
 * The figures a report talks about: label, unit and better direction, and per workload its primary figure (that of
 * the verdicts and the first and ratio charts), all from the workloads' declarations: lib/report/ names no workload.
 */
import { UsageError } from '../core/errors.js';
import { WORKLOADS, workloadOf } from './index.js';

/** @typedef {import('./workload.js').Figure & { metric: string }} Figure a workload's figure and its column of trials.csv and summary.csv */

/** Every workload's summarised figures, by column. */
export const FIGURES = /** @type {Record<string, Figure>} */ (Object.fromEntries(Object.values(WORKLOADS).flatMap((w) => Object.entries(w.summary).map(([metric, f]) => [metric, { metric, ...f }]))));

/**
 * The figures, by workload, for an error message: `echo's figures: msgs_per_s, …` of one workload, `by workload: echo:
 * msgs_per_s, …; stream: gb_per_s, …` of several; of these workloads (those known), or of every workload.
 * @param {string[]} [names]
 */
export function listFigures(names = []) {
  const known = [...new Set(names)].filter((name) => Object.hasOwn(WORKLOADS, name)).map((name) => WORKLOADS[name]);
  if (known.length === 1) return `${known[0].name}'s figures: ${Object.keys(known[0].summary).join(', ')}`;
  return `by workload: ${(known.length ? known : Object.values(WORKLOADS)).map((w) => `${w.name}: ${Object.keys(w.summary).join(', ')}`).join('; ')}`;
}

/**
 * The primary figure of a workload (messages per second when unknown).
 * @param {string | undefined} workload
 * @returns {Figure}
 */
export function primaryFigure(workload) {
  return figureOf(workloadOf(workload).primary, workload);
}

/**
 * A workload's server CPU per unit among its figures (server_cpu_us_per_msg, _per_req, _per_op, _per_query).
 * @param {unknown} workload a name, as data holds it
 */
export function serverCpuMetric(workload) {
  return Object.keys(workloadOf(workload).summary).find((m) => m.startsWith('server_cpu_'));
}

/**
 * The figure of a metric, as `workload` declares it where given (workloads share columns, not always labels: http's
 * median request latency, postgres's median query latency); a metric not declared here gets a plain entry.
 * @param {string} metric
 * @param {string} [workload]
 * @returns {Figure}
 */
export function figureOf(metric, workload) {
  const summary = workload === undefined ? undefined : workloadOf(workload).summary;
  if (summary && Object.hasOwn(summary, metric)) return { metric, ...summary[metric] };
  return Object.hasOwn(FIGURES, metric) ? FIGURES[metric] : { metric, label: metric, short: metric, unit: '', better: 'higher' };
}

/**
 * The figure a flag names, checked against the workloads of the results it is about: no figure (`constructor` included:
 * only own keys count; the error lists those workloads' figures) or another workload's figure is a UsageError naming
 * the flag.
 * @param {string} metric
 * @param {{ flag: string, workloads?: string[], source?: string, listed?: string[] }} where workloads: of the results
 *   directory `source`; listed: the workloads whose figures an unknown one lists (default: workloads)
 * @returns {Figure}
 */
export function resolveFigure(metric, { flag, workloads = [], source = 'the results', listed = workloads }) {
  if (!Object.hasOwn(FIGURES, metric)) throw new UsageError(`${flag} ${metric}: not a figure; ${listFigures(listed)}`);
  for (const name of workloads) {
    const w = Object.hasOwn(WORKLOADS, name) ? WORKLOADS[name] : undefined;
    if (w && !Object.hasOwn(w.summary, metric)) {
      const owners = Object.values(WORKLOADS).filter((o) => Object.hasOwn(o.summary, metric)).map((o) => o.name);
      throw new UsageError(`${flag} ${metric}: a figure of ${owners.join(', ')}, not of ${w.name}, the workload of ${source}; ${w.name}'s figures: ${Object.keys(w.summary).join(', ')}`);
    }
  }
  return figureOf(metric, workloads[0]);
}

/**
 * The figures a report talks about: label, unit and which direction is
 * better, and per workload its primary figure (the one the verdicts, the
 * first chart and the ratio chart are about). A new workload plugs in by
 * adding its entry to PRIMARY (or by passing `primary` to the report
 * functions); nothing else in lib/report/ names a workload.
 */

/**
 * @typedef {object} Figure
 * @property {string} metric the column of trials.csv and summary.csv
 * @property {string} label in words, for verdicts: "messages per second"
 * @property {string} short for table headers and chart axes: "msgs/s"
 * @property {string} unit as in summary.csv's `unit` column
 * @property {'higher' | 'lower'} better
 */

/** @type {Record<string, Figure>} */
export const FIGURES = {
  msgs_per_s: { metric: 'msgs_per_s', label: 'messages per second', short: 'msgs/s', unit: 'msgs/s', better: 'higher' },
  rtt_p50_us: { metric: 'rtt_p50_us', label: 'median round-trip time', short: 'RTT p50 µs', unit: 'us', better: 'lower' },
  rtt_p99_us: { metric: 'rtt_p99_us', label: '99th percentile round-trip time', short: 'RTT p99 µs', unit: 'us', better: 'lower' },
  client_cpu_us_per_msg: { metric: 'client_cpu_us_per_msg', label: 'client CPU per message', short: 'client CPU µs/msg', unit: 'us/msg', better: 'lower' },
  server_cpu_us_per_msg: { metric: 'server_cpu_us_per_msg', label: 'server CPU per message', short: 'server CPU µs/msg', unit: 'us/msg', better: 'lower' },
};

/** The primary figure of each workload. */
export const PRIMARY = /** @type {Record<string, string>} */ ({ echo: 'msgs_per_s' });

/**
 * The primary figure of a workload (messages per second when unknown).
 * @param {string | undefined} workload
 * @returns {Figure}
 */
export function primaryFigure(workload) {
  return FIGURES[PRIMARY[workload ?? ''] ?? 'msgs_per_s'];
}

/**
 * The figure of a metric; a metric not declared here gets a plain entry.
 * @param {string} metric
 * @returns {Figure}
 */
export function figureOf(metric) {
  return FIGURES[metric] ?? { metric, label: metric, short: metric, unit: '', better: 'higher' };
}

/**
 * The result record: one plain object per trial and transport, its keys the CSV columns and JSON keys in order
 * (docs/results.md#the-result-record); figures not measured are null (an empty CSV cell).
 */
import { describeResourceError } from '../core/resources.js';
import { DEFAULT_WORKLOAD, workloadOf } from '../workloads/index.js';

/** The common columns of a trial row, around the workload's figures: node_version is the Node the trial ran on (v20.20.2). */
const HEAD_COLUMNS = ['workload', 'node_version', 'transport', 'size_bytes', 'depth'];
const TAIL_COLUMNS = ['client_cpus', 'server_cpus', 'same_cpu_share', 'lane_check', 'status', 'error'];

/** @typedef {Record<string, string | number | null>} TrialRecord */

/**
 * The columns of a workload's records; unknown names get the echo columns.
 * @param {unknown} workload
 */
export function recordFields(workload) {
  return [...HEAD_COLUMNS, ...workloadOf(workload).columns, ...TAIL_COLUMNS];
}

/** What a record holds where its values say nothing, besides null. @type {Record<string, string>} */
const DEFAULTS = { workload: DEFAULT_WORKLOAD, status: 'ok', error: '' };

/**
 * A record with every field of its workload, in order; missing figures are null.
 * @param {Record<string, unknown>} values
 * @returns {TrialRecord}
 */
export function createRecord(values) {
  const fields = recordFields(values.workload ?? DEFAULT_WORKLOAD);
  return Object.fromEntries(fields.map((field) => [field, /** @type {any} */ (values[field] ?? DEFAULTS[field] ?? null)]));
}

/** How a row of a failed trial begins when its own lane did not fail: `not measured: the tcp lane failed: …`. */
export const NOT_MEASURED = 'not measured: ';

/**
 * The record of a trial that failed: what it was, and why (one line).
 * @param {{ workload: string, node_version?: string, transport: string, size_bytes?: number, depth?: number }} job
 * @param {Error} error
 * @returns {TrialRecord}
 */
export function errorRecord(job, error) {
  // EMFILE or out of memory: which limit (ulimit -n, ulimit -v) and what to do
  return createRecord({ ...job, status: 'error', error: (describeResourceError(error) ?? error.message).split('\n')[0] });
}

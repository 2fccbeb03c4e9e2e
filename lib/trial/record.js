/**
 * The result record: one plain object per trial and transport. Its keys are
 * the CSV columns and the JSON keys, in this order: workload, node_version,
 * transport, size_bytes, depth, the workload's figures (units in their
 * names), status, error. Figures that were not measured are null (an empty CSV cell).
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

/**
 * A record with every field of its workload, in order; missing figures are null.
 * @param {Record<string, unknown>} values
 * @returns {TrialRecord}
 */
export function createRecord(values) {
  /** @type {TrialRecord} */
  const record = {};
  for (const field of recordFields(values.workload ?? DEFAULT_WORKLOAD)) record[field] = /** @type {any} */ (values[field] ?? null);
  if (record.workload === null) record.workload = DEFAULT_WORKLOAD;
  if (record.status === null) record.status = 'ok';
  if (record.error === null) record.error = '';
  return record;
}

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

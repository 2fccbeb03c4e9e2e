/**
 * The result record: one plain object per trial. Its keys are the CSV
 * columns and the JSON keys, in this order; units are in the names.
 * Figures that were not measured are null (an empty CSV cell).
 */

export const RECORD_FIELDS = /** @type {const} */ ([
  'workload', 'transport', 'size_bytes', 'depth', 'packets', 'blocks', 'block_packets',
  'elapsed_ms', 'msgs_per_s', 'mb_per_s',
  'rtt_mean_us', 'rtt_sd_us', 'rtt_p50_us', 'rtt_p90_us', 'rtt_p99_us', 'rtt_p999_us', 'rtt_max_us',
  'client_cpu_us_per_msg', 'server_cpu_us_per_msg', 'client_elu', 'server_elu',
  'status', 'error',
]);

/** @typedef {typeof RECORD_FIELDS[number]} RecordField */
/** @typedef {Record<RecordField, string | number | null>} TrialRecord */

/**
 * A record with every field, in order; missing figures are null.
 * @param {Partial<TrialRecord>} values
 * @returns {TrialRecord}
 */
export function createRecord(values) {
  const record = /** @type {TrialRecord} */ ({});
  for (const field of RECORD_FIELDS) record[field] = values[field] ?? null;
  if (record.status === null) record.status = 'ok';
  if (record.error === null) record.error = '';
  return record;
}

/**
 * The record of a trial that failed: what it was, and why.
 * @param {{ workload: string, transport: string, size_bytes?: number, depth?: number }} job
 * @param {Error} error
 * @returns {TrialRecord}
 */
export function errorRecord(job, error) {
  return createRecord({ ...job, status: 'error', error: error.message.split('\n')[0] });
}

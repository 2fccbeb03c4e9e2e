/**
 * A workload's reference client (Workload.reference: redis-benchmark beside redis), run after a trial against the same
 * server, once per transport whose lane measured, in the trial's order: rows for reference.csv, an error row where it
 * failed. The reference never fails the trial.
 */

/**
 * @param {import('../workloads/workload.js').Workload} workload
 * @param {object} options
 * @param {string} options.binary from workload.reference.find()
 * @param {import('../workloads/workload.js').TrialSpec} options.trial
 * @param {Record<string, any>[]} options.records the trial's records (one per transport)
 * @param {Record<string, import('../client/transport.js').Target>} options.targets the fixture's, by transport
 * @param {string[]} [options.prefix] e.g. taskset for the client's CPU
 * @param {number | string} [options.run]
 * @param {AbortSignal} [options.signal] aborted (Ctrl-C): none starts, the one running is killed, and no row is made of it
 * @returns {Promise<Record<string, unknown>[]>}
 */
export async function runReference(workload, { binary, trial, records, targets, prefix = [], run, signal }) {
  const reference = workload.reference;
  if (!reference) return [];
  const count = workload.columns[0]; // the lane's units: operations for redis
  /** @type {Record<string, unknown>[]} */
  const rows = [];
  for (const record of records) {
    const target = targets[record.transport];
    if (signal?.aborted) break;
    if (record.status !== 'ok' || !target) continue;
    const base = { run, node_version: record.node_version ?? trial.node_version, client: reference.client, transport: record.transport, size_bytes: trial.size, depth: trial.depth };
    const requests = Math.max(1000, Math.round(Number(record[count]) || 0));
    try {
      const measured = await reference.run({ binary, target, size: trial.size, depth: trial.depth, clients: trial.clients, batch: trial.batch, requests, prefix, signal });
      rows.push(...measured.map((row) => ({ ...base, ...row, status: 'ok', error: '' })));
    } catch (error) {
      if (signal?.aborted) break;
      rows.push({ ...base, requests, status: 'error', error: /** @type {Error} */ (error).message });
    }
  }
  return rows;
}

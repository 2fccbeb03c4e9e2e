/**
 * A workload's reference client (Workload.reference: redis-benchmark beside redis), run after a trial against the same
 * server, once per transport whose lane measured, in the trial's order: rows for reference.csv, an error row where it
 * failed. The reference never fails the trial.
 */
import { formatSize } from '../core/units.js';

/**
 * @param {import('../workloads/workload.js').Workload} workload
 * @param {object} options
 * @param {string} options.binary from workload.reference.find()
 * @param {import('../workloads/workload.js').TrialSpec} options.trial
 * @param {Record<string, any>[]} options.records the trial's records (one per transport)
 * @param {Record<string, import('../client/transport.js').Target>} options.targets the fixture's, by transport
 * @param {string[]} [options.prefix] e.g. taskset for the client's CPU
 * @param {number | string} [options.run]
 * @returns {Promise<Record<string, unknown>[]>}
 */
export async function runReference(workload, { binary, trial, records, targets, prefix = [], run }) {
  const reference = workload.reference;
  if (!reference) return [];
  const count = workload.columns[0]; // the lane's units: operations for redis
  /** @type {Record<string, unknown>[]} */
  const rows = [];
  for (const record of records) {
    const target = targets[record.transport];
    if (record.status !== 'ok' || !target) continue;
    const base = { run, node_version: record.node_version ?? trial.node_version, client: reference.client, transport: record.transport, size_bytes: trial.size, depth: trial.depth };
    const requests = Math.max(1000, Math.round(Number(record[count]) || 0));
    try {
      const measured = await reference.run({ binary, target, size: trial.size, depth: trial.depth, requests, prefix });
      rows.push(...measured.map((row) => ({ ...base, ...row, status: 'ok', error: '' })));
    } catch (error) {
      rows.push({ ...base, requests, status: 'error', error: /** @type {Error} */ (error).message });
    }
  }
  return rows;
}

/**
 * One line per group and command for people: each transport's median rps over the runs, and each against the first
 * transport of the rows (the baseline, TCP, where the trial's order starts with it): `redis-benchmark 16 B depth 1 SET:
 * tcp 18.3k rps, uds 25.1k rps (×1.37) (median of 3 runs)`.
 * @param {Record<string, any>[]} rows reference.csv's rows of this session
 * @param {string} baseline the transport the others are set against
 * @returns {string[]}
 */
export function describeReference(rows, baseline) {
  const ok = rows.filter((r) => r.status === 'ok');
  /** @type {Map<string, Map<string, number[]>>} */
  const groups = new Map();
  for (const r of ok) {
    const key = `${r.client} ${formatSize(Number(r.size_bytes))} depth ${r.depth} ${r.test}`;
    const byTransport = groups.get(key) ?? new Map();
    byTransport.set(r.transport, [...(byTransport.get(r.transport) ?? []), Number(r.rps)]);
    groups.set(key, byTransport);
  }
  const median = (/** @type {number[]} */ xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const rps = (/** @type {number} */ x) => (x >= 1000 ? `${(x / 1000).toFixed(1)}k` : x.toFixed(0));
  return [...groups].map(([key, byTransport]) => {
    const base = byTransport.has(baseline) ? median(/** @type {number[]} */ (byTransport.get(baseline))) : null;
    const parts = [...byTransport].sort(([a], [b]) => Number(b === baseline) - Number(a === baseline)).map(([transport, xs]) => {
      const m = median(xs);
      return `${transport} ${rps(m)} rps${base && transport !== baseline ? ` (×${(m / base).toFixed(2)})` : ''}`;
    });
    return `${key}: ${parts.join(', ')} (median of ${Math.max(...[...byTransport.values()].map((xs) => xs.length))} runs)`;
  });
}

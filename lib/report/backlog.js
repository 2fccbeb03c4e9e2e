/**
 * When net.core.somaxconn, not the transport, may have set a result: the
 * kernel caps the server's listen backlog at somaxconn, and a trial that
 * opened more connections at once than that could overflow the accept queue,
 * where a UDS connect fails at once (EAGAIN) and TCP's waits for a SYN retry
 * (lib/core/backlog.js, docs/regimes.md). Pure.
 */
import { backlogWarning } from '../core/backlog.js';
import { connectionsAt, depthLabel, workloadOf } from '../workloads/index.js';

/**
 * @param {import('./findings.js').Section[]} sections
 * @param {Record<string, any> | null | undefined} meta meta.json: its machine's sysctl, else its environment's
 * @returns {string | null}
 */
export function somaxconnWarning(sections, meta) {
  const recorded = meta?.machine?.sysctl?.['net.core.somaxconn'] ?? meta?.environment?.net?.somaxconn;
  const somaxconn = typeof recorded === 'string' && /^\d+$/.test(recorded) ? Number(recorded) : recorded;
  if (typeof somaxconn !== 'number') return null;
  const widest = sections
    .map((s) => ({ s, connections: connectionsAt(workloadOf(s.workload), s.depth) }))
    .reduce((a, b) => (b.connections > a.connections ? b : a), { s: /** @type {import('./findings.js').Section | null} */ (null), connections: 0 });
  if (!widest.s) return null;
  return backlogWarning({ connections: widest.connections, somaxconn, flag: depthLabel(widest.s.workload, widest.s.depth) });
}

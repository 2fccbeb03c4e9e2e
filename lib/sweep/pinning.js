/**
 * CPU pinning with taskset, alike for every lane of a trial: client and server on different CPUs (split, the default,
 * as a deployment would place them) or on one (same), the first CPUs this process may use. The server fixture and the
 * lane processes start through taskset; a message transport's echo goes on the server's CPUs
 * (lib/fixture/message-peer.js). Where taskset is missing, or split has one CPU, runs unpinned and says so.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { findProgram } from '../core/programs.js';

/**
 * The CPUs this process may run on, in order: Linux's Cpus_allowed_list (a container's cpuset, taskset), else 0 … n − 1.
 * @param {string} [status] the text of /proc/self/status (tests)
 */
export function allowedCpus(status) {
  try {
    const text = status ?? readFileSync('/proc/self/status', 'latin1');
    const list = /^Cpus_allowed_list:\s*(\S+)\s*$/m.exec(text)?.[1];
    if (list) {
      /** @type {number[]} */
      const cpus = [];
      for (const part of list.split(',')) {
        const [from, to = from] = part.split('-').map(Number);
        for (let cpu = from; cpu <= to && cpus.length < 4096; cpu++) cpus.push(cpu);
      }
      if (cpus.length && cpus.every(Number.isInteger)) return cpus;
    }
  } catch {
    // not Linux: count them
  }
  return Array.from({ length: os.availableParallelism() }, (_, i) => i);
}

/**
 * @typedef {object} Pinning
 * @property {string[]} server the server's command prefix
 * @property {string[]} client the lane processes' command prefix
 * @property {{ server: string, client: string, mode: string } | undefined} placement the CPUs, for the trial (TrialSpec.placement)
 * @property {string} applied in words, recorded in meta.json
 * @property {string} [note] why it is not what was asked
 */

/**
 * @param {'none' | 'split' | 'same'} pin
 * @returns {Pinning}
 */
export function resolvePinning(pin) {
  const none = (/** @type {string | undefined} */ note) => ({ server: [], client: [], placement: undefined, applied: 'none', ...(note ? { note } : {}) });
  if (pin === 'none') return none(undefined);
  const taskset = findProgram('taskset');
  if (!taskset) return none(`--pin ${pin}: taskset not found (Linux util-linux); running unpinned`);
  const cpus = allowedCpus();
  if (pin === 'split' && cpus.length < 2) return none('--pin split needs 2 CPUs; running unpinned');
  // the first CPUs this process may use (a container's cpuset need not start at 0)
  const [server, client] = (pin === 'split' ? [cpus[0], cpus[1]] : [cpus[0], cpus[0]]).map(String);
  return {
    server: [taskset, '-c', server],
    client: [taskset, '-c', client],
    placement: { server, client, mode: pin },
    applied: pin === 'split' ? `split: server cpu ${server}, client cpu ${client}` : `same: server and client cpu ${server}`,
  };
}

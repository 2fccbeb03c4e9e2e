/**
 * CPU pinning with taskset, for every lane of a trial alike: client and
 * server on different CPUs (split, the default: as a deployment would place
 * them on a machine of two or more) or on one CPU (same). The server
 * fixture and the trial process start through taskset; a message
 * transport's echo, which the trial starts, goes on the server's CPUs
 * (lib/fixture/message-peer.js); lane processes inherit the trial's. Where
 * taskset is missing, or split has one CPU, runs unpinned and says so.
 */
import os from 'node:os';
import { findProgram } from '../core/programs.js';

/**
 * @typedef {object} Pinning
 * @property {string[]} server the server's command prefix
 * @property {string[]} client the trial process's command prefix
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
  if (pin === 'split' && os.availableParallelism() < 2) return none('--pin split needs 2 CPUs; running unpinned');
  const [server, client] = pin === 'split' ? ['0', '1'] : ['0', '0'];
  return {
    server: [taskset, '-c', server],
    client: [taskset, '-c', client],
    placement: { server, client, mode: pin },
    applied: pin === 'split' ? 'split: server cpu 0, client cpu 1' : 'same: server and client cpu 0',
  };
}

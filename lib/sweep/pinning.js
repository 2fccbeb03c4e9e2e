/**
 * CPU pinning with taskset: client and server on different cores (split)
 * or on one core (same). Where taskset is missing, runs unpinned and says so.
 */
import os from 'node:os';
import { findProgram } from '../core/programs.js';

/**
 * @param {'none' | 'split' | 'same'} pin
 * @returns {{ server: string[], client: string[], applied: string, note?: string }}
 */
export function resolvePinning(pin) {
  if (pin === 'none') return { server: [], client: [], applied: 'none' };
  const taskset = findProgram('taskset');
  if (!taskset) return { server: [], client: [], applied: 'none', note: `--pin ${pin}: taskset not found (Linux util-linux); running unpinned` };
  if (pin === 'split' && os.availableParallelism() < 2) return { server: [], client: [], applied: 'none', note: '--pin split needs 2 CPUs; running unpinned' };
  return pin === 'split'
    ? { server: [taskset, '-c', '0'], client: [taskset, '-c', '1'], applied: 'split: server cpu 0, client cpu 1' }
    : { server: [taskset, '-c', '0'], client: [taskset, '-c', '0'], applied: 'same: server and client cpu 0' };
}

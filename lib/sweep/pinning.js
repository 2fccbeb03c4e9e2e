/**
 * CPU pinning with taskset: client and server on different cores (split)
 * or on one core (same). Where taskset is missing, runs unpinned and says so.
 */
import { accessSync, constants } from 'node:fs';
import os from 'node:os';
import { delimiter, join } from 'node:path';

function findTaskset() {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    try {
      accessSync(join(dir, 'taskset'), constants.X_OK);
      return join(dir, 'taskset');
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * @param {'none' | 'split' | 'same'} pin
 * @returns {{ server: string[], client: string[], applied: string, note?: string }}
 */
export function resolvePinning(pin) {
  if (pin === 'none') return { server: [], client: [], applied: 'none' };
  const taskset = findTaskset();
  if (!taskset) return { server: [], client: [], applied: 'none', note: `--pin ${pin}: taskset not found (Linux util-linux); running unpinned` };
  if (pin === 'split' && os.availableParallelism() < 2) return { server: [], client: [], applied: 'none', note: '--pin split needs 2 CPUs; running unpinned' };
  return pin === 'split'
    ? { server: [taskset, '-c', '0'], client: [taskset, '-c', '1'], applied: 'split: server cpu 0, client cpu 1' }
    : { server: [taskset, '-c', '0'], client: [taskset, '-c', '0'], applied: 'same: server and client cpu 0' };
}

/**
 * Every lane of a trial under equal conditions: with --pin split each lane's
 * client is on the client's CPU and its server (the fixture, a forked IPC
 * echo, a worker thread) on the server's, and with --pin same both on one;
 * each lane runs in a process of its own, so that its garbage is its own.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import { startFixture } from '../../lib/fixture/fixture.js';
import { channelTargets } from '../../lib/transports/index.js';
import { getWorkload } from '../../lib/workloads/index.js';
import { resolvePinning } from '../../lib/sweep/pinning.js';
import { runLanes } from '../../lib/trial/lanes.js';
import { descendants } from '../helpers/processes.js';

const TRANSPORTS = ['tcp', 'uds', 'ipc-json', 'ipc-advanced', 'worker'];
/** One lane of each kind of server end: the fixture, a forked IPC echo, a worker thread. */
const KINDS = ['tcp', 'ipc-json', 'worker'];

/**
 * @param {'split' | 'same'} pin
 * @param {string[]} transports
 */
async function trialOn(pin, transports) {
  const pinning = resolvePinning(pin);
  expect(pinning.note).toBeUndefined(); // taskset and two CPUs: this test needs both, and says so if they are missing
  const fixture = await startFixture(getWorkload('echo'), { noDelay: true, prefix: pinning.server });
  try {
    const targets = { ...channelTargets(), ...fixture.targets };
    /** @type {Map<number, number>} a lane process seen, and its parent */
    const seen = new Map();
    const watching = setInterval(() => {
      for (const p of descendants(process.pid)) {
        if (!p.cmdline.includes('trial/worker.js') || seen.has(p.pid)) continue;
        try {
          const stat = readFileSync(`/proc/${p.pid}/stat`, 'latin1');
          seen.set(p.pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
        } catch {
          // gone already
        }
      }
    }, 50); // a lane process lives as long as its trial: seen at this pace, with less /proc reading on a busy machine
    const result = await runLanes({
      workload: 'echo', targets: transports.map((t) => /** @type {any} */ (targets)[t]), size: 64, depth: 1, seed: 3, noDelay: true, timeoutMs: 5000,
      measure: { packets: 500 }, warmup: { packets: 100 }, placement: pinning.placement,
    }, { server: fixture, prefix: pinning.client, limitMs: 60_000 });
    clearInterval(watching);
    // lane processes started by this one, the scheduler (not a process a lane forks, seen before it execs its own entry)
    return { records: result.records, lanes: [...seen.values()].filter((parent) => parent === process.pid).length };
  } finally {
    await fixture.stop();
  }
}

describe('lanes under equal conditions', () => {
  beforeAll(() => {
    expect(os.availableParallelism(), 'these tests place client and server on CPUs 0 and 1').toBeGreaterThanOrEqual(2);
  });

  it('--pin split: every lane\'s client on cpu 1 and its server on cpu 0, never one CPU, each lane in a process of its own', async () => {
    const { records, lanes } = await trialOn('split', TRANSPORTS);
    expect(records.map((r) => [r.transport, r.status, r.error])).toEqual(TRANSPORTS.map((t) => [t, 'ok', '']));
    for (const r of records) {
      expect([r.transport, r.client_cpus, r.server_cpus, r.same_cpu_share]).toEqual([r.transport, '1', '0', 0]);
      // never a placement difference; preemptions by other processes on a busy machine may still be named
      expect(r.lane_check).not.toMatch(/on one CPU/);
    }
    // one lane process per transport, each started by the scheduling process (under a trial process of 0.6.0 this was 1)
    expect(lanes).toBe(TRANSPORTS.length);
  });

  it('--pin same: both ends of every lane on cpu 0, whatever serves it', async () => {
    const { records } = await trialOn('same', KINDS);
    expect(records.map((r) => r.transport)).toEqual(KINDS);
    for (const r of records) {
      expect([r.transport, r.status, r.client_cpus, r.server_cpus, r.same_cpu_share]).toEqual([r.transport, 'ok', '0', '0', 1]);
    }
  });
});

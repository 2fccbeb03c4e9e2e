import { describe, expect, it } from 'vitest';
import { createRecord } from '../../lib/trial/record.js';
import { failedTrial } from '../../lib/trial/trial.js';
import { runSweep } from '../../lib/sweep/orchestrator.js';
import { failingGroups } from '../../lib/sweep/schedule.js';
import { resolveSpec } from '../../lib/sweep/spec.js';

/**
 * A healthy fake fixture and a trial runner whose UDS/TCP ratio wobbles by
 * ±10 % run to run (so every group wants more runs for ±5 %), failing the
 * trials `fails` picks.
 * @param {string} workload
 * @param {string} primary the workload's primary figure
 * @param {(trial: import('../../lib/trial/trial.js').TrialSpec, call: number) => boolean} fails
 */
function fakes(workload, primary, fails) {
  let calls = 0;
  /** @type {{ size: number, depth: number }[]} */
  const trials = [];
  /** @type {string[]} */
  const notes = [];
  const server = {
    targets: { tcp: { transport: /** @type {const} */ ('tcp'), host: '127.0.0.1', port: 1 }, uds: { transport: /** @type {const} */ ('uds'), path: '/x' } },
    alive: () => true,
    check: async () => null,
    stop: async () => {},
  };
  return {
    deps: {
      /** @type {any} a fake fixture: what the orchestrator reads of one */
      startServer: async () => server,
      /** @type {any} */
      runTrial: async (/** @type {import('../../lib/trial/trial.js').TrialSpec} */ trial) => {
        const call = calls++;
        trials.push({ size: trial.size, depth: trial.depth });
        if (fails(trial, call)) return failedTrial(trial, new Error('trial exceeded its limit of 1 s'));
        const ratio = 2 * (call % 2 ? 1.1 : 0.9);
        return { records: trial.targets.map((t) => createRecord({ workload, node_version: trial.node_version, transport: t.transport, size_bytes: trial.size, depth: trial.depth, [primary]: t.transport === 'uds' ? 100 * ratio : 100 })), blocks: [] };
      },
      log: { appendAll: () => {} },
      onNote: (/** @type {string} */ m) => notes.push(m),
    },
    trials, notes,
  };
}

describe('precision rounds never feed on failures', () => {
  it('add no run to a group whose last trial failed, and say so', async () => {
    const spec = resolveSpec({ name: 'fake', source: 'fake.json', raw: { sizes: [1, 64], depths: [1], runs: 3, packets: 10, seed: 7, precision: '5%' } });
    // 1 B succeeds once, then fails (its server socket lost, say): one run, no interval, forever "wide";
    // without the rule, precision rounds would re-run it up to the most runs a group may have
    let ofSize1 = 0;
    const f = fakes('echo', 'msgs_per_s', (trial) => trial.size === 1 && ++ofSize1 > 1);
    const { rows, extra } = await runSweep(spec, f.deps);
    expect(f.trials.filter((t) => t.size === 1)).toHaveLength(3); // the planned runs only
    expect(f.trials.filter((t) => t.size === 64).length).toBeGreaterThan(3); // the other group still gets its runs
    expect(rows.filter((r) => r.status === 'error')).toHaveLength(4);
    expect(extra).toBe(rows.length - 12);
    expect(f.notes.some((n) => /^precision round 1: 1 group\(s\) wider than ±5 %.*; 1 more left out: their last trial failed$/.test(n))).toBe(true);
  });

  it('a group whose last trial failed during the precision rounds gets no further run', async () => {
    const spec = resolveSpec({ name: 'fake', source: 'fake.json', raw: { sizes: [1, 64], depths: [1], runs: 3, packets: 10, seed: 7, precision: '5%' } });
    let extraOf1 = 0;
    const f = fakes('echo', 'msgs_per_s', (trial, call) => trial.size === 1 && call >= 6 && ++extraOf1 === 2); // its second extra run fails
    await runSweep(spec, f.deps);
    expect(f.trials.filter((t) => t.size === 1)).toHaveLength(5); // 3 planned, 2 extra, the last of which failed
    expect(f.notes.at(-1)).toBe('precision: 1 group(s) wider than ±5 % get no more runs: their last trial failed');
  });

  it("name a group by the workload's own depth axis (stream: streams, not depth)", async () => {
    const spec = resolveSpec({ name: 'fake', source: 'fake.json', raw: { workload: 'stream', sizes: [1024], runs: 3, duration: '20ms', warmup: '0ms', seed: 7, precision: '5%', maxTime: '1s' } });
    const f = fakes('stream', 'gb_per_s', () => false);
    let t = 0;
    await runSweep(spec, { ...f.deps, now: () => (t += 100) });
    const round = f.notes.find((n) => n.startsWith('precision round 1:'));
    expect(round).toMatch(/widest 1 KiB streams 1 ±/);
    expect(round).not.toMatch(/depth/);
  });

  it('failingGroups: a group fails when a row of its highest run failed; superseded rows do not count', () => {
    const row = (/** @type {number} */ run, /** @type {number} */ size, /** @type {string} */ status, transport = 'tcp') => ({ run, size_bytes: size, depth: 1, transport, status });
    const groups = failingGroups([
      row(0, 1, 'error'), row(1, 1, 'ok'), row(1, 1, 'ok', 'uds'), // failed earlier, fine since
      row(0, 64, 'ok'), row(1, 64, 'ok'), row(1, 64, 'error', 'uds'), // its last run failed on one transport
      row(0, 2, 'ok'), row(1, 2, 'superseded'), // a superseded run is not its last
      row(0, 4, 'error'),
    ]);
    expect([...groups].sort()).toEqual(['4|1', '64|1']);
  });
});

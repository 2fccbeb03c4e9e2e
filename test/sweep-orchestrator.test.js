import { describe, expect, it } from 'vitest';
import { createRecord } from '../lib/record.js';
import { runSweep } from '../lib/sweep/orchestrator.js';
import { jobKey, planTrials } from '../lib/sweep/schedule.js';
import { resolveSpec } from '../lib/sweep/spec.js';

const spec = resolveSpec({ name: 'fake', source: 'fake.json', raw: { sizes: [1, 64, 1024], depths: [1, 16], runs: 3, packets: 10, seed: 7 } });

/** A fake server and trial runner: the orchestrator's logic without sockets. */
function fakes({ failAt = -1, dieAt = -1 } = {}) {
  let servers = 0;
  let calls = 0;
  /** @type {Record<string, unknown>[]} */
  const appended = [];
  const startServer = async () => {
    servers++;
    let alive = true;
    return { tcp: { host: '127.0.0.1', port: 1 }, uds: { path: '/x' }, alive: () => alive, stop: async () => { alive = false; }, kill: () => { alive = false; } };
  };
  /** @type {any} */
  const runTrial = async (/** @type {any} */ trial, /** @type {any} */ server) => {
    const n = calls++;
    if (n === dieAt) server.kill();
    if (n === failAt) return createRecord({ workload: 'echo', transport: trial.target.transport, size_bytes: trial.size, depth: trial.depth, status: 'error', error: 'trial process killed by SIGKILL before reporting' });
    return createRecord({ workload: 'echo', transport: trial.target.transport, size_bytes: trial.size, depth: trial.depth, packets: 10, msgs_per_s: 100 });
  };
  return { startServer, runTrial, log: { append: (/** @type {any} */ row) => appended.push(row) }, appended, servers: () => servers };
}

describe('sweep orchestration', () => {
  it('plans every job once per run, in an order reproducible from the seed', () => {
    const plan = planTrials(spec);
    expect(plan).toHaveLength(3 * 2 * 2 * 3);
    for (let run = 0; run < 3; run++) {
      const inRun = plan.filter((j) => j.run === run);
      expect(inRun.map((j) => j.order)).toEqual([...Array(12).keys()]);
      expect(new Set(inRun.map((j) => `${j.size}|${j.depth}|${j.transport}`)).size).toBe(12);
    }
    expect(planTrials(spec)).toEqual(plan);
    const other = planTrials({ ...spec, seed: 8 });
    expect(other.map((j) => jobKey(j))).not.toEqual(plan.map((j) => jobKey(j)));
    // runs are shuffled independently
    expect(plan.filter((j) => j.run === 0).map((j) => jobKey({ ...j, run: 0 }))).not.toEqual(plan.filter((j) => j.run === 1).map((j) => jobKey({ ...j, run: 0 })));
  });

  it('appends a row per trial, with run and order, and keeps going past a failed trial', async () => {
    const f = fakes({ failAt: 2 });
    const { rows, interrupted, planned } = await runSweep(spec, f);
    expect(interrupted).toBe(false);
    expect(planned).toBe(36);
    expect(rows).toHaveLength(36);
    expect(f.appended).toEqual(rows);
    expect(rows[2]).toMatchObject({ status: 'error', error: 'trial process killed by SIGKILL before reporting' });
    expect(rows.filter((r) => r.status === 'ok')).toHaveLength(35);
    expect(rows.map((r) => `${r.run}|${r.order}`)).toEqual(planTrials(spec).map((j) => `${j.run}|${j.order}`));
  });

  it('restarts a server that died and records that trial as failed', async () => {
    const f = fakes({ dieAt: 5 });
    const { rows } = await runSweep(spec, f);
    expect(rows[5]).toMatchObject({ status: 'error', error: 'the echo server died during the trial; it was restarted' });
    expect(rows[6].status).toBe('ok');
    expect(f.servers()).toBe(2);
  });

  it('runs only the missing trials on resume', async () => {
    const done = new Set(planTrials(spec).slice(0, 30).map((j) => jobKey(j)));
    const f = fakes();
    const { rows } = await runSweep(spec, { ...f, done });
    expect(rows).toHaveLength(6);
    expect(rows.map((r) => jobKey({ ...r, size: r.size_bytes }))).toEqual(planTrials(spec).slice(30).map((j) => jobKey(j)));
  });

  it('stops at an abort, keeping the rows it has', async () => {
    const controller = new AbortController();
    const f = fakes();
    const { rows, interrupted } = await runSweep(spec, { ...f, signal: controller.signal, onEnd: (_job, _row, index) => { if (index === 3) controller.abort(); } });
    expect(interrupted).toBe(true);
    expect(rows).toHaveLength(4);
  });
});

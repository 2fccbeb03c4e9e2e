import { describe, expect, it } from 'vitest';
import { createRecord } from '../../lib/trial/record.js';
import { failedTrial } from '../../lib/trial/trial.js';
import { runSweep } from '../../lib/sweep/orchestrator.js';
import { jobKeys, planTrials } from '../../lib/sweep/schedule.js';
import { resolveSpec } from '../../lib/sweep/spec.js';

const spec = resolveSpec({ name: 'fake', source: 'fake.json', raw: { sizes: [1, 64, 1024], depths: [1, 16], runs: 3, packets: 10, seed: 7 } });

/**
 * A fake server and trial runner: the orchestrator's logic without sockets.
 * @param {{ failAt?: number, dieAt?: number, ratio?: (trial: any, call: number) => number, clock?: { t: number }, trialMs?: number }} [options]
 */
function fakes({ failAt = -1, dieAt = -1, ratio = () => 2, clock, trialMs = 1000 } = {}) {
  let servers = 0;
  let stopped = 0;
  let warmed = 0;
  let calls = 0;
  /** @type {Record<string, unknown>[]} */
  const appended = [];
  /** @type {Record<string, unknown>[]} */
  const blocks = [];
  /** @type {any} a fake fixture: what the orchestrator reads of one */
  const startServer = async () => {
    servers++;
    let alive = true;
    return { targets: { tcp: { transport: /** @type {const} */ ('tcp'), host: '127.0.0.1', port: 1 }, uds: { transport: /** @type {const} */ ('uds'), path: '/x' } }, alive: () => alive, stop: async () => { alive = false; stopped++; }, kill: () => { alive = false; } };
  };
  /** @type {any} */
  const runTrial = async (/** @type {import('../../lib/trial/trial.js').TrialSpec} */ trial, /** @type {any} */ server) => {
    const n = calls++;
    if (clock) clock.t += trialMs;
    if (n === dieAt) server.kill();
    if (n === failAt) return failedTrial(trial, new Error('trial process killed by SIGKILL before reporting'));
    const r = ratio(trial, n);
    return {
      records: trial.targets.map((t) => createRecord({ workload: 'echo', node_version: trial.node_version, transport: t.transport, size_bytes: trial.size, depth: trial.depth, packets: 10, msgs_per_s: t.transport === 'uds' ? 100 * r : 100 })),
      blocks: trial.targets.map((t, block) => ({ transport: t.transport, block, packets: 10, elapsed_ms: 1, msgs_per_s: t.transport === 'uds' ? 1e4 * r : 1e4, client_cpu_us_per_msg: 1, server_cpu_us_per_msg: 1, client_elu: 0.5, server_elu: 0.5 })),
    };
  };
  return {
    startServer,
    warmServer: async () => { warmed++; },
    runTrial,
    log: { appendAll: (/** @type {any[]} */ rows) => appended.push(...rows) },
    blockLog: { appendAll: (/** @type {any[]} */ rows) => blocks.push(...rows) },
    appended, blocks, servers: () => servers, stopped: () => stopped, warmed: () => warmed, calls: () => calls,
  };
}

describe('sweep orchestration', () => {
  it('plans every (size, depth) group once per run, both transports in one trial, in an order reproducible from the seed', () => {
    const plan = planTrials(spec);
    expect(plan).toHaveLength(3 * 2 * 3);
    for (let run = 0; run < 3; run++) {
      const inRun = plan.filter((j) => j.run === run);
      expect(inRun.map((j) => j.order)).toEqual([...Array(6).keys()]);
      expect(new Set(inRun.map((j) => `${j.size}|${j.depth}`)).size).toBe(6);
      for (const job of inRun) expect([...job.transports].sort()).toEqual(['tcp', 'uds']);
    }
    expect(planTrials(spec)).toEqual(plan);
    // the transport that opens A B B A is drawn, so both open some trials
    expect(new Set(plan.map((j) => j.transports[0]))).toEqual(new Set(['tcp', 'uds']));
    const other = planTrials({ ...spec, seed: 8 });
    expect(other.map((j) => jobKeys(j).join())).not.toEqual(plan.map((j) => jobKeys(j).join()));
  });

  it('warms a new server with the first planned group of its Node version, every transport, from the plan it runs', async () => {
    const f = fakes();
    /** @type {{ node: string, trial: import('../../lib/trial/trial.js').TrialSpec }[]} */
    const warmed = [];
    await runSweep({ ...spec, pairing: 'trials' }, { ...f, nodes: ['v20.0.0', 'v22.0.0'], warmServer: async (_server, node, trial) => { warmed.push({ node, trial }); } });
    const plan = planTrials({ ...spec, pairing: 'trials', nodes: ['v20.0.0', 'v22.0.0'] });
    expect(warmed.map((w) => w.node).sort()).toEqual(['v20.0.0', 'v22.0.0']);
    for (const { node, trial } of warmed) {
      const first = plan.find((job) => job.node === node);
      expect(trial).toMatchObject({ node_version: node, size: first?.size, depth: first?.depth });
      expect(trial.targets.map((t) => t.transport)).toEqual(spec.transports); // one transport per trial, yet all warmed
    }
  });

  it('with pairing "trials" plans one transport per trial, as in 2014', () => {
    const plan = planTrials({ ...spec, pairing: 'trials' });
    expect(plan).toHaveLength(3 * 2 * 2 * 3);
    expect(plan.every((j) => j.transports.length === 1)).toBe(true);
  });

  it('appends one row per transport of each trial, with run and order, blocks too, and keeps going past a failed trial', async () => {
    const f = fakes({ failAt: 2 });
    const { rows, interrupted, planned } = await runSweep(spec, f);
    expect(interrupted).toBe(false);
    expect(planned).toBe(36);
    expect(rows).toHaveLength(36);
    expect(f.appended).toEqual(rows);
    expect(rows.slice(4, 6).map((r) => r.status)).toEqual(['error', 'error']);
    expect(rows[4]).toMatchObject({ error: 'trial process killed by SIGKILL before reporting' });
    expect(rows.filter((r) => r.status === 'ok')).toHaveLength(34);
    expect(f.blocks).toHaveLength(34);
    expect(f.blocks[0]).toMatchObject({ run: 0, size_bytes: planTrials(spec)[0].size, depth: planTrials(spec)[0].depth });
  });

  it('warms a new server before its first trial, and restarts (and warms) a server that died, recording that trial as failed', async () => {
    const f = fakes({ dieAt: 5 });
    const { rows } = await runSweep(spec, f);
    expect(rows[10]).toMatchObject({ status: 'error', error: 'the server died during the trial' });
    expect(rows[12].status).toBe('ok');
    expect(f.servers()).toBe(2);
    expect(f.warmed()).toBe(2);
    expect(f.stopped()).toBe(2); // the dead one too (what is left of a fixture: nginx, a socket file), then the last
  });

  it('with server "round", starts (and warms) a fresh server for each planned run and each precision round, stopping the last', async () => {
    const f = fakes({ ratio: (trial, n) => (trial.size === 1 && trial.depth === 1 && n % 2 ? 3 : 2) });
    await runSweep({ ...spec, server: 'round', precision: 0.05 }, f);
    expect(f.servers()).toBeGreaterThan(3); // 3 planned runs, then one per precision round
    expect(f.warmed()).toBe(f.servers());
    const one = fakes();
    await runSweep({ ...spec, server: 'sweep', precision: 0.05 }, one);
    expect(one.servers()).toBe(1);
  });

  it('runs only the missing trials on resume', async () => {
    const plan = planTrials(spec);
    const first = fakes();
    const { rows: all } = await runSweep(spec, first);
    const previous = all.slice(0, 24); // 12 trials of 18
    const f = fakes();
    const { rows } = await runSweep(spec, { ...f, previous });
    expect(rows).toHaveLength(12);
    expect(f.calls()).toBe(6);
    expect(rows.filter((_, i) => i % 2 === 0).map((r) => `${r.run}|${r.size_bytes}|${r.depth}`)).toEqual(plan.slice(12).map((j) => `${j.run}|${j.size}|${j.depth}`));
  });

  it('stops at an abort, keeping the rows it has', async () => {
    const controller = new AbortController();
    const f = fakes();
    const { rows, interrupted } = await runSweep(spec, { ...f, signal: controller.signal, onEnd: (_job, _rows, index) => { if (index === 3) controller.abort(); } });
    expect(interrupted).toBe(true);
    expect(rows).toHaveLength(8);
  });

  it('with a target precision, adds runs only to the groups whose UDS/TCP interval is too wide, until they meet it', async () => {
    const precise = { ...spec, precision: 0.05 };
    // 1 KiB groups wobble by ±10 % run to run; the others are steady
    const f = fakes({ ratio: (trial, call) => (trial.size === 1024 ? 2 * (call % 2 ? 1.1 : 0.9) : 2 * (1 + 0.001 * (call % 3))) });
    const { rows, extra } = await runSweep(precise, f);
    const runsOf = (/** @type {number} */ size) => new Set(rows.filter((r) => r.size_bytes === size).map((r) => r.run)).size;
    expect(runsOf(1)).toBe(3);
    expect(runsOf(64)).toBe(3);
    expect(runsOf(1024)).toBeGreaterThan(3);
    expect(extra).toBe(rows.length - 36);
    // the wobble is ±10 %: the interval of the mean narrows below ±5 % only with many runs
    expect(runsOf(1024)).toBeGreaterThanOrEqual(10);
  });

  it('on resume, goes on adding runs for the precision, with a time budget that starts at the resume', async () => {
    const clock = { t: 0 };
    const first = fakes({ clock, ratio: (_trial, call) => 2 * (1 + 0.3 * Math.sin(call * 1.7)) });
    const { rows: before } = await runSweep({ ...spec, precision: 0.01, maxTimeMs: 20_000 }, { ...first, now: () => clock.t });
    const later = fakes({ clock, ratio: (_trial, call) => 2 * (1 + 0.3 * Math.sin(call * 1.3)) });
    clock.t = 1_000_000; // long after: the first session's time does not count
    const { rows, timeUp } = await runSweep({ ...spec, precision: 0.01, maxTimeMs: 5_000 }, { ...later, previous: before, now: () => clock.t });
    expect(later.calls()).toBe(5); // nothing planned is missing; extra runs while one more fits in 5 s
    expect(rows.every((r) => r.run >= spec.runs)).toBe(true);
    expect(timeUp).toBe(true);
  });

  it('starts no extra run that would pass --max-time, and says so', async () => {
    const clock = { t: 0 };
    /** @type {string[]} */
    const notes = [];
    const f = fakes({ clock, trialMs: 1000, ratio: (_trial, call) => 2 * (1 + 0.3 * Math.sin(call * 1.7)) });
    const { rows, timeUp } = await runSweep({ ...spec, precision: 0.01, maxTimeMs: 25_000 }, { ...f, now: () => clock.t, onNote: (m) => notes.push(m) });
    expect(timeUp).toBe(true);
    expect(f.calls()).toBe(25); // 18 planned, then extra runs while one more fits in 25 s
    expect(rows).toHaveLength(50);
    expect(notes.some((n) => /--max-time 25 s reached: \d+ group\(s\) short of ±1 %/.test(n))).toBe(true);
    expect(notes.some((n) => /^precision round 1: 6 group\(s\) wider than ±1 %/.test(n))).toBe(true);
  });

  it('announces no precision round whose first trial would pass --max-time: only that the time is up', async () => {
    const clock = { t: 0 };
    /** @type {string[]} */
    const notes = [];
    const f = fakes({ clock, trialMs: 1000, ratio: (_trial, call) => 2 * (1 + 0.3 * Math.sin(call * 1.7)) });
    // the 18 planned trials take 18 s: a 19th would end at 19 s, past 18.5 s
    const { rows, timeUp } = await runSweep({ ...spec, precision: 0.01, maxTimeMs: 18_500 }, { ...f, now: () => clock.t, onNote: (m) => notes.push(m) });
    expect([timeUp, f.calls(), rows.length]).toEqual([true, 18, 36]);
    expect(notes.filter((n) => /^precision round/.test(n))).toEqual([]);
    expect(notes).toContainEqual(expect.stringMatching(/^--max-time 18\.5 s reached: 6 group\(s\) short of ±1 %$/));
  });
});

import { describe, expect, it } from 'vitest';
import { createRecord } from '../../lib/trial/record.js';
import { failedTrial } from '../../lib/trial/trial.js';
import { MAX_FAILED_IN_A_ROW, MAX_REPLACEMENTS } from '../../lib/sweep/fixture-keeper.js';
import { runSweep } from '../../lib/sweep/orchestrator.js';
import { resolveSpec } from '../../lib/sweep/spec.js';

const spec = resolveSpec({ name: 'fake', source: 'fake.json', raw: { sizes: [1, 64, 1024], depths: [1, 16], runs: 3, packets: 10, seed: 7 } });

/**
 * Fake fixtures that break on demand, and a trial runner that fails on a
 * broken one (as a trial fails on a deleted socket or a stopped server).
 * @param {{ breakAt?: number, brokenFromStart?: boolean, failAlways?: boolean }} options
 *   breakAt: the fixture breaks before this trial (counted from 0); brokenFromStart: every fixture is broken;
 *   failAlways: every trial fails, fixture healthy or not
 */
function fakes({ breakAt = -1, brokenFromStart = false, failAlways = false }) {
  /** @typedef {{ broken: boolean, stoppedWith: unknown, checks: number }} State */
  /** @type {State[]} */
  const servers = [];
  let calls = 0;
  /** @type {Record<string, unknown>[]} */
  const appended = [];
  /** @type {import('../../lib/sweep/fixture-keeper.js').Replacement[]} */
  const replaced = [];
  /** @type {string[]} */
  const notes = [];
  let warmed = 0;
  /** @type {any} a fake fixture: what the orchestrator reads of one */
  const startServer = async () => {
    /** @type {State} */
    const state = { broken: brokenFromStart, stoppedWith: undefined, checks: 0 };
    servers.push(state);
    let alive = true;
    return {
      state,
      targets: { tcp: { transport: /** @type {const} */ ('tcp'), host: '127.0.0.1', port: 1 }, uds: { transport: /** @type {const} */ ('uds'), path: '/x' } },
      alive: () => alive,
      check: async () => {
        state.checks++;
        return state.broken ? 'the socket file /x was deleted' : null;
      },
      stop: async (/** @type {unknown} */ options) => {
        alive = false;
        state.stoppedWith = options ?? 'graceful';
      },
    };
  };
  /** @type {any} */
  const runTrial = async (/** @type {import('../../lib/trial/trial.js').TrialSpec} */ trial, /** @type {any} */ server) => {
    if (calls++ === breakAt) server.state.broken = true;
    if (server.state.broken || failAlways) return failedTrial(trial, new Error('cannot connect to uds /x: ENOENT'));
    return { records: trial.targets.map((t) => createRecord({ workload: 'echo', node_version: trial.node_version, transport: t.transport, size_bytes: trial.size, depth: trial.depth, packets: 10, msgs_per_s: 100 })), blocks: [] };
  };
  return {
    deps: {
      startServer, runTrial, warmServer: async () => { warmed++; },
      log: { appendAll: (/** @type {any[]} */ rows) => appended.push(...rows) },
      onReplace: (/** @type {any} */ r) => replaced.push(r),
      onNote: (/** @type {string} */ m) => notes.push(m),
    },
    servers, appended, replaced, notes, warmed: () => warmed, calls: () => calls,
  };
}

describe('after a failed trial the sweep checks its fixture', () => {
  it('replaces an unusable fixture (SIGKILL), warms the new one, and records why; the trials after it succeed', async () => {
    const f = fakes({ breakAt: 4 });
    const { rows } = await runSweep(spec, f.deps);
    expect(rows).toHaveLength(36);
    expect(rows.filter((r) => r.status === 'error')).toHaveLength(2); // the one trial that met the broken fixture
    expect(rows.slice(10).every((r) => r.status === 'ok')).toBe(true);
    expect(f.servers).toHaveLength(2);
    expect(f.warmed()).toBe(2);
    expect(f.servers[0].stoppedWith).toEqual({ force: true });
    expect(f.servers[1].stoppedWith).toBe('graceful');
    expect(f.replaced).toEqual([{ at: expect.any(String), replacement: 1, reason: 'the socket file /x was deleted', after: { run: rows[8].run, node_version: rows[8].node_version, size_bytes: rows[8].size_bytes, depth: rows[8].depth } }]);
    expect(f.notes).toContain(`the socket file /x was deleted; replacing the server (replacement 1 of at most ${MAX_REPLACEMENTS} in this session)`);
  });

  it('keeps a fixture that passes its check after a failed trial', async () => {
    const f = fakes({});
    let n = 0;
    const failing = { ...f.deps, runTrial: async (/** @type {any} */ trial, /** @type {any} */ server) => (n++ === 3 ? failedTrial(trial, new Error('trial process killed by SIGKILL before reporting')) : f.deps.runTrial(trial, server)) };
    const { rows } = await runSweep(spec, failing);
    expect(rows.filter((r) => r.status === 'error')).toHaveLength(2);
    expect(f.servers).toHaveLength(1);
    expect(f.servers[0].checks).toBe(1); // checked once: after the failed trial only
    expect(f.replaced).toEqual([]);
  });

  it(`stops the sweep, keeping its rows, when the fixture would need replacing a ${MAX_REPLACEMENTS + 1}th time`, async () => {
    const f = fakes({ brokenFromStart: true });
    await expect(runSweep(spec, f.deps)).rejects.toThrow(new RegExp(`^sweep stopped: the server is unusable and was already replaced ${MAX_REPLACEMENTS} times, the most a session allows: the socket file /x was deleted$`));
    expect(f.appended).toHaveLength((MAX_REPLACEMENTS + 1) * 2);
    expect(f.replaced.map((r) => r.replacement)).toEqual([1, 2, 3]);
    expect(f.servers).toHaveLength(MAX_REPLACEMENTS + 1);
    expect(f.servers.every((s) => JSON.stringify(s.stoppedWith) === '{"force":true}')).toBe(true); // none left running
  });

  it(`stops the sweep after ${MAX_FAILED_IN_A_ROW} failed trials in a row on a fixture that passes its check`, async () => {
    const f = fakes({ failAlways: true });
    await expect(runSweep({ ...spec, precision: 0.01 }, f.deps)).rejects.toThrow(`sweep stopped: ${MAX_FAILED_IN_A_ROW} trials in a row failed (the most a sweep allows), the last with: cannot connect to uds /x: ENOENT; the server passed its health check`);
    expect(f.calls()).toBe(MAX_FAILED_IN_A_ROW);
    expect(f.appended).toHaveLength(MAX_FAILED_IN_A_ROW * 2);
    expect(f.servers).toHaveLength(1);
    expect(f.servers[0].stoppedWith).toBe('graceful');
  });

  it('replaces a fixture found dead between trials, counting it', async () => {
    const f = fakes({});
    /** @type {any} */
    let first;
    const deps = { ...f.deps, onEnd: (/** @type {any} */ _job, /** @type {any} */ _rows, /** @type {number} */ index) => { if (index === 1) first.stop(); } };
    deps.startServer = async () => {
      const s = await f.deps.startServer();
      first ??= s;
      return s;
    };
    const { rows } = await runSweep(spec, deps);
    expect(rows.every((r) => r.status === 'ok')).toBe(true);
    expect(f.replaced).toEqual([expect.objectContaining({ replacement: 1, reason: 'the server exited between trials', after: null })]);
  });

  it('once the sweep is aborted, a failed trial is not looked into: no check, no new server while stopping', async () => {
    const f = fakes({ breakAt: 2 });
    const controller = new AbortController();
    const deps = { ...f.deps, signal: controller.signal, onEnd: (/** @type {any} */ _job, /** @type {any[]} */ rows) => { if (rows[0].status === 'error') controller.abort(); } };
    const { interrupted } = await runSweep(spec, deps);
    expect(interrupted).toBe(true);
    expect(f.servers).toHaveLength(1);
    expect(f.servers[0].checks).toBe(0);
    expect(f.replaced).toEqual([]);
  });
});

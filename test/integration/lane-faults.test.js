/**
 * A trial of several lanes when one lane fails: before it measures (its
 * target refuses), or killed in the middle. The trial ends with a row per
 * lane saying why, well before its time limit, and leaves no lane process.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../lib/fixture/server.js';
import { runLanes } from '../../lib/trial/lanes.js';
import { descendants } from '../helpers/processes.js';
import { waitFor } from '../helpers/wait.js';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {string} */
let dir;
beforeAll(async () => {
  server = await startServer();
  dir = await mkdtemp(join(tmpdir(), 'udsvstcp-test-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const lanesOf = () => descendants(process.pid).filter((p) => p.cmdline.includes('trial/worker.js'));
/** @param {Partial<import('../../lib/workloads/workload.js').TrialSpec>} spec */
const trial = (spec) => ({ workload: 'echo', size: 64, depth: 1, seed: 1, noDelay: true, timeoutMs: 5000, warmup: { ms: 50 }, maxMs: 120_000, ...spec });

describe('a lane that fails', () => {
  it('before it measures: every row says why, the other lanes are stopped, nothing is left', async () => {
    const targets = /** @type {any[]} */ ([{ transport: 'tcp', ...server.tcp }, { transport: 'ipc-json' }, { transport: 'uds', path: join(dir, 'nobody-listens.sock') }]);
    const { records } = await runLanes(/** @type {any} */ (trial({ targets, measure: { ms: 60_000 } })), { server: { snapshot: async () => server.stats() }, limitMs: 120_000 });
    expect(records.map((r) => [r.transport, r.status])).toEqual([['tcp', 'error'], ['ipc-json', 'error'], ['uds', 'error']]);
    for (const r of records) expect(r.error).toMatch(/nobody-listens\.sock|ENOENT|ECONNREFUSED/);
    // the lane that failed gives its own cause; the others name it
    expect(records[2].error).toMatch(/^cannot connect to uds \S+nobody-listens\.sock: ENOENT/);
    for (const r of records.slice(0, 2)) expect(r.error).toMatch(/^not measured: the uds lane failed: cannot connect to uds /);
    expect(await waitFor(() => lanesOf().length === 0, { timeoutMs: 5000 })).toBe(true);
    expect(await waitFor(() => descendants(process.pid).filter((p) => p.cmdline.includes('echo-main.js')).length === 0, { timeoutMs: 5000 })).toBe(true);
  });

  it('killed in the middle: the trial ends at once naming the signal, not at its time limit', async () => {
    const targets = /** @type {any[]} */ ([{ transport: 'tcp', ...server.tcp }, { transport: 'uds', path: server.uds.path }]);
    const running = runLanes(/** @type {any} */ (trial({ targets, measure: { ms: 60_000 } })), { server: { snapshot: async () => server.stats() }, limitMs: 120_000 });
    expect(await waitFor(() => lanesOf().length === 2, { timeoutMs: 10_000 })).toBe(true);
    const [, second] = lanesOf();
    process.kill(second.pid, 'SIGKILL');
    const { records } = await running;
    expect(records.map((r) => r.status)).toEqual(['error', 'error']);
    expect(records[0].error).toMatch(/lane's process was killed by SIGKILL/);
    // the killed lane's row gives its own cause; TCP's the same (killed once both had planned: whose it was is not told
    // apart) or, killed before it planned, names the uds lane
    expect(records[1].error).toMatch(/^the uds lane's process was killed by SIGKILL/);
    expect([records[1].error, `not measured: the uds lane failed: ${records[1].error}`]).toContain(records[0].error);
    expect(await waitFor(() => lanesOf().length === 0, { timeoutMs: 5000 })).toBe(true);
  }, 30_000);

  it('killed while measuring: its row gives its cause, the other names it (lanes take turns: the failed block tells whose)', async () => {
    const targets = /** @type {any[]} */ ([{ transport: 'tcp', ...server.tcp }, { transport: 'uds', path: server.uds.path }]);
    const before = server.stats().bytes_in;
    const running = runLanes(/** @type {any} */ (trial({ targets, measure: { ms: 60_000 } })), { server: { snapshot: async () => server.stats() }, limitMs: 120_000 });
    // blocks run only once every lane has planned: bytes at the server mean both are past their set-up
    expect(await waitFor(() => lanesOf().length === 2 && server.stats().bytes_in > before, { timeoutMs: 10_000 })).toBe(true);
    process.kill(lanesOf()[1].pid, 'SIGKILL');
    const { records } = await running;
    expect(records[1].error).toMatch(/^the uds lane's process was killed by SIGKILL/);
    expect(records[0].error).toBe(`not measured: the uds lane failed: ${records[1].error}`);
    expect(await waitFor(() => lanesOf().length === 0, { timeoutMs: 5000 })).toBe(true);
  }, 30_000);
});

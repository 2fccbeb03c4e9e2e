import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../lib/fixture/server.js';
import { runTrial } from '../../lib/trial/trial.js';
import { descendants } from '../helpers/processes.js';
import { waitFor } from '../helpers/wait.js';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const MESSAGE = /** @type {const} */ (['ipc-json', 'ipc-advanced', 'worker']);

describe('echo over the message transports', () => {
  it('measures TCP, ipc-json, ipc-advanced and worker in one trial: a verified record each, with both ends\' CPU', async () => {
    const targets = /** @type {import('../../lib/client/transport.js').Target[]} */ ([{ transport: 'tcp', ...server.tcp }, ...MESSAGE.map((transport) => ({ transport }))]);
    const { records, blocks } = await runTrial({
      workload: 'echo', targets, size: 1024, depth: 4, seed: 5, noDelay: true, timeoutMs: 5000,
      measure: { packets: 1200 }, warmup: { packets: 400 },
    }, { probe: { snapshot: async () => server.stats() } });
    expect(records.map((r) => [r.transport, r.status, r.error])).toEqual([['tcp', 'ok', ''], ...MESSAGE.map((t) => [t, 'ok', ''])]);
    for (const r of records) {
      expect(r.packets).toBe(1200);
      expect(Number(r.msgs_per_s)).toBeGreaterThan(0);
      expect(Number(r.rtt_p50_us)).toBeGreaterThan(0);
      expect(Number(r.client_cpu_us_per_msg)).toBeGreaterThan(0);
      expect(Number(r.server_cpu_us_per_msg)).toBeGreaterThan(0);
      expect(r.blocks).toBe(blocks.filter((b) => b.transport === r.transport).length);
    }
    // read calls: counted on sockets and the worker's wake-ups, not on the IPC channel (recvmsg)
    const reads = Object.fromEntries(records.map((r) => [r.transport, [r.client_reads_per_msg === null, r.server_reads_per_msg === null]]));
    expect(reads).toEqual({ tcp: [false, false], 'ipc-json': [true, true], 'ipc-advanced': [true, true], worker: [false, false] });
    // every echo peer the trial started has ended with it
    expect(await waitFor(() => descendants(process.pid).filter((p) => p.cmdline.includes('echo-main.js')).length === 0, { timeoutMs: 5000 })).toBe(true);
  });

  it('refuses a message transport for a workload that needs a socket, as an error row', async () => {
    const { records } = await runTrial({
      workload: 'stream', targets: [{ transport: 'worker' }], size: 1024, depth: 1, seed: 5, noDelay: true, timeoutMs: 5000,
      measure: { packets: 10 }, warmup: { packets: 0 },
    });
    expect(records[0]).toMatchObject({ transport: 'worker', status: 'error' });
    expect(records[0].error).toMatch(/worker is not a byte stream/);
  });
});

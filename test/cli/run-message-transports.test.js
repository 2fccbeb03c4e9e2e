/**
 * `run` over the message transports beside TCP, through the binary: a forked
 * child on the IPC channel (JSON and advanced) and a worker thread, every
 * echoed byte verified on each, each against TCP, and no echo child left
 * behind. Beside a server not ours: test/integration/run-targets; refused
 * where a workload has no such transport: test/unit/bad-input.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { processesWithEnvironment } from '../helpers/processes.js';

describe('udsvstcp run --transport tcp,ipc-json,ipc-advanced,worker', () => {
  it('gives an ok, verified record for each and a ratio against TCP for each', async () => {
    const mark = `${process.pid}-${Date.now()}`; // every process the run starts carries it, wherever it is reparented
    const { code, stdout, stderr } = await runCli(['run', '--transport', 'tcp,ipc-json,ipc-advanced,worker', '--size', '1KiB', '--depth', '4', '--packets', '1600', '--warmup', '0', '--json'], { env: { UDSVSTCP_TEST_MARK: mark } });
    expect(code, stderr).toBe(0);
    const records = stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(records.map((r) => r.transport)).toEqual(['tcp', 'ipc-json', 'ipc-advanced', 'worker']);
    for (const r of records) {
      // status ok: every echoed byte was compared with what was sent
      expect(r).toMatchObject({ workload: 'echo', size_bytes: 1024, depth: 4, status: 'ok', error: '' });
      expect(r.packets).toBeGreaterThan(0);
      expect(r.server_cpu_us_per_msg).toBeGreaterThan(0);
    }
    for (const label of ['IPC JSON', 'IPC advanced', 'worker']) expect(stderr).toMatch(new RegExp(`^1 KiB depth 4: ${label} ×\\d+\\.\\d\\d the msgs/s of TCP`, 'm'));
    expect(stderr).not.toMatch(/read and write calls per unit are empty/); // the IPC channel's reads are empty by design
    expect(processesWithEnvironment(`UDSVSTCP_TEST_MARK=${mark}`)).toEqual([]);
  });
});

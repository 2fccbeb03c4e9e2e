/**
 * `run` over the message transports beside TCP: a forked child on the IPC
 * channel (JSON and advanced) and a worker thread, every echoed byte
 * verified on each, each against TCP, and no echo child left behind.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startTcpServer } from '../helpers/servers.js';
import { processesWithEnvironment } from '../helpers/processes.js';

describe('udsvstcp run --transport tcp,ipc-json,ipc-advanced,worker', () => {
  it('gives an ok, verified record for each and a ratio against TCP for each', async () => {
    const mark = `${process.pid}-${Date.now()}`; // every process the run starts carries it, wherever it is reparented
    const { code, stdout, stderr } = await runCli(['run', '--transport', 'tcp,ipc-json,ipc-advanced,worker', '--size', '1KiB', '--depth', '4', '--duration', '60ms', '--warmup', '20ms', '--json'], { env: { UDSVSTCP_TEST_MARK: mark } });
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

  it('runs a message transport beside a TCP server that is not ours', async () => {
    const server = await startTcpServer((socket) => socket.pipe(socket));
    try {
      const { code, stdout, stderr } = await runCli(['run', '--tcp', `127.0.0.1:${server.target.port}`, '--transport', 'tcp,worker', '--size', '64', '--duration', '30ms', '--warmup', '10ms', '--json']);
      expect(code, stderr).toBe(0);
      const records = stdout.trim().split('\n').map((line) => JSON.parse(line));
      expect(records.map((r) => [r.transport, r.status])).toEqual([['tcp', 'ok'], ['worker', 'ok']]);
      expect(records[1].server_cpu_us_per_msg).toBeGreaterThan(0); // the worker is ours, whoever serves TCP
    } finally {
      await server.close();
    }
  });

  it.each([
    [['--workload', 'stream', '--transport', 'tcp,ipc-json']],
    [['--workload', 'http', '--transport', 'worker']],
  ])('refuses %j with exit 2 before anything starts', async (flags) => {
    const { code, stderr, stdout } = await runCli(['run', ...flags, '--duration', '10ms']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--transport (ipc-json|worker): the (stream|http) workload needs/);
    expect(stdout).toBe('');
  });
});

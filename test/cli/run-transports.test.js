/**
 * `run` over three transports at once: TCP, UDS and a Linux abstract socket,
 * every echoed byte verified on each, each against TCP; and transport names
 * refused before anything starts.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const linux = process.platform === 'linux';

describe('udsvstcp run --transport tcp,uds,uds-abstract', () => {
  it.skipIf(!linux)('gives an ok, verified record for each transport and a ratio against TCP for each', async () => {
    const { code, stdout, stderr } = await runCli(['run', '--transport', 'tcp,uds,uds-abstract', '--size', '1KiB', '--depth', '4', '--duration', '60ms', '--warmup', '20ms', '--json']);
    expect(code, stderr).toBe(0);
    const records = stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(records.map((r) => r.transport).sort()).toEqual(['tcp', 'uds', 'uds-abstract']);
    for (const r of records) {
      // status ok: the pipeline compared every echoed byte with what was sent
      expect(r).toMatchObject({ workload: 'echo', size_bytes: 1024, depth: 4, status: 'ok', error: '' });
      expect(r.packets).toBeGreaterThan(0);
      expect(r.server_cpu_us_per_msg).toBeGreaterThan(0);
    }
    expect(stderr).toMatch(/uds-abstract @udsvstcp-[0-9a-f]{16}/);
    expect(stderr).toMatch(/^1 KiB depth 4: UDS ×\d+\.\d\d the msgs\/s of TCP/m);
    expect(stderr).toMatch(/^1 KiB depth 4: UDS abstract ×\d+\.\d\d the msgs\/s of TCP/m);
  });

  it.skipIf(!linux)('runs the stream, connect and http workloads over the abstract socket too', async () => {
    /** @type {[string, string[]][]} */
    const cases = [['stream', ['--size', '64k']], ['connect', []], ['http', ['--connections', '2']]];
    for (const [workload, flags] of cases) {
      const { code, stdout, stderr } = await runCli(['run', '--workload', workload, ...flags, '--transport', 'tcp,uds-abstract', '--duration', '30ms', '--warmup', '10ms', '--json']);
      expect(code, `${workload}: ${stderr}`).toBe(0);
      const records = stdout.trim().split('\n').map((line) => JSON.parse(line));
      expect(records.map((r) => [r.transport, r.status]).sort()).toEqual([['tcp', 'ok'], ['uds-abstract', 'ok']]);
    }
  });

  it.each([
    [['--transport', 'tcp,udp'], /^udsvstcp: (error: )?--transport must be one of tcp, uds, uds-abstract/m],
    [['--transport', 'tcp,,uds'], /--transport must be one of/],
    [['--workload', 'proxy', '--transport', 'tcp,uds-abstract'], /--transport uds-abstract: the proxy workload needs/],
    [['--tcp', '127.0.0.1:9', '--uds', '/tmp/nothing-here.sock', '--transport', 'tcp,uds,uds-abstract'], /--transport uds-abstract needs a server of ours/],
  ])('refuses %j with exit 2 before anything starts', async (flags, message) => {
    const { code, stderr, stdout } = await runCli(['run', ...flags, '--duration', '10ms']);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });
});

/**
 * `run` with two transports: one trial alternates equal blocks of both and
 * gives the paired ratio with an interval from its block pairs; several
 * runs alternate the transport that opens, and the interval is taken across
 * them. main() runs in this process; the server it starts and each trial
 * process are real, and nothing is left running.
 */
import { describe, expect, it } from 'vitest';
import { callMainLeavingNothing } from '../helpers/in-process.js';

/** @param {string} stdout */
const lines = (stdout) => stdout.trim().split('\n').map((line) => JSON.parse(line));

describe('run over tcp and uds', () => {
  it('alternates blocks of both transports in one trial and prints the paired ratio with its interval from the block pairs', async () => {
    // 400 packets at depth 1: blocks of the floor, 100 × depth, four of each transport
    const one = await callMainLeavingNothing(['run', '--size', '64', '--depth', '1', '--packets', '400', '--warmup', '0', '--json']);
    expect(one.code, one.stderr).toBe(0);
    const [a, b] = lines(one.stdout);
    expect(a.blocks).toBe(b.blocks);
    expect(a.block_packets).toBe(b.block_packets);
    expect(a.blocks).toBeGreaterThanOrEqual(4);
    expect(a.packets).toBe(b.packets); // blocks of equal length, alternating
    expect(one.stderr).toMatch(/64 B depth 1: UDS ×\d+\.\d\d the msgs\/s of TCP \(95 % CI \d+\.\d\d–\d+\.\d\d(, not significant)?\);.*\[interval from the block pairs of one process \(batch means\)/);
  });

  it('alternates the transport that opens, run by run, and takes the interval across the runs; --nagle says so in the header line', async () => {
    const { code, stdout, stderr } = await callMainLeavingNothing(['run', '--size', '64', '--packets', '100', '--warmup', '0', '--runs', '3', '--nagle', '--json']);
    expect(code, stderr).toBe(0);
    expect(lines(stdout).map((r) => r.transport)).toEqual(['tcp', 'uds', 'uds', 'tcp', 'tcp', 'uds']);
    expect(stderr).toMatch(/UDS ×\d+\.\d\d the msgs\/s of TCP \(95 % CI \d+\.\d\d–\d+\.\d\d(, not significant)?\);.*\[interval from 3 runs\]/);
    expect(stderr).toMatch(/, TCP noDelay false\n/);
  });
});
